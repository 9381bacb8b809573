import { describe, expect, it } from "vitest";
import {
  currencyOf,
  exceeds,
  formatMoney,
  parseMoney,
  scaleMoney,
  spentBetween,
  sumMoney,
} from "../../src/costs/money.js";

describe("money as exact integers", () => {
  it("subtracts decimal balances exactly where floats would not", () => {
    // 0.3 - 0.1 is 0.19999999999999998 in floats.
    expect(formatMoney(spentBetween("ton", "0.3", "0.1")!)).toBe("0.2");
    expect(formatMoney(spentBetween("usdt", "1000", "999.25")!)).toBe("0.75");
    expect(formatMoney(spentBetween("ton", "100", "99.8125")!)).toBe("0.1875");
    expect(formatMoney(spentBetween("usdt", "10", "10.5")!)).toBe("-0.5");
  });

  it("keeps each currency's smallest unit: nano-TON and micro-USDT", () => {
    expect(parseMoney("ton", "0.000000001")).toEqual({ currency: "ton", units: 1n });
    expect(parseMoney("usdt", "0.000001")).toEqual({ currency: "usdt", units: 1n });
    expect(formatMoney({ currency: "usdt", units: 1n })).toBe("0.000001");
    expect(formatMoney({ currency: "ton", units: 12_000_000_000n })).toBe("12");
  });

  it("refuses what it cannot hold exactly instead of rounding it", () => {
    for (const bad of [undefined, "", " 1", "1e3", "1,5", "abc", "1.", ".5", "NaN"]) {
      expect(parseMoney("usdt", bad), String(bad)).toBeUndefined();
      expect(parseMoney("ton", bad), String(bad)).toBeUndefined();
    }
    expect(parseMoney("usdt", "0.0000001")).toBeUndefined();
    expect(parseMoney("ton", "0.0000000001")).toBeUndefined();
    expect(spentBetween("usdt", "1", undefined)).toBeUndefined();
  });

  it("sums, scales with one half-up rounding, and compares", () => {
    const a = parseMoney("usdt", "0.75")!;
    const b = parseMoney("usdt", "1.5")!;
    expect(formatMoney(sumMoney("usdt", [a, b]))).toBe("2.25");
    // 2.25 for 150 stars, priced for 100: 1.5 exactly.
    expect(formatMoney(scaleMoney(sumMoney("usdt", [a, b]), 100n, 150n))).toBe("1.5");
    // 1 micro-unit split in two rounds half up.
    expect(scaleMoney({ currency: "usdt", units: 1n }, 1n, 2n).units).toBe(1n);
    expect(scaleMoney({ currency: "usdt", units: 1n }, 1n, 3n).units).toBe(0n);
    expect(exceeds(b, a)).toBe(true);
    expect(exceeds(a, a)).toBe(false);
    expect(() => sumMoney("ton", [a])).toThrow();
  });

  it("maps payment methods to the currency they spend", () => {
    expect(currencyOf("usdt_ton")).toBe("usdt");
    expect(currencyOf("ton")).toBe("ton");
  });
});
