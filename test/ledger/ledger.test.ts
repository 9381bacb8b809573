import { describe, expect, it } from "vitest";
import { IllegalTransitionError, InvalidDraftError } from "../../src/ledger/errors.js";
import { Ledger, newIntentId } from "../../src/storage/sqlite/ledger.js";
import { canMove } from "../../src/ledger/transitions.js";
import type { IntentStatus } from "../../src/ledger/types.js";
import type { Ambiguous, PurchaseOutcome } from "../../src/service/types.js";
import { openDatabase } from "../../src/storage/sqlite/database.js";
import { ledgerFixture, NOON } from "../helpers/ledger.js";

const success: PurchaseOutcome = {
  kind: "success",
  value: { txHash: "abc123", data: { order: 7 } },
  body: { ok: true, tx_hash: "abc123", data: { order: 7 }, extra_field: "kept" },
};
const rejected: PurchaseOutcome = {
  kind: "rejected",
  status: 400,
  body: { ok: false, error: "BAD_RECIPIENT", insufficient: false },
  detail: "BAD_RECIPIENT",
};
const ambiguous: Ambiguous = {
  kind: "ambiguous",
  cause: "unconfirmed",
  status: 400,
  body: { ok: false, unconfirmed: true, transient: true, tx_hash: "def456" },
  txHash: "def456",
  detail: "the service marked the outcome unconfirmed",
};

/** Claims and, when the claim wins, records a success: one purchase done, none in flight. */
function buy(
  ledger: Ledger,
  id: string,
  userId: number,
  options?: Parameters<Ledger["claim"]>[3],
): ReturnType<Ledger["claim"]> {
  const claim = ledger.claim(id, userId, undefined, options);
  if (claim.ok) ledger.recordOutcome(id, success);
  return claim;
}

describe("intent ids", () => {
  it("are 22 base64url characters, distinct, and never start with '-' (a formula in a spreadsheet)", () => {
    // One in 64 plain base64url ids starts with "-": 5,000 would show it.
    const ids = Array.from({ length: 5_000 }, () => newIntentId());
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/);
  });
});

describe("Ledger drafts and claims", () => {
  it("records a draft with every field, then exactly one claim wins", () => {
    const { ledger, draft } = ledgerFixture();
    const intent = draft();
    expect(intent).toMatchObject({
      kind: "stars",
      recipient: "alice_1",
      quantity: 100,
      paymentMethod: "usdt_ton",
      requester: { userId: 1, chatId: 1, chatType: "private" },
      status: "draft",
      createdAt: NOON,
      balanceBefore: { ton: "10.5", usdt: "20" },
    });
    expect(intent.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(intent.expiresAt).toBeGreaterThan(NOON);

    const first = ledger.claim(intent.id, 1);
    expect(first.ok).toBe(true);
    if (first.ok) expect(first.intent).toMatchObject({ status: "sending", sentAt: NOON });
    expect(ledger.claim(intent.id, 1)).toEqual({ ok: false, reason: "already_processing" });

    ledger.recordOutcome(intent.id, success);
    expect(ledger.claim(intent.id, 1)).toEqual({
      ok: false,
      reason: "already_done",
      status: "succeeded",
    });
    expect(ledger.get(intent.id)).toMatchObject({
      status: "succeeded",
      txHash: "abc123",
      response: success.body,
    });
    expect(ledger.history(intent.id).map((e) => e.to)).toEqual(["draft", "sending", "succeeded"]);
  });

  it("refuses drafts that are not usernames or not positive whole quantities", () => {
    const { draft } = ledgerFixture();
    expect(() => draft({ recipient: "no" })).toThrow(InvalidDraftError);
    expect(() => draft({ quantity: 0 })).toThrow(InvalidDraftError);
    expect(() => draft({ quantity: 1.5 })).toThrow(InvalidDraftError);
  });

  it("only the person who asked may confirm; unknown ids are not found", () => {
    const { ledger, draft } = ledgerFixture();
    const intent = draft();
    expect(ledger.claim(intent.id, 2)).toEqual({ ok: false, reason: "not_owner" });
    expect(ledger.claim("nope", 1)).toEqual({ ok: false, reason: "not_found" });
    expect(ledger.get(intent.id)?.status).toBe("draft");
  });

  it("a draft past its expiry cannot be claimed, and the sweep marks it expired", () => {
    const { ledger, draft, clock } = ledgerFixture({ draftTtlMs: 60_000 });
    const intent = draft();
    const kept = draft();
    clock.now += 60_000;
    expect(ledger.claim(intent.id, 1)).toEqual({ ok: false, reason: "expired" });
    expect(ledger.get(intent.id)?.status).toBe("draft");
    expect(ledger.changePaymentMethod(intent.id, 1, "ton")).toBeUndefined();
    expect(ledger.expireDrafts()).toBe(2);
    expect(ledger.get(intent.id)?.status).toBe("expired");
    expect(ledger.get(kept.id)?.status).toBe("expired");
    expect(ledger.claim(intent.id, 1)).toEqual({ ok: false, reason: "expired" });
  });

  it("a cancelled draft cannot be claimed; only its requester cancels it", () => {
    const { ledger, draft } = ledgerFixture();
    const intent = draft();
    expect(ledger.cancel(intent.id, 2)).toBe(false);
    expect(ledger.cancel(intent.id, 1)).toBe(true);
    expect(ledger.cancel(intent.id, 1)).toBe(false);
    expect(ledger.claim(intent.id, 1)).toEqual({ ok: false, reason: "cancelled" });
  });

  it("switches the payment method only for the requester's live draft", () => {
    const { ledger, draft } = ledgerFixture();
    const intent = draft();
    expect(ledger.changePaymentMethod(intent.id, 2, "ton")).toBeUndefined();
    expect(ledger.changePaymentMethod(intent.id, 1, "ton")?.paymentMethod).toBe("ton");
    ledger.claim(intent.id, 1);
    expect(ledger.changePaymentMethod(intent.id, 1, "usdt_ton")).toBeUndefined();
  });

  it("the pause switch refuses every claim until resumed, and remembers who and when", () => {
    const { ledger, draft, clock } = ledgerFixture();
    const intent = draft();
    ledger.setPaused(true, 99);
    expect(ledger.pauseState()).toEqual({ paused: true, by: 99, at: NOON });
    expect(ledger.claim(intent.id, 1)).toEqual({ ok: false, reason: "paused", source: "admin" });
    clock.now += 1000;
    ledger.setPaused(false, 98);
    expect(ledger.pauseState()).toEqual({ paused: false, by: 98, at: NOON + 1000 });
    expect(ledger.claim(intent.id, 1).ok).toBe(true);
  });
});

describe("Ledger outcomes and reconciliation", () => {
  it("an ambiguous outcome ends unconfirmed and freezes claims until an admin resolves it", () => {
    const { ledger, draft, clock } = ledgerFixture();
    const a = draft();
    const b = draft({ requester: { userId: 2, chatId: 2, chatType: "private" } });
    ledger.claim(a.id, 1);
    const recorded = ledger.recordOutcome(a.id, ambiguous);
    expect(recorded.recorded).toBe(true);
    expect(recorded.intent).toMatchObject({
      status: "unconfirmed",
      txHash: "def456",
      response: { cause: "unconfirmed", status: 400, body: ambiguous.body },
    });
    expect(recorded.intent.outcomeDetail).toContain("unconfirmed");
    expect(ledger.claim(b.id, 2)).toEqual({ ok: false, reason: "frozen", unconfirmed: 1 });
    expect(ledger.unconfirmed().map((i) => i.id)).toEqual([a.id]);

    clock.now += 5000;
    const resolved = ledger.resolve(a.id, 42, false);
    expect(resolved.unconfirmedLeft).toBe(0);
    expect(resolved.intent).toMatchObject({
      status: "not_delivered",
      resolvedBy: 42,
      resolvedAt: NOON + 5000,
    });
    expect(ledger.claim(b.id, 2).ok).toBe(true);
  });

  it("a rejected outcome neither counts as spending nor freezes claims", () => {
    const { ledger, draft } = ledgerFixture({ limits: { starsPerUserDay: 100 } });
    const a = draft();
    ledger.claim(a.id, 1);
    ledger.recordOutcome(a.id, rejected);
    expect(ledger.get(a.id)).toMatchObject({ status: "rejected", outcomeDetail: "BAD_RECIPIENT" });
    expect(ledger.unconfirmedCount()).toBe(0);
    expect(ledger.usage(1).starsUser).toBe(0);
    expect(ledger.claim(draft().id, 1).ok).toBe(true);
  });

  it("an invalid outcome (nothing sent) is recorded as rejected", () => {
    const { ledger, draft } = ledgerFixture();
    const a = draft();
    ledger.claim(a.id, 1);
    ledger.recordOutcome(a.id, { kind: "invalid", field: "amount", detail: "too small" });
    expect(ledger.get(a.id)).toMatchObject({ status: "rejected" });
  });

  it("recovery at start turns every sending intent unconfirmed and leaves the rest alone", () => {
    const { ledger, draft, path } = ledgerFixture();
    const sending = draft();
    const done = draft();
    const waiting = draft();
    ledger.claim(done.id, 1);
    ledger.recordOutcome(done.id, success);
    ledger.claim(sending.id, 1);

    const restarted = new Ledger(openDatabase(path), { clock: () => NOON + 1 });
    const recovered = restarted.recoverInterrupted();
    expect(recovered.map((i) => i.id)).toEqual([sending.id]);
    expect(restarted.get(sending.id)?.status).toBe("unconfirmed");
    expect(restarted.get(sending.id)?.outcomeDetail).toMatch(/interrupted/);
    expect(restarted.get(done.id)?.status).toBe("succeeded");
    expect(restarted.get(waiting.id)?.status).toBe("draft");
    expect(restarted.claim(waiting.id, 1)).toMatchObject({ ok: false, reason: "frozen" });
    expect(restarted.recoverInterrupted()).toEqual([]);

    // A definite response that arrives after recovery settles it, as the service's answer.
    const late = ledger.recordOutcome(sending.id, success);
    expect(late).toMatchObject({ recorded: true, late: "settled" });
    expect(late.intent.status).toBe("succeeded");
    expect(late.intent.txHash).toBe("abc123");
  });

  it("lets one purchase be in flight at a time, and keeps a late answer after an admin settled it", () => {
    const { ledger, draft, path } = ledgerFixture();
    const first = draft();
    const second = draft();
    expect(ledger.claim(first.id, 1).ok).toBe(true);
    expect(ledger.claim(second.id, 1)).toEqual({ ok: false, reason: "busy" });
    expect(ledger.get(second.id)?.status).toBe("draft");

    // The process dies; at restart the first becomes unconfirmed and an admin settles it.
    const restarted = new Ledger(openDatabase(path), { clock: () => NOON + 1 });
    restarted.recoverInterrupted();
    restarted.resolve(first.id, 42, false);
    const late = ledger.recordOutcome(first.id, success);
    expect(late).toMatchObject({ recorded: false, intent: { status: "not_delivered" } });
    expect(late.intent.txHash).toBe("abc123");
    expect(restarted.claim(second.id, 1).ok).toBe(true);
  });

  it("refuses every status move the lifecycle does not name", () => {
    const { ledger, draft } = ledgerFixture();
    const a = draft();
    expect(() => ledger.recordOutcome(a.id, success)).toThrow(IllegalTransitionError);
    expect(() => ledger.resolve(a.id, 42, true)).toThrow(IllegalTransitionError);
    ledger.claim(a.id, 1);
    expect(ledger.cancel(a.id, 1)).toBe(false);
    expect(() => ledger.resolve(a.id, 42, true)).toThrow(IllegalTransitionError);
    ledger.recordOutcome(a.id, success);
    expect(() => ledger.recordOutcome(a.id, rejected)).toThrow(IllegalTransitionError);
    expect(() => ledger.resolve(a.id, 42, true)).toThrow(IllegalTransitionError);
    expect(ledger.get(a.id)?.status).toBe("succeeded");

    const b = draft();
    ledger.claim(b.id, 1);
    ledger.recordOutcome(b.id, ambiguous);
    ledger.resolve(b.id, 42, true);
    expect(() => ledger.resolve(b.id, 42, false)).toThrow(IllegalTransitionError);
    expect(ledger.get(b.id)?.status).toBe("delivered");

    // Every status the lifecycle names, and where each may go: nothing ever goes back to draft
    // or sending except by the claim, and settled statuses go nowhere.
    const allowed: Record<IntentStatus, IntentStatus[]> = {
      draft: ["queued", "sending", "cancelled", "expired"],
      queued: ["sending", "draft", "rejected", "expired", "unconfirmed"],
      sending: ["succeeded", "rejected", "unconfirmed"],
      // An admin's settlement, or the service's own late answer.
      unconfirmed: ["delivered", "not_delivered", "succeeded", "rejected"],
      succeeded: [],
      rejected: [],
      delivered: [],
      not_delivered: [],
      cancelled: [],
      expired: [],
    };
    const all = Object.keys(allowed) as IntentStatus[];
    for (const from of all) {
      for (const to of all) {
        expect(canMove(from, to), `${from} -> ${to}`).toBe(allowed[from].includes(to));
      }
    }
  });
});

describe("Ledger spending limits", () => {
  const limits = {
    starsPerPurchase: 500,
    starsPerUserDay: 600,
    starsPerBotDay: 1000,
    premiumPerUserDay: 1,
    premiumPerBotDay: 2,
  };
  const user = (id: number) => ({
    requester: { userId: id, chatId: id, chatType: "private" as const },
  });

  it("largest stars amount per purchase", () => {
    const { ledger, draft } = ledgerFixture({ limits });
    const big = draft({ quantity: 501 });
    expect(ledger.claim(big.id, 1)).toMatchObject({
      ok: false,
      reason: "limit",
      limit: "stars_per_purchase",
      max: 500,
    });
    expect(buy(ledger, draft({ quantity: 500 }).id, 1).ok).toBe(true);
  });

  it("stars per person per day, counting this purchase, reset at UTC midnight", () => {
    const { ledger, draft, clock } = ledgerFixture({ limits });
    expect(buy(ledger, draft({ quantity: 400 }).id, 1).ok).toBe(true);
    const over = draft({ quantity: 201 });
    expect(ledger.claim(over.id, 1)).toEqual({
      ok: false,
      reason: "limit",
      limit: "stars_per_user_day",
      max: 600,
      used: 400,
      resetsAt: Date.UTC(2030, 0, 2),
    });
    expect(buy(ledger, draft({ quantity: 200 }).id, 1).ok).toBe(true);
    clock.now = Date.UTC(2030, 0, 2) - 1;
    expect(ledger.claim(draft({ quantity: 50 }).id, 1)).toMatchObject({ reason: "limit" });
    clock.now = Date.UTC(2030, 0, 2);
    expect(buy(ledger, draft({ quantity: 500 }).id, 1).ok).toBe(true);
  });

  it("stars per day for the whole bot", () => {
    const { ledger, draft } = ledgerFixture({ limits });
    expect(buy(ledger, draft({ quantity: 500, ...user(1) }).id, 1).ok).toBe(true);
    expect(buy(ledger, draft({ quantity: 450, ...user(2) }).id, 2).ok).toBe(true);
    expect(ledger.claim(draft({ quantity: 100, ...user(3) }).id, 3)).toMatchObject({
      ok: false,
      limit: "stars_per_bot_day",
      max: 1000,
      used: 950,
    });
  });

  it("premium per person and per bot per day; failed purchases do not count", () => {
    const { ledger, draft } = ledgerFixture({ limits });
    const premium = (id: number) => draft({ kind: "premium", quantity: 3, ...user(id) });
    const first = premium(1);
    // While in flight it counts: another purchase by the same person is over the limit.
    expect(ledger.claim(first.id, 1).ok).toBe(true);
    expect(ledger.claim(premium(1).id, 1)).toMatchObject({
      limit: "premium_per_user_day",
      max: 1,
      used: 1,
    });
    ledger.recordOutcome(first.id, rejected);
    expect(buy(ledger, premium(1).id, 1).ok).toBe(true);
    expect(buy(ledger, premium(2).id, 2).ok).toBe(true);
    expect(ledger.claim(premium(3).id, 3)).toMatchObject({
      limit: "premium_per_bot_day",
      max: 2,
      used: 2,
    });
    expect(ledger.usage(1)).toMatchObject({ premiumBot: 2, premiumUser: 1, starsUser: 0 });
  });

  it("admins are not exempt unless configured, and never from per-bot limits", () => {
    const strict = ledgerFixture({ limits });
    expect(buy(strict.ledger, strict.draft({ quantity: 500 }).id, 1).ok).toBe(true);
    expect(
      strict.ledger.claim(strict.draft({ quantity: 150 }).id, 1, undefined, { isAdmin: true }),
    ).toMatchObject({ limit: "stars_per_user_day" });

    const lenient = ledgerFixture({ limits: { ...limits, adminsExempt: true } });
    buy(lenient.ledger, lenient.draft({ quantity: 500 }).id, 1);
    const again = lenient.draft({ quantity: 400 });
    expect(lenient.ledger.claim(again.id, 1)).toMatchObject({ limit: "stars_per_user_day" });
    expect(buy(lenient.ledger, again.id, 1, { isAdmin: true }).ok).toBe(true);
    expect(
      lenient.ledger.claim(lenient.draft({ quantity: 200 }).id, 1, undefined, { isAdmin: true }),
    ).toMatchObject({ limit: "stars_per_bot_day" });
  });
});

describe("Ledger queries", () => {
  it("lists a person's drafts still open in one chat, not their others, nor other people's", () => {
    const { ledger, draft } = ledgerFixture();
    const mine = (chatId: number) => ({
      requester: { userId: 1, chatId, chatType: "private" as const },
    });
    const first = draft(mine(1));
    const second = draft(mine(1));
    const elsewhere = draft(mine(2));
    const cancelled = draft(mine(1));
    ledger.cancel(cancelled.id, 1);
    const sent = draft(mine(1));
    expect(ledger.claim(sent.id, 1).ok).toBe(true);
    draft({ requester: { userId: 3, chatId: 1, chatType: "group" } });
    expect(ledger.openDrafts(1, 1).map((i) => i.id)).toEqual([first.id, second.id]);
    expect(ledger.openDrafts(1, 2).map((i) => i.id)).toEqual([elsewhere.id]);
    expect(ledger.openDrafts(2, 1)).toEqual([]);
  });

  it("recent (paged, per person), totals per UTC day, usage", () => {
    const { ledger, draft, clock } = ledgerFixture();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      clock.now = NOON + i;
      const userId = i % 2 === 0 ? 1 : 2;
      ids.push(draft({ requester: { userId, chatId: userId, chatType: "private" } }).id);
    }
    expect(ledger.recent({ limit: 2 }).map((i) => i.id)).toEqual([ids[4], ids[3]]);
    expect(ledger.recent({ limit: 2, offset: 2 }).map((i) => i.id)).toEqual([ids[2], ids[1]]);
    expect(ledger.recent({ limit: 10, userId: 2 }).map((i) => i.id)).toEqual([ids[3], ids[1]]);

    const [a, b, c] = ids as [string, string, string];
    ledger.claim(a, 1);
    ledger.recordOutcome(a, success);
    ledger.claim(c, 1);
    ledger.recordOutcome(c, rejected);
    clock.now = Date.UTC(2030, 0, 2, 1);
    ledger.claim(draft({ kind: "premium", quantity: 6 }).id, 1);
    void b;
    expect(ledger.dailyTotals(7)).toEqual([
      { day: "2030-01-02", starsSpent: 0, premiumGifts: 1, byStatus: { sending: 1 } },
      {
        day: "2030-01-01",
        starsSpent: 100,
        premiumGifts: 0,
        byStatus: { succeeded: 1, rejected: 1 },
      },
    ]);
    expect(ledger.usage(1)).toEqual({
      day: "2030-01-02",
      starsBot: 0,
      premiumBot: 1,
      starsUser: 0,
      premiumUser: 1,
      resetsAt: Date.UTC(2030, 0, 3),
    });
    expect(ledger.usage().starsUser).toBeUndefined();
  });
});

describe("Ledger balance before a purchase", () => {
  const older = { ton: "100", usdt: "1000" };
  const newer = { ton: "90", usdt: "1000" };

  it("takes a newer read only once claimed, and never an older one", () => {
    const { ledger, clock, draft } = ledgerFixture();
    const intent = draft({ balanceBefore: older, balanceBeforeAt: NOON - 5_000 });
    expect(intent.balanceBeforeAt).toBe(NOON - 5_000);
    // A draft is not about to be sent: its summary's figure stays.
    expect(ledger.recordBalanceBefore(intent.id, newer, NOON + 1_000)).toBe(false);
    clock.now = NOON + 2_000;
    expect(ledger.claim(intent.id, 1).ok).toBe(true);
    expect(ledger.recordBalanceBefore(intent.id, newer, NOON - 6_000)).toBe(false);
    expect(ledger.recordBalanceBefore(intent.id, newer, NOON - 5_000)).toBe(false);
    expect(ledger.get(intent.id)).toMatchObject({
      balanceBefore: older,
      balanceBeforeAt: NOON - 5_000,
    });
    expect(ledger.recordBalanceBefore(intent.id, newer, NOON + 1_000)).toBe(true);
    expect(ledger.get(intent.id)).toMatchObject({
      balanceBefore: newer,
      balanceBeforeAt: NOON + 1_000,
    });
    ledger.recordOutcome(intent.id, success);
    expect(ledger.recordBalanceBefore(intent.id, older, NOON + 3_000)).toBe(false);
  });

  it("without a read time, a read from before the draft does not replace its figure", () => {
    const { ledger, draft } = ledgerFixture();
    const intent = draft({ balanceBefore: older });
    expect(intent.balanceBeforeAt).toBeUndefined();
    expect(ledger.claim(intent.id, 1).ok).toBe(true);
    expect(ledger.recordBalanceBefore(intent.id, newer, NOON - 1)).toBe(false);
    expect(ledger.recordBalanceBefore(intent.id, newer, NOON)).toBe(true);
  });

  it("lists the other intents out between two times, leaving rejected ones out", () => {
    const { ledger, clock, draft } = ledgerFixture();
    const sendAt = (at: number, userId: number, outcome: PurchaseOutcome, doneAt = at + 10) => {
      const intent = draft({ requester: { userId, chatId: userId, chatType: "private" } });
      clock.now = at;
      expect(ledger.claim(intent.id, userId).ok).toBe(true);
      ledger.recordOutcome(intent.id, outcome, doneAt);
      return intent.id;
    };
    const before = sendAt(NOON + 100, 1, success, NOON + 150);
    const spanning = sendAt(NOON + 900, 2, success, NOON + 1_100);
    const inside = sendAt(NOON + 1_500, 3, success);
    const refused = sendAt(NOON + 1_700, 4, rejected);
    const self = sendAt(NOON + 1_900, 5, success);
    const after = sendAt(NOON + 2_500, 6, success);
    const ids = ledger.sentDuring(NOON + 1_000, NOON + 1_900, self).map((i) => i.id);
    expect(ids).toEqual([spanning, inside]);
    // The same purchases, as bare windows, for the cost meter; `self` went out at the end.
    const windows = ledger.outBetween(NOON + 1_000, NOON + 1_901);
    expect(windows.sort((a, b) => a.sentAt - b.sentAt)).toEqual([
      { id: spanning, sentAt: NOON + 900, finishedAt: NOON + 1_100 },
      { id: inside, sentAt: NOON + 1_500, finishedAt: NOON + 1_510 },
      { id: self, sentAt: NOON + 1_900, finishedAt: NOON + 1_910 },
    ]);
    expect(ids).not.toContain(before);
    expect(ids).not.toContain(refused);
    expect(ids).not.toContain(after);
  });

  it("lists an intent still out (no outcome yet), sent before the window, and not one sent after it", () => {
    const { ledger, clock, draft } = ledgerFixture();
    const finished = draft({ requester: { userId: 1, chatId: 1, chatType: "private" } });
    clock.now = NOON + 100;
    expect(ledger.claim(finished.id, 1).ok).toBe(true);
    ledger.recordOutcome(finished.id, success, NOON + 200);
    const stillOut = draft({ requester: { userId: 2, chatId: 2, chatType: "private" } });
    clock.now = NOON + 500;
    expect(ledger.claim(stillOut.id, 2).ok).toBe(true);
    expect(ledger.sentDuring(NOON + 1_000, NOON + 2_000, finished.id).map((i) => i.id)).toEqual([
      stillOut.id,
    ]);
    // A window that ended before `stillOut` was sent, after `finished` had come back.
    expect(ledger.sentDuring(NOON + 300, NOON + 400, "nobody")).toEqual([]);
  });
});
