/**
 * More of the ledger's suite, the same on SQLite and PostgreSQL: queued confirmations, the pause
 * with its reason, the running daily totals, and the accounts beside the ledger.
 */
import { describe, expect, it } from "vitest";
import type { PurchaseAccounts } from "../../src/ledger/accounts.js";
import { createPurchaseRecords } from "../../src/purchases/records.js";
import type { IntentStatus, PurchaseIntent, PurchaseLedger } from "../../src/ledger/types.js";
import type { PurchaseOutcome } from "../../src/service/types.js";
import { DAY_MS } from "../../src/shared/utc-day.js";
import { NOON, starsDraft } from "../helpers/ledger.js";
import { ambiguous, ledgerContract, rejected, success, user } from "./ledger-fixture.js";
import { STORES, type StoreUnderTest } from "./stores.js";

describe.each(STORES)("$name: queued confirmations", (store) => {
  it("records a confirmation as queued: neither a draft nor sending, and lists it in order", async () => {
    const { ledger, other, draft, clock } = await ledgerContract(store);
    const inFlight = await draft();
    expect((await ledger.claim(inFlight.id, 1)).ok).toBe(true);
    const first = await draft();
    const second = await draft();
    clock.now = NOON + 1_000;
    expect(await ledger.queue(second.id, 1)).toMatchObject({
      ok: true,
      intent: { status: "queued" },
    });
    clock.now = NOON + 2_000;
    expect((await ledger.queue(first.id, 1)).ok).toBe(true);

    expect((await other.queued()).map((i) => [i.id, i.queuedAt])).toEqual([
      [second.id, NOON + 1_000],
      [first.id, NOON + 2_000],
    ]);
    expect(await ledger.cancel(first.id, 1)).toBe(false);
    expect(await ledger.queue(first.id, 1)).toEqual({ ok: false, reason: "already_processing" });
    expect(await ledger.changePaymentMethod(first.id, 1, "ton")).toBeUndefined();
    expect(await ledger.sendingCount()).toBe(1);
    expect((await other.recoverInterrupted()).map((i) => i.id)).toEqual([inFlight.id]);
    expect((await ledger.get(first.id))?.status).toBe("queued");
  });

  it("queues only the requester's own live draft", async () => {
    const { ledger, draft, clock } = await ledgerContract(store);
    const intent = await draft();
    expect(await ledger.queue(intent.id, 2)).toEqual({ ok: false, reason: "not_owner" });
    expect(await ledger.queue("no-such-intent-id-0000", 1)).toEqual({
      ok: false,
      reason: "not_found",
    });
    clock.now = intent.expiresAt;
    expect(await ledger.queue(intent.id, 1)).toEqual({ ok: false, reason: "expired" });
    expect((await ledger.get(intent.id))?.status).toBe("draft");
  });

  it("the claim lets a queued confirmation out, re-checking every rule at that moment", async () => {
    const { ledger, other, draft, clock } = await ledgerContract(store, {
      limits: { starsPerUserDay: 250 },
    });
    const inFlight = await draft();
    expect((await ledger.claim(inFlight.id, 1)).ok).toBe(true);
    const queued = await draft();
    expect((await ledger.queue(queued.id, 1)).ok).toBe(true);
    expect(await other.claim(queued.id, 1)).toMatchObject({ ok: false, reason: "busy" });
    await ledger.recordOutcome(inFlight.id, success);

    await other.setPaused(true, 42);
    expect(await ledger.claim(queued.id, 1)).toMatchObject({ ok: false, reason: "paused" });
    await other.setPaused(false, 42);
    expect(await ledger.claim(queued.id, 2)).toMatchObject({ ok: false, reason: "not_owner" });

    const over = await draft({ quantity: 200 });
    expect((await ledger.queue(over.id, 1)).ok).toBe(true);
    expect(await ledger.claim(over.id, 1)).toMatchObject({ ok: false, reason: "limit" });
    expect((await ledger.get(over.id))?.status).toBe("queued");

    clock.now = NOON + 1_000;
    expect(await other.claim(queued.id, 1)).toMatchObject({
      ok: true,
      intent: { status: "sending", sentAt: NOON + 1_000 },
    });
    expect(await ledger.claim(queued.id, 1)).toMatchObject({
      ok: false,
      reason: "already_processing",
    });
    expect((await ledger.history(queued.id)).map((e) => [e.from, e.to])).toEqual([
      [undefined, "draft"],
      ["draft", "queued"],
      ["queued", "sending"],
    ]);

    const late = await draft();
    expect((await ledger.queue(late.id, 1)).ok).toBe(true);
    await ledger.recordOutcome(queued.id, success);
    clock.now = late.expiresAt;
    expect(await ledger.claim(late.id, 1)).toMatchObject({ ok: false, reason: "expired" });
  });

  it("gives a queued confirmation back as an open draft when its claim's refusal passes", async () => {
    const { ledger, draft } = await ledgerContract(store);
    const intent = await draft();
    expect((await ledger.queue(intent.id, 1)).ok).toBe(true);
    await ledger.setPaused(true, 42);
    expect(await ledger.claim(intent.id, 1)).toMatchObject({ ok: false, reason: "paused" });
    expect(await ledger.reopenQueued(intent.id)).toBe(true);
    expect(await ledger.reopenQueued(intent.id)).toBe(false);
    expect(await ledger.get(intent.id)).toMatchObject({ status: "draft", queuedAt: NOON });
    await ledger.setPaused(false, 42);
    expect((await ledger.claim(intent.id, 1)).ok).toBe(true);
    expect((await ledger.history(intent.id)).map((e) => e.to)).toEqual([
      "draft",
      "queued",
      "draft",
      "sending",
    ]);
  });

  it("closes a queued confirmation as not sent: rejected with the reason, or expired", async () => {
    const { ledger, draft, clock } = await ledgerContract(store);
    const paused = await draft();
    const stale = await draft();
    expect((await ledger.queue(paused.id, 1)).ok).toBe(true);
    expect((await ledger.queue(stale.id, 1)).ok).toBe(true);

    expect(await ledger.closeQueued(paused.id, "paused")).toMatchObject({
      status: "rejected",
      outcomeDetail: "not sent: paused",
      finishedAt: NOON,
    });
    expect(await ledger.closeQueued(paused.id, "paused")).toBeUndefined();
    expect(await ledger.claim(paused.id, 1)).toMatchObject({ ok: false, reason: "already_done" });

    clock.now = stale.expiresAt + 1;
    expect((await ledger.closeQueued(stale.id, "busy"))?.status).toBe("expired");
    expect(await ledger.queued()).toEqual([]);
    expect(await ledger.usage(1)).toMatchObject({ starsUser: 0, starsBot: 0 });
  });
});

describe.each(STORES)("$name: the pause with its reason", (store) => {
  it("a breaker pause refuses claims and keeps its detail for the next process", async () => {
    const { ledger, other, draft } = await ledgerContract(store);
    const intent = await draft();
    const detail = { cause: "session", refusals: [{ intentId: "x", reason: "SESSION_EXPIRED" }] };
    await ledger.pauseByBreaker(detail);
    expect(await other.claim(intent.id, 1)).toEqual({
      ok: false,
      reason: "paused",
      source: "breaker",
    });
    expect(await other.pauseState()).toEqual({ paused: true, by: undefined, at: NOON });
    expect(await other.pauseReason()).toEqual({ source: "breaker", detail });
  });

  it("an admin's pause is the admin's, and resuming forgets any reason", async () => {
    const { ledger, other, draft } = await ledgerContract(store);
    expect(await ledger.pauseReason()).toBeUndefined();
    await ledger.pauseByBreaker({ cause: "wallet" });
    await other.setPaused(false, 7);
    expect(await ledger.pauseReason()).toBeUndefined();
    expect((await ledger.claim((await draft()).id, 1)).ok).toBe(true);
    await other.setPaused(true, 7);
    expect(await ledger.pauseReason()).toEqual({ source: "admin", detail: undefined });
  });

  it("a pause written before reasons were kept reads as an admin's", async () => {
    const { ledger, sql } = await ledgerContract(store);
    await sql(
      "INSERT INTO ledger_settings (key, value, updated_by, updated_at) VALUES ('purchases_paused', 'true', 5, 1)",
    );
    expect(await ledger.pauseReason()).toEqual({ source: "admin", detail: undefined });
  });

  it("the status the bot and the metrics read says who paused, or nobody once reopened", async () => {
    const { ledger } = await ledgerContract(store);
    const records = createPurchaseRecords(ledger);
    expect(await records.status()).toEqual({ paused: false, pausedBy: undefined, unconfirmed: 0 });
    await ledger.pauseByBreaker({ cause: "session" });
    expect(await records.status()).toEqual({ paused: true, pausedBy: "breaker", unconfirmed: 0 });
    await ledger.setPaused(true, 7);
    expect(await records.status()).toEqual({ paused: true, pausedBy: "admin", unconfirmed: 0 });
    await ledger.setPaused(false, 7);
    expect(await records.status()).toEqual({ paused: false, pausedBy: undefined, unconfirmed: 0 });
  });
});

/** What may have spent money (written out here, not imported from the ledger). */
const SPENDING: readonly IntentStatus[] = ["sending", "succeeded", "unconfirmed", "delivered"];

/** A day's usage summed straight from the intents (read through `recent`). */
function summedFromIntents(intents: readonly PurchaseIntent[], day: number, userId: number) {
  const counted = intents.filter(
    (i) =>
      SPENDING.includes(i.status) &&
      i.sentAt !== undefined &&
      Math.floor(i.sentAt / DAY_MS) === day,
  );
  const sum = (of: readonly PurchaseIntent[]) => of.reduce((n, i) => n + i.quantity, 0);
  const stars = counted.filter((i) => i.kind === "stars");
  const premium = counted.filter((i) => i.kind === "premium");
  return {
    starsBot: sum(stars),
    premiumBot: premium.length,
    starsUser: sum(stars.filter((i) => i.requester.userId === userId)),
    premiumUser: premium.filter((i) => i.requester.userId === userId).length,
  };
}

async function usageOf(ledger: PurchaseLedger, userId: number, now: number) {
  const { starsBot, premiumBot, starsUser, premiumUser } = await ledger.usage(userId, now);
  return { starsBot, premiumBot, starsUser, premiumUser };
}

/** Ends a claimed purchase in one of every way a purchase can end. */
async function finish(ledger: PurchaseLedger, id: string, way: number): Promise<void> {
  if (way === 0) await ledger.recordOutcome(id, success);
  if (way === 1) await ledger.recordOutcome(id, rejected);
  if (way === 2) await ledger.recordNotSent(id, "not sent: test");
  if (way >= 3) {
    await ledger.recordOutcome(id, ambiguous);
    await ledger.resolve(id, 99, way === 4);
  }
}

describe.each(STORES)("$name: the running daily totals", (store) => {
  it("match the intents through every kind of outcome, per person and for the bot, day by day", async () => {
    const { ledger, other, clock } = await ledgerContract(store, {
      limits: { starsPerBotDay: 1_000_000, starsPerUserDay: 1_000_000, premiumPerUserDay: 100 },
    });
    for (let i = 0; i < 30; i++) {
      clock.now = NOON + (i >= 15 ? DAY_MS : 0) + i * 1_000;
      const userId = 1 + (i % 3);
      const draft =
        i % 4 === 3
          ? { ...starsDraft(user(userId)), kind: "premium" as const, quantity: 3 }
          : starsDraft({ quantity: 50 + i, ...user(userId) });
      const intent = await ledger.createDraft(draft);
      if (i % 7 === 6) continue; // a draft never claimed counts nothing
      expect((await ledger.claim(intent.id, userId)).ok).toBe(true);
      // Half of the outcomes come through the other connection.
      await finish(i % 2 === 0 ? ledger : other, intent.id, i % 5);
      const intents = await ledger.recent({ limit: 500 });
      for (const who of [1, 2, 3]) {
        expect(await usageOf(other, who, clock.now)).toEqual(
          summedFromIntents(intents, Math.floor(clock.now / DAY_MS), who),
        );
      }
    }
    const intents = await ledger.recent({ limit: 500 });
    expect(await usageOf(ledger, 1, NOON)).toEqual(
      summedFromIntents(intents, Math.floor(NOON / DAY_MS), 1),
    );
    expect((await usageOf(ledger, 1, NOON)).starsBot).toBeGreaterThan(0);
  });
});

const refused = (reason: string): PurchaseOutcome => ({
  kind: "rejected",
  status: 400,
  body: { ok: false, reason },
  detail: reason,
});

const measured = (amount: string, at = NOON) => ({
  measured: true as const,
  amount,
  currency: "usdt" as const,
  source: "balance_after" as const,
  at,
});

async function withAccounts(store: StoreUnderTest) {
  const fx = await ledgerContract(store);
  const accounts: PurchaseAccounts = fx.storages[0].openAccounts();
  /** A draft claimed and answered at the clock's time; one second passes unless `sameTime`. */
  const buy = async (
    outcome: PurchaseOutcome,
    overrides: Parameters<typeof fx.draft>[0] = {},
    sameTime = false,
  ) => {
    const draft = await fx.draft(overrides);
    const claim = await fx.ledger.claim(draft.id, draft.requester.userId);
    if (!claim.ok) throw new Error(`claim refused: ${claim.reason}`);
    const intent = (await fx.ledger.recordOutcome(draft.id, outcome)).intent;
    if (!sameTime) fx.clock.now += 1_000;
    return intent;
  };
  return { ...fx, accounts, buy };
}

describe.each(STORES)("$name: the accounts beside the ledger", (store) => {
  it("records a delivered purchase's cost once, and never on a refused one", async () => {
    const { ledger, accounts, buy } = await withAccounts(store);
    const bought = await buy(success);
    expect(await accounts.recordCost(bought.id, measured("1.5"))).toBe(true);
    expect(await accounts.recordCost(bought.id, measured("9"))).toBe(false);
    expect((await ledger.get(bought.id))?.cost).toEqual(measured("1.5"));
    const no = await buy(refused("NO"));
    expect(await accounts.recordCost(no.id, measured("1"))).toBe(false);
    expect((await ledger.get(no.id))?.cost).toBeUndefined();
  });

  it("keeps why a cost has no figure", async () => {
    const { ledger, accounts, buy } = await withAccounts(store);
    const bought = await buy(success);
    const none = {
      measured: false as const,
      currency: "usdt" as const,
      reason: "other_purchase" as const,
      at: 5,
    };
    expect(await accounts.recordCost(bought.id, none)).toBe(true);
    expect((await ledger.get(bought.id))?.cost).toEqual(none);
    const query = { kind: "stars", paymentMethod: "usdt_ton", limit: 10 } as const;
    expect(await accounts.recentCosts(query)).toEqual([]);
  });

  it("gives recent costs of one kind, method and (premium) duration, newest first", async () => {
    const { accounts, buy } = await withAccounts(store);
    const a = await buy(success, { quantity: 50 });
    const b = await buy(success, { quantity: 100 });
    const c = await buy(success, { kind: "premium", quantity: 3 });
    const d = await buy(success, { paymentMethod: "ton" });
    await accounts.recordCost(a.id, measured("0.75", 1));
    await accounts.recordCost(b.id, measured("1.5", 2));
    await accounts.recordCost(c.id, measured("12", 3));
    await accounts.recordCost(d.id, { ...measured("0.5", 4), currency: "ton" });
    const stars = await accounts.recentCosts({
      kind: "stars",
      paymentMethod: "usdt_ton",
      limit: 10,
    });
    expect(stars.map((s) => [s.quantity, s.cost.units])).toEqual([
      [100, 1_500_000n],
      [50, 750_000n],
    ]);
    const premium = { kind: "premium", paymentMethod: "usdt_ton", limit: 10 } as const;
    expect(await accounts.recentCosts({ ...premium, quantity: 6 })).toEqual([]);
    expect(await accounts.recentCosts({ ...premium, quantity: 3 })).toHaveLength(1);
  });

  it("gives a cost recorded after an earlier ask, and forgets none when nothing was recorded", async () => {
    const { accounts, buy } = await withAccounts(store);
    const query = { kind: "stars", paymentMethod: "usdt_ton", limit: 10 } as const;
    const units = async () => (await accounts.recentCosts(query)).map((s) => s.cost.units);
    await accounts.recordCost((await buy(success)).id, measured("0.75", 1));
    expect(await units()).toEqual([750_000n]);
    const second = await buy(success);
    expect(await accounts.recordCost(second.id, measured("1.5", 2))).toBe(true);
    expect(await units()).toEqual([1_500_000n, 750_000n]);
    // A refused write (already measured) changes nothing, and the answer stays the same.
    expect(await accounts.recordCost(second.id, measured("9", 3))).toBe(false);
    expect(await units()).toEqual([1_500_000n, 750_000n]);
  });

  it("answers an ask made while a cost is being recorded with the cost, then and after", async () => {
    const { accounts, buy } = await withAccounts(store);
    const query = { kind: "stars", paymentMethod: "usdt_ton", limit: 10 } as const;
    const units = async () => (await accounts.recentCosts(query)).map((s) => s.cost.units);
    await accounts.recordCost((await buy(success)).id, measured("0.75", 1));
    expect(await units()).toEqual([750_000n]);
    const second = await buy(success);
    const recording = accounts.recordCost(second.id, measured("1.5", 2));
    const during = units();
    expect(await recording).toBe(true);
    expect((await during).length).toBeGreaterThan(0);
    expect(await units()).toEqual([1_500_000n, 750_000n]);
  });

  it("keeps recent costs right as costs come, beyond the limit and out of order", async () => {
    const { accounts, buy } = await withAccounts(store);
    const stars = { kind: "stars", paymentMethod: "usdt_ton", limit: 2 } as const;
    const premium3 = { kind: "premium", paymentMethod: "usdt_ton", quantity: 3, limit: 2 } as const;
    const units = async (query: Parameters<PurchaseAccounts["recentCosts"]>[0]) =>
      (await accounts.recentCosts(query)).map((s) => s.cost.units);
    expect(await units(stars)).toEqual([]);
    await accounts.recordCost((await buy(success)).id, measured("1", 100));
    await accounts.recordCost(
      (await buy(success, { kind: "premium", quantity: 3 })).id,
      measured("12", 110),
    );
    await accounts.recordCost((await buy(success)).id, measured("2", 120));
    await accounts.recordCost((await buy(success)).id, measured("3", 130));
    expect(await units(stars)).toEqual([3_000_000n, 2_000_000n]);
    expect(await units(premium3)).toEqual([12_000_000n]);
    expect(await units({ ...premium3, quantity: 6 })).toEqual([]);
    // Measured later but timed earlier (the chain's time): it takes its place by time.
    await accounts.recordCost((await buy(success)).id, measured("9", 125));
    expect(await units(stars)).toEqual([3_000_000n, 9_000_000n]);
  });

  it("pages through a date range without holding a cursor, rows with equal times included", async () => {
    const { accounts, buy, ledger } = await withAccounts(store);
    const ids: string[] = [];
    // Purchases 2 and 3 are sent in the same millisecond: both must be exported, once.
    for (let i = 0; i < 7; i++) ids.push((await buy(success, {}, i === 2)).id);
    const seen: string[] = [];
    for await (const intent of accounts.sentBetween(NOON, NOON + 10_000, 2)) {
      seen.push(intent.id);
      // The database is free between pages: the bot can keep writing during an export.
      await ledger.createDraft(starsDraft({ ...user(9), balanceBefore: undefined }));
    }
    expect(seen.sort()).toEqual([...ids].sort());
    const window: string[] = [];
    for await (const intent of accounts.sentBetween(NOON + 2_000, NOON + 4_000)) {
      window.push(intent.id);
    }
    expect(window).toEqual([ids[2], ids[3], ids[4]]);
  });

  it("sums a day's figures exactly, with balances at its start and end", async () => {
    const { accounts, buy, clock, draft, ledger } = await withAccounts(store);
    const dayStart = Date.UTC(2030, 0, 1);
    await accounts.recordBalance({ balance: { ton: "100", usdt: "1000" }, at: dayStart - 60_000 });
    const a = await buy(success, { quantity: 50 });
    const b = await buy(success, { kind: "premium", quantity: 6 });
    await buy(success, { quantity: 100 });
    await buy(refused("PRICE_GUARD"));
    await buy(refused("PRICE_GUARD"));
    const unsent = await draft();
    expect((await ledger.claim(unsent.id, 1)).ok).toBe(true);
    await ledger.recordNotSent(unsent.id, "not sent: cancelled before sending");
    await accounts.recordCost(a.id, measured("0.1"));
    await accounts.recordCost(b.id, measured("0.2"));
    await accounts.recordBalance({ balance: { ton: "100", usdt: "999.7" }, at: clock.now });
    await accounts.recordBalance({ balance: { ton: "100", usdt: "999.7" }, at: clock.now + 1 });
    await accounts.recordBalance({ balance: { ton: "1", usdt: "1" }, at: dayStart + DAY_MS });
    await accounts.recordBreakerOpening(dayStart + 1_000, "session");
    await accounts.recordBreakerOpening(clock.now, "wallet");
    await accounts.recordBreakerOpening(dayStart + DAY_MS, "session");
    expect(await accounts.dayFigures(dayStart)).toMatchObject({
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
    expect((await accounts.dayFigures(dayStart - DAY_MS)).byStatus).toEqual({});
  });

  it("marks a day's report once per admin, and can take the mark back", async () => {
    const { accounts } = await withAccounts(store);
    expect(await accounts.reportSent("2030-01-01", 7)).toBe(false);
    expect(await accounts.markReportSent("2030-01-01", 7, NOON)).toBe(true);
    expect(await accounts.reportSent("2030-01-01", 7)).toBe(true);
    expect(await accounts.markReportSent("2030-01-01", 7, NOON)).toBe(false);
    expect(await accounts.markReportSent("2030-01-01", 8, NOON)).toBe(true);
    await accounts.unmarkReportSent("2030-01-01", 7);
    expect(await accounts.markReportSent("2030-01-01", 7, NOON)).toBe(true);
  });
});
