import { describe, expect, it } from "vitest";
import { extractBalance, numberToDecimal } from "../../src/service/balance.js";

describe("wallet balance parsing", () => {
  it.each([
    [{ ok: true, ton: "1.5", usdt: "2" }, "1.5", "2"],
    [{ ok: true, data: { ton: "1.5", usdt: "2" } }, "1.5", "2"],
    [{ ok: true, balance: { ton_balance: "3", usdt_balance: "4.25" } }, "3", "4.25"],
    [{ ok: true, balances: { balance_ton: "0", balance_usdt: "0.000001" } }, "0", "0.000001"],
    [{ ok: true, data: { balances: { TON: "7", USDT: "8" } } }, "7", "8"],
    [{ ok: true, data: { ton: { balance: "9.1" }, usdt: { amount: 10 } } }, "9.1", "10"],
    [{ ok: true, ton: 0.1, usdt: 12345678.123456 }, "0.1", "12345678.123456"],
    [{ ok: true, ton: 1e-7, usdt: 1e21 }, "0.0000001", "1000000000000000000000"],
    [{ ok: true, ton: 1.5e-7, usdt: 2.5e22 }, "0.00000015", "25000000000000000000000"],
  ])("finds the balances in %j", (body, ton, usdt) => {
    expect(extractBalance(body)).toEqual({ ton, usdt, recognised: true });
  });

  it("reports one currency alone, and an unknown shape as unrecognised", () => {
    expect(extractBalance({ data: { usdt: "5" } })).toEqual({
      ton: undefined,
      usdt: "5",
      recognised: true,
    });
    for (const body of [{ ok: true }, { data: [1] }, { ton: "lots" }, { ton: Number.NaN }]) {
      expect(extractBalance(body).recognised).toBe(false);
    }
  });

  it("turns numbers into decimal text without float arithmetic", () => {
    expect(numberToDecimal(0.30000000000000004)).toBe("0.30000000000000004");
    expect(numberToDecimal(-2.5e-8)).toBe("-0.000000025");
    expect(numberToDecimal(Number.POSITIVE_INFINITY)).toBeUndefined();
  });
});
