import { describe, expect, it } from "vitest";
import { estimateCost, estimateExceedsBalance } from "../../src/costs/estimate.js";
import { measureFromBalances } from "../../src/costs/measure.js";
import { formatMoney, parseMoney } from "../../src/costs/money.js";
import type { CostSample } from "../../src/ledger/accounts.js";

const usdt = (text: string) => parseMoney("usdt", text)!;
const stars = (quantity: number, cost: string): CostSample => ({
  kind: "stars",
  quantity,
  paymentMethod: "usdt_ton",
  cost: usdt(cost),
});

describe("the estimate before Confirm", () => {
  it("prices stars per star from recent costs of the same payment method", () => {
    const estimate = estimateCost({ kind: "stars", quantity: 250, paymentMethod: "usdt_ton" }, [
      stars(50, "0.75"),
      stars(100, "1.5"),
      { ...stars(50, "0.2"), paymentMethod: "ton", cost: parseMoney("ton", "0.1875")! },
    ]);
    expect(estimate && formatMoney(estimate.cost)).toBe("3.75");
    expect(estimate?.basedOn).toBe(2);
  });

  it("prices premium per duration, and shows nothing without history of that duration", () => {
    const premium = (months: number, cost: string): CostSample => ({
      kind: "premium",
      quantity: months,
      paymentMethod: "usdt_ton",
      cost: usdt(cost),
    });
    const samples = [premium(3, "12"), premium(3, "12.5"), premium(6, "16")];
    const three = estimateCost(
      { kind: "premium", quantity: 3, paymentMethod: "usdt_ton" },
      samples,
    );
    expect(three && formatMoney(three.cost)).toBe("12.25");
    expect(three?.basedOn).toBe(2);
    expect(
      estimateCost({ kind: "premium", quantity: 12, paymentMethod: "usdt_ton" }, samples),
    ).toBeUndefined();
    expect(
      estimateCost({ kind: "stars", quantity: 50, paymentMethod: "ton" }, samples),
    ).toBeUndefined();
  });

  it("says when the estimate exceeds the balance of that currency", () => {
    const estimate = { cost: usdt("12"), basedOn: 1 };
    expect(estimateExceedsBalance(estimate, "11.99")).toBe(true);
    expect(estimateExceedsBalance(estimate, "12")).toBe(false);
    expect(estimateExceedsBalance(estimate, undefined)).toBeUndefined();
  });
});

describe("measuring a cost from two balance readings", () => {
  const before = { balance: { ton: "100", usdt: "1000" }, at: 1_000 };
  const after = (usdtLeft: string) => ({ balance: { ton: "100", usdt: usdtLeft }, at: 5_000 });
  const base = { currency: "usdt" as const, before, source: "balance_after" as const, now: 9 };

  it("records the exact difference in the payment currency", () => {
    expect(measureFromBalances({ ...base, after: after("999.25"), othersSent: 0 })).toEqual({
      kind: "done",
      cost: { measured: true, amount: "0.75", currency: "usdt", source: "balance_after", at: 9 },
    });
  });

  it("records no figure when another purchase went out or money came in", () => {
    const other = measureFromBalances({ ...base, after: after("998.5"), othersSent: 1 });
    expect(other).toEqual({
      kind: "done",
      cost: { measured: false, currency: "usdt", reason: "other_purchase", at: 9 },
    });
    const rose = measureFromBalances({ ...base, after: after("1005"), othersSent: 0 });
    expect(rose.kind === "done" && !rose.cost.measured && rose.cost.reason).toBe("balance_moved");
    const none = measureFromBalances({
      ...base,
      before: undefined,
      after: after("1"),
      othersSent: 0,
    });
    expect(none.kind === "done" && !none.cost.measured && none.cost.reason).toBe(
      "no_reading_before",
    );
  });

  it("waits for a later reading while the balance has not moved yet", () => {
    expect(measureFromBalances({ ...base, after: after("1000"), othersSent: 0 })).toEqual({
      kind: "not_yet",
    });
  });
});
