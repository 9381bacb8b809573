import { describe, expect, it } from "vitest";
import { SqliteAccounts } from "../../src/storage/sqlite/accounts.js";
import type { PurchaseOutcome } from "../../src/service/types.js";
import { ledgerFixture, NOON } from "../helpers/ledger.js";

const success: PurchaseOutcome = {
  kind: "success",
  value: { txHash: "tx1", data: undefined },
  body: { ok: true, tx_hash: "tx1" },
};
const refused = (reason: string): PurchaseOutcome => ({
  kind: "rejected",
  status: 400,
  body: { ok: false, reason },
  detail: reason,
});

function fixture() {
  const fx = ledgerFixture();
  const accounts = new SqliteAccounts(fx.db);
  /** A draft claimed and answered at the clock's time; one second passes. */
  const buy = (outcome: PurchaseOutcome, overrides: Parameters<typeof fx.draft>[0] = {}) => {
    const draft = fx.draft(overrides);
    const claim = fx.ledger.claim(draft.id, draft.requester.userId);
    if (!claim.ok) throw new Error(`claim refused: ${claim.reason}`);
    const intent = fx.ledger.recordOutcome(draft.id, outcome).intent;
    fx.clock.now += 1_000;
    return intent;
  };
  return { ...fx, accounts, buy };
}

const measured = (amount: string, at = NOON) => ({
  measured: true as const,
  amount,
  currency: "usdt" as const,
  source: "balance_after" as const,
  at,
});

describe("the books beside the ledger", () => {
  it("records a delivered purchase's cost once, and never on a refused one", () => {
    const { ledger, accounts, buy } = fixture();
    const bought = buy(success);
    expect(accounts.recordCost(bought.id, measured("1.5"))).toBe(true);
    expect(accounts.recordCost(bought.id, measured("9"))).toBe(false);
    expect(ledger.get(bought.id)?.cost).toEqual(measured("1.5"));
    const no = buy(refused("NO"));
    expect(accounts.recordCost(no.id, measured("1"))).toBe(false);
    expect(ledger.get(no.id)?.cost).toBeUndefined();
  });

  it("keeps why a cost has no figure", () => {
    const { ledger, accounts, buy } = fixture();
    const bought = buy(success);
    const none = {
      measured: false as const,
      currency: "usdt" as const,
      reason: "other_purchase" as const,
      at: 5,
    };
    expect(accounts.recordCost(bought.id, none)).toBe(true);
    expect(ledger.get(bought.id)?.cost).toEqual(none);
    expect(accounts.recentCosts({ kind: "stars", paymentMethod: "usdt_ton", limit: 10 })).toEqual(
      [],
    );
  });

  it("gives recent costs of one kind, method and (premium) duration, newest first", () => {
    const { accounts, buy } = fixture();
    const a = buy(success, { quantity: 50 });
    const b = buy(success, { quantity: 100 });
    const c = buy(success, { kind: "premium", quantity: 3 });
    const d = buy(success, { paymentMethod: "ton" });
    accounts.recordCost(a.id, measured("0.75", 1));
    accounts.recordCost(b.id, measured("1.5", 2));
    accounts.recordCost(c.id, measured("12", 3));
    accounts.recordCost(d.id, { ...measured("0.5", 4), currency: "ton" });
    const stars = accounts.recentCosts({ kind: "stars", paymentMethod: "usdt_ton", limit: 10 });
    expect(stars.map((s) => [s.quantity, s.cost.units])).toEqual([
      [100, 1_500_000n],
      [50, 750_000n],
    ]);
    expect(
      accounts.recentCosts({ kind: "premium", paymentMethod: "usdt_ton", quantity: 6, limit: 10 }),
    ).toEqual([]);
    expect(
      accounts.recentCosts({ kind: "premium", paymentMethod: "usdt_ton", quantity: 3, limit: 10 }),
    ).toHaveLength(1);
  });

  it("gives a cost recorded after an earlier ask, and forgets none when nothing was recorded", () => {
    const { accounts, buy } = fixture();
    const query = { kind: "stars", paymentMethod: "usdt_ton", limit: 10 } as const;
    const first = buy(success);
    accounts.recordCost(first.id, measured("0.75", 1));
    expect(accounts.recentCosts(query)).toHaveLength(1);
    const second = buy(success);
    expect(accounts.recordCost(second.id, measured("1.5", 2))).toBe(true);
    expect(accounts.recentCosts(query).map((s) => s.cost.units)).toEqual([1_500_000n, 750_000n]);
    // A refused write (already measured) changes nothing, and the answer stays the same.
    expect(accounts.recordCost(second.id, measured("9", 3))).toBe(false);
    expect(accounts.recentCosts(query).map((s) => s.cost.units)).toEqual([1_500_000n, 750_000n]);
  });

  it("keeps recent costs right as costs of other kinds, beyond the limit and out of order come", () => {
    const { accounts, buy } = fixture();
    const stars = { kind: "stars", paymentMethod: "usdt_ton", limit: 2 } as const;
    const premium3 = { kind: "premium", paymentMethod: "usdt_ton", quantity: 3, limit: 2 } as const;
    const premium6 = { ...premium3, quantity: 6 } as const;
    const units = (query: Parameters<typeof accounts.recentCosts>[0]) =>
      accounts.recentCosts(query).map((s) => s.cost.units);
    expect(units(stars)).toEqual([]);
    expect(units(premium3)).toEqual([]);
    expect(units(premium6)).toEqual([]);
    accounts.recordCost(buy(success).id, measured("1", 10));
    accounts.recordCost(buy(success, { kind: "premium", quantity: 3 }).id, measured("12", 11));
    accounts.recordCost(buy(success).id, measured("2", 12));
    accounts.recordCost(buy(success).id, measured("3", 13));
    expect(units(stars)).toEqual([3_000_000n, 2_000_000n]);
    expect(units(premium3)).toEqual([12_000_000n]);
    expect(units(premium6)).toEqual([]);
    // Measured later but timed earlier (the chain's time): it takes its place by time.
    accounts.recordCost(buy(success).id, measured("9", 12.5));
    expect(units(stars)).toEqual([3_000_000n, 9_000_000n]);
  });

  it("pages through a date range without holding a cursor, rows with equal times included", () => {
    const { db, accounts, buy, ledger } = fixture();
    const ids = Array.from({ length: 7 }, () => buy(success).id);
    // Two purchases sent in the same millisecond must both be exported, once.
    db.prepare("UPDATE purchase_intents SET sent_at = ? WHERE id IN (?, ?)").run(
      NOON + 2_000,
      ids[2],
      ids[3],
    );
    const seen: string[] = [];
    for (const intent of accounts.sentBetween(NOON, NOON + 10_000, 2)) {
      seen.push(intent.id);
      // The database is free between rows: the bot can keep writing during an export.
      ledger.createDraft({
        kind: "stars",
        recipient: "bob_gifts",
        quantity: 50,
        paymentMethod: "usdt_ton",
        requester: { userId: 9, chatId: 9, chatType: "private" },
        balanceBefore: undefined,
      });
    }
    expect(seen.sort()).toEqual([...ids].sort());
    expect([...accounts.sentBetween(NOON + 2_000, NOON + 4_000)]).toHaveLength(2);
  });

  it("sums a day's figures exactly, with balances at its start and end", () => {
    const { accounts, buy, clock, draft, ledger } = fixture();
    const dayStart = Date.UTC(2030, 0, 1);
    accounts.recordBalance({ balance: { ton: "100", usdt: "1000" }, at: dayStart - 60_000 });
    const a = buy(success, { quantity: 50 });
    const b = buy(success, { kind: "premium", quantity: 6 });
    buy(success, { quantity: 100 });
    buy(refused("PRICE_GUARD"));
    buy(refused("PRICE_GUARD"));
    // Claimed but never sent (the bot's own doing): rejected, yet no refusal of the service.
    const unsent = draft();
    expect(ledger.claim(unsent.id, 1).ok).toBe(true);
    ledger.recordNotSent(unsent.id, "not sent: cancelled before sending");
    accounts.recordCost(a.id, measured("0.1"));
    accounts.recordCost(b.id, measured("0.2"));
    accounts.recordBalance({ balance: { ton: "100", usdt: "999.7" }, at: clock.now });
    // The same figure again within the hour is not kept twice; tomorrow's is not today's end.
    accounts.recordBalance({ balance: { ton: "100", usdt: "999.7" }, at: clock.now + 1 });
    accounts.recordBalance({ balance: { ton: "1", usdt: "1" }, at: dayStart + 86_400_000 });
    // The breaker opened twice that day, and once the day after.
    accounts.recordBreakerOpening(dayStart + 1_000, "session");
    accounts.recordBreakerOpening(clock.now, "wallet");
    accounts.recordBreakerOpening(dayStart + 86_400_000, "session");
    const figures = accounts.dayFigures(dayStart);
    expect(figures).toMatchObject({
      day: "2030-01-01",
      byStatus: { succeeded: 3, rejected: 3 },
      starsBought: 150,
      premiumGifts: 1,
      premiumMonths: 6,
      spent: [{ currency: "usdt", amount: "0.3", purchases: 2 }],
      unmeasured: 1,
      balanceStart: { ton: "100", usdt: "1000" },
      balanceEnd: { ton: "100", usdt: "999.7" },
      limitsUsed: { stars: 150, premium: 1 },
      refusals: [{ reason: "PRICE_GUARD", count: 2 }],
      breakerOpenings: 2,
    });
    expect(accounts.dayFigures(dayStart - 86_400_000).byStatus).toEqual({});
  });

  it("marks a day's report once per admin, and can take the mark back", () => {
    const { accounts } = fixture();
    expect(accounts.markReportSent("2030-01-01", 7, NOON)).toBe(true);
    expect(accounts.markReportSent("2030-01-01", 7, NOON)).toBe(false);
    expect(accounts.markReportSent("2030-01-01", 8, NOON)).toBe(true);
    accounts.unmarkReportSent("2030-01-01", 7);
    expect(accounts.markReportSent("2030-01-01", 7, NOON)).toBe(true);
  });
});
