/**
 * The purchase ledger's own suite, the same on SQLite and PostgreSQL: drafts and claims,
 * outcomes and reconciliation, the spending limits, the queries and the balance before a
 * purchase. `other` plays a second process or replica on the same database.
 */
import { describe, expect, it } from "vitest";
import {
  IllegalTransitionError,
  InvalidDraftError,
  LeaseNotHeldError,
} from "../../src/ledger/errors.js";
import { newIntentId } from "../../src/ledger/new-intents.js";
import { RESTORE_NOTICE } from "../../src/ledger/restore.js";
import { canMove } from "../../src/ledger/transitions.js";
import type { IntentStatus } from "../../src/ledger/types.js";
import type { PurchaseOutcome } from "../../src/service/types.js";
import { NOON } from "../helpers/ledger.js";
import {
  ambiguous,
  attempt,
  buy,
  ledgerContract,
  rejected,
  success,
  user,
} from "./ledger-fixture.js";
import { STORES } from "./stores.js";

const HOUR = 3_600_000;

describe("intent ids", () => {
  it("are 22 base64url characters, distinct, and never start with '-' (a formula in a spreadsheet)", () => {
    // One in 64 plain base64url ids starts with "-": 5,000 would show it.
    const ids = Array.from({ length: 5_000 }, () => newIntentId());
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/);
  });
});

describe("the transition table", () => {
  it("names every status and where each may go: nothing goes back but by the claim, settled ones go nowhere", () => {
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

describe.each(STORES)("$name: ledger drafts and claims", (store) => {
  it("records a draft with every field, then exactly one claim wins", async () => {
    const { ledger, other, draft } = await ledgerContract(store);
    const intent = await draft();
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
    expect(await other.get(intent.id)).toEqual(intent);

    const first = await ledger.claim(intent.id, 1);
    expect(first.ok).toBe(true);
    if (first.ok) expect(first.intent).toMatchObject({ status: "sending", sentAt: NOON });
    expect(await other.claim(intent.id, 1)).toEqual({ ok: false, reason: "already_processing" });

    await ledger.recordOutcome(intent.id, success);
    expect(await other.claim(intent.id, 1)).toEqual({
      ok: false,
      reason: "already_done",
      status: "succeeded",
    });
    expect(await other.get(intent.id)).toMatchObject({
      status: "succeeded",
      txHash: "abc123",
      response: success.body,
    });
    expect((await other.history(intent.id)).map((e) => e.to)).toEqual([
      "draft",
      "sending",
      "succeeded",
    ]);
  });

  it("refuses drafts that are not usernames or not positive whole quantities", async () => {
    const { draft } = await ledgerContract(store);
    await expect(attempt(() => draft({ recipient: "no" }))).rejects.toThrow(InvalidDraftError);
    await expect(attempt(() => draft({ quantity: 0 }))).rejects.toThrow(InvalidDraftError);
    await expect(attempt(() => draft({ quantity: 1.5 }))).rejects.toThrow(InvalidDraftError);
  });

  it("only the person who asked may confirm; unknown ids are not found", async () => {
    const { ledger, draft } = await ledgerContract(store);
    const intent = await draft();
    expect(await ledger.claim(intent.id, 2)).toEqual({ ok: false, reason: "not_owner" });
    expect(await ledger.claim("nope", 1)).toEqual({ ok: false, reason: "not_found" });
    expect((await ledger.get(intent.id))?.status).toBe("draft");
  });

  it("a draft past its expiry cannot be claimed, and the sweep marks it expired", async () => {
    const { ledger, draft, clock } = await ledgerContract(store, { draftTtlMs: 60_000 });
    const intent = await draft();
    const kept = await draft();
    clock.now += 60_000;
    expect(await ledger.claim(intent.id, 1)).toEqual({ ok: false, reason: "expired" });
    expect((await ledger.get(intent.id))?.status).toBe("draft");
    expect(await ledger.changePaymentMethod(intent.id, 1, "ton")).toBeUndefined();
    expect(await ledger.expireDrafts()).toBe(2);
    expect((await ledger.get(intent.id))?.status).toBe("expired");
    expect((await ledger.get(kept.id))?.status).toBe("expired");
    expect(await ledger.claim(intent.id, 1)).toEqual({ ok: false, reason: "expired" });
  });

  it("a cancelled draft cannot be claimed; only its requester cancels it", async () => {
    const { ledger, draft } = await ledgerContract(store);
    const intent = await draft();
    expect(await ledger.cancel(intent.id, 2)).toBe(false);
    expect(await ledger.cancel(intent.id, 1)).toBe(true);
    expect(await ledger.cancel(intent.id, 1)).toBe(false);
    expect(await ledger.claim(intent.id, 1)).toEqual({ ok: false, reason: "cancelled" });
  });

  it("switches the payment method only for the requester's live draft", async () => {
    const { ledger, draft } = await ledgerContract(store);
    const intent = await draft();
    expect(await ledger.changePaymentMethod(intent.id, 2, "ton")).toBeUndefined();
    expect((await ledger.changePaymentMethod(intent.id, 1, "ton"))?.paymentMethod).toBe("ton");
    await ledger.claim(intent.id, 1);
    expect(await ledger.changePaymentMethod(intent.id, 1, "usdt_ton")).toBeUndefined();
  });

  it("the pause switch refuses every claim until resumed, and remembers who and when", async () => {
    const { ledger, other, draft, clock } = await ledgerContract(store);
    const intent = await draft();
    await other.setPaused(true, 99);
    expect(await ledger.pauseState()).toEqual({ paused: true, by: 99, at: NOON });
    expect(await ledger.claim(intent.id, 1)).toEqual({
      ok: false,
      reason: "paused",
      source: "admin",
    });
    clock.now += 1000;
    await other.setPaused(false, 98);
    expect(await ledger.pauseState()).toEqual({ paused: false, by: 98, at: NOON + 1000 });
    expect((await ledger.claim(intent.id, 1)).ok).toBe(true);
  });

  it("limits replaced while running apply from the next claim on", async () => {
    const { ledger, draft } = await ledgerContract(store);
    const big = await draft({ quantity: 5000 });
    ledger.setLimits({ ...ledger.limits, starsPerPurchase: 1000 });
    expect(await ledger.claim(big.id, 1)).toMatchObject({ ok: false, reason: "limit" });
    ledger.setLimits({ ...ledger.limits, starsPerPurchase: 6000 });
    expect((await ledger.claim(big.id, 1)).ok).toBe(true);
  });
});

describe.each(STORES)("$name: ledger outcomes and reconciliation", (store) => {
  it("an ambiguous outcome ends unconfirmed and freezes claims until an admin resolves it", async () => {
    const { ledger, other, draft, clock } = await ledgerContract(store);
    const a = await draft();
    const b = await draft(user(2));
    await ledger.claim(a.id, 1);
    const recorded = await ledger.recordOutcome(a.id, ambiguous);
    expect(recorded.recorded).toBe(true);
    expect(recorded.intent).toMatchObject({
      status: "unconfirmed",
      txHash: "def456",
      response: { cause: "unconfirmed", status: 400, body: ambiguous.body },
    });
    expect(recorded.intent.outcomeDetail).toContain("unconfirmed");
    expect(await other.claim(b.id, 2)).toEqual({ ok: false, reason: "frozen", unconfirmed: 1 });
    expect((await other.unconfirmed()).map((i) => i.id)).toEqual([a.id]);
    expect(await other.unconfirmedCount()).toBe(1);

    clock.now += 5000;
    const resolved = await other.resolve(a.id, 42, false);
    expect(resolved.unconfirmedLeft).toBe(0);
    expect(resolved.intent).toMatchObject({
      status: "not_delivered",
      resolvedBy: 42,
      resolvedAt: NOON + 5000,
    });
    expect((await ledger.claim(b.id, 2)).ok).toBe(true);
    expect((await ledger.history(a.id)).at(-1)).toEqual({
      from: "unconfirmed",
      to: "not_delivered",
      at: NOON + 5000,
      actor: 42,
    });
  });

  it("a rejected outcome neither counts as spending nor freezes claims", async () => {
    const { ledger, draft } = await ledgerContract(store, { limits: { starsPerUserDay: 100 } });
    const a = await draft();
    await ledger.claim(a.id, 1);
    await ledger.recordOutcome(a.id, rejected);
    expect(await ledger.get(a.id)).toMatchObject({
      status: "rejected",
      outcomeDetail: "BAD_RECIPIENT",
    });
    expect(await ledger.unconfirmedCount()).toBe(0);
    expect((await ledger.usage(1)).starsUser).toBe(0);
    expect((await ledger.claim((await draft()).id, 1)).ok).toBe(true);
  });

  it("an invalid outcome (nothing sent) is recorded as rejected; a request never sent too", async () => {
    const { ledger, draft } = await ledgerContract(store);
    const a = await draft();
    await ledger.claim(a.id, 1);
    await ledger.recordOutcome(a.id, { kind: "invalid", field: "amount", detail: "too small" });
    expect(await ledger.get(a.id)).toMatchObject({ status: "rejected" });
    const b = await draft();
    await ledger.claim(b.id, 1);
    expect(await ledger.recordNotSent(b.id, "not sent: stopping")).toMatchObject({
      recorded: true,
      intent: { status: "rejected", outcomeDetail: "not sent: stopping" },
    });
    expect(await ledger.sendingCount()).toBe(0);
  });

  it("recovery at start turns every sending intent unconfirmed and leaves the rest alone", async () => {
    const { ledger, other: restarted, draft } = await ledgerContract(store);
    const sending = await draft();
    const done = await draft();
    const waiting = await draft();
    await ledger.claim(done.id, 1);
    await ledger.recordOutcome(done.id, success);
    await ledger.claim(sending.id, 1);

    const recovered = await restarted.recoverInterrupted(NOON + 1);
    expect(recovered.map((i) => i.id)).toEqual([sending.id]);
    expect((await restarted.get(sending.id))?.status).toBe("unconfirmed");
    expect((await restarted.get(sending.id))?.outcomeDetail).toMatch(/interrupted/);
    expect((await restarted.get(done.id))?.status).toBe("succeeded");
    expect((await restarted.get(waiting.id))?.status).toBe("draft");
    expect(await restarted.claim(waiting.id, 1)).toMatchObject({ ok: false, reason: "frozen" });
    expect(await restarted.recoverInterrupted()).toEqual([]);

    // An ambiguous response that arrives after recovery is kept as evidence; the status stays
    // (a definite one settles it: test/contract/late-answers.test.ts).
    const late = await ledger.recordOutcome(sending.id, ambiguous);
    expect(late).toMatchObject({ recorded: false, late: "kept" });
    expect(late.intent.status).toBe("unconfirmed");
    expect(late.intent.txHash).toBe("def456");
  });

  it("lets one purchase be in flight at a time, and keeps a late answer after an admin settled it", async () => {
    const { ledger, other: restarted, draft } = await ledgerContract(store);
    const first = await draft();
    const second = await draft();
    expect((await ledger.claim(first.id, 1)).ok).toBe(true);
    expect(await restarted.claim(second.id, 1)).toEqual({ ok: false, reason: "busy" });
    expect((await ledger.get(second.id))?.status).toBe("draft");

    await restarted.recoverInterrupted(NOON + 1);
    await restarted.resolve(first.id, 42, false);
    const late = await ledger.recordOutcome(first.id, success);
    expect(late).toMatchObject({ recorded: false, intent: { status: "not_delivered" } });
    expect(late.intent.txHash).toBe("abc123");
    expect((await restarted.claim(second.id, 1)).ok).toBe(true);
  });

  it("an outcome written late becomes unconfirmed with the answer kept, never succeeded", async () => {
    const { ledger, draft, clock } = await ledgerContract(store);
    const intent = await draft();
    expect((await ledger.claim(intent.id, 1)).ok).toBe(true);
    clock.now = NOON + 60_000;
    expect(await ledger.recordUnwrittenOutcome(intent.id, success, NOON + 5_000)).toMatchObject({
      recorded: true,
      intent: {
        status: "unconfirmed",
        txHash: "abc123",
        finishedAt: NOON + 5_000,
        outcomeDetail: "outcome_unrecorded: succeeded",
        response: {
          unrecordedOutcome: "succeeded",
          answeredAt: NOON + 5_000,
          recordedAt: NOON + 60_000,
          response: success.body,
        },
      },
    });
    const next = await draft();
    expect(await ledger.claim(next.id, 1)).toMatchObject({ ok: false, reason: "frozen" });
  });

  it("after a restore, what was sending or queued is unconfirmed and the lease is cleared", async () => {
    const { ledger, other, draft, storages } = await ledgerContract(store);
    expect(await storages[0].senderLease.acquire("old", 30_000)).toMatchObject({ epoch: 1 });
    const sending = await draft();
    const queued = await draft();
    await ledger.claim(sending.id, 1);
    await ledger.queue(queued.id, 1);
    const marked = await other.markRestored("2030-01-01T11:00:00Z", NOON + 1);
    expect(marked.unknown.map((i) => i.id)).toEqual([sending.id, queued.id]);
    expect(marked.unknown[1]?.outcomeDetail).toContain(
      "restored: the database was restored from a backup taken 2030-01-01T11:00:00Z",
    );
    expect(await storages[1].senderLease.holder()).toBeUndefined();
    // Cleared as if released: the next holder has nobody to wait for.
    const next = await storages[1].senderLease.acquire("new", 30_000);
    expect(next).toMatchObject({ epoch: 1002 });
    expect(next?.previous).toBeUndefined();
    expect(await storages[0].senderLease.renew("old", 1, 30_000)).toBe(false);
  });

  it("after a restore, nothing the backup shows unsent can be sent: open summaries expire, giveaways stop, the admins get a notice", async () => {
    const { ledger, other, draft, storages, clock } = await ledgerContract(store);
    const batches = storages[0].giveaways;
    const giveaway = (recipients: string[], at: number) =>
      batches.createBatch(
        {
          ...{ kind: "stars", quantity: 50, paymentMethod: "ton", adminId: 42, chatId: 42 },
          ...{ recipients, balanceBefore: undefined },
        },
        at,
      );
    const running = await giveaway(["win_a", "win_b", "win_c", "win_d"], NOON - 3 * HOUR);
    const [sentFirst] = await batches.batchIntents(running.id);
    await buy(ledger, sentFirst?.id ?? "", 42);
    const paused = await giveaway(["win_e", "win_f"], NOON - 2 * HOUR);
    await batches.moveBatch(paused.id, ["running"], "paused", NOON);
    const finished = await giveaway(["win_g"], NOON - HOUR);
    const [only] = await batches.batchIntents(finished.id);
    await buy(ledger, only?.id ?? "", 42);
    await batches.moveBatch(finished.id, ["running"], "finished", NOON);
    // A summary shown a day ago (past its expiry, not yet marked) and one still open.
    clock.now = NOON - 24 * HOUR;
    const stale = await draft();
    clock.now = NOON;
    const open = await draft();
    const gone = await draft({ requester: { userId: 2, chatId: 2, chatType: "private" } });
    await ledger.cancel(gone.id, 2);

    const marked = await other.markRestored(undefined, NOON + 1);
    expect(marked.unknown).toEqual([]);
    expect((await ledger.get(open.id))?.status).toBe("expired");
    expect(await ledger.claim(open.id, 1)).toEqual({ ok: false, reason: "expired" });
    expect((await ledger.get(stale.id))?.status).toBe("expired");
    expect((await ledger.get(gone.id))?.status).toBe("cancelled");
    for (const batch of [running, paused]) {
      expect(await batches.getBatch(batch.id)).toMatchObject({
        status: "stopped",
        stopReason: "restored",
      });
      expect(await batches.nextBatchDraft(batch.id, NOON + 2)).toBeUndefined();
      // Stopped for good: neither Resume nor Cancel moves it.
      expect(await batches.moveBatch(batch.id, ["stopped"], "running", NOON + 2)).toBe(false);
      expect(await batches.moveBatch(batch.id, ["stopped"], "cancelled", NOON + 2)).toBe(false);
    }
    expect((await batches.batchCounts(running.id)).dropped).toBe(3);
    expect((await batches.getBatch(finished.id))?.status).toBe("finished");
    const notice = {
      restoredAt: NOON + 1,
      backupTakenAt: undefined,
      unknown: 0,
      expiredSummaries: 1,
      stoppedBatches: [
        { id: running.id, kind: "stars", quantity: 50, createdAt: NOON - 3 * HOUR, unsent: 3 },
        { id: paused.id, kind: "stars", quantity: 50, createdAt: NOON - 2 * HOUR, unsent: 2 },
      ],
    };
    expect(marked.notice).toEqual(notice);
    // Kept for the next start to tell the admins (src/bot/admin-notifications/restore.ts).
    const kept = () => storages[0].keyValues(RESTORE_NOTICE.namespace).read(RESTORE_NOTICE.key);
    expect(await kept()).toEqual(JSON.parse(JSON.stringify(notice)));
    // Marked again before any bot told the admins: nothing more to stop, the first stops kept.
    const again = await ledger.markRestored(undefined, NOON + 5);
    expect(again.notice.stoppedBatches).toEqual([]);
    expect(await kept()).toEqual(JSON.parse(JSON.stringify({ ...notice, restoredAt: NOON + 5 })));
  });

  it("refuses every status move the lifecycle does not name", async () => {
    const { ledger, draft } = await ledgerContract(store);
    const a = await draft();
    const refused = (work: () => unknown) =>
      expect(attempt(work)).rejects.toBeInstanceOf(IllegalTransitionError);
    await refused(() => ledger.recordOutcome(a.id, success));
    await refused(() => ledger.resolve(a.id, 42, true));
    await ledger.claim(a.id, 1);
    expect(await ledger.cancel(a.id, 1)).toBe(false);
    await refused(() => ledger.resolve(a.id, 42, true));
    await ledger.recordOutcome(a.id, success);
    await refused(() => ledger.recordOutcome(a.id, rejected));
    await refused(() => ledger.resolve(a.id, 42, true));
    expect((await ledger.get(a.id))?.status).toBe("succeeded");

    const b = await draft();
    await ledger.claim(b.id, 1);
    await ledger.recordOutcome(b.id, ambiguous);
    await ledger.resolve(b.id, 42, true);
    await refused(() => ledger.resolve(b.id, 42, false));
    expect((await ledger.get(b.id))?.status).toBe("delivered");
  });
});

describe.each(STORES)("$name: ledger spending limits", (store) => {
  const limits = {
    starsPerPurchase: 500,
    starsPerUserDay: 600,
    starsPerBotDay: 1000,
    premiumPerUserDay: 1,
    premiumPerBotDay: 2,
  };

  it("largest stars amount per purchase", async () => {
    const { ledger, draft } = await ledgerContract(store, { limits });
    const big = await draft({ quantity: 501 });
    expect(await ledger.claim(big.id, 1)).toMatchObject({
      ok: false,
      reason: "limit",
      limit: "stars_per_purchase",
      max: 500,
    });
    expect((await buy(ledger, (await draft({ quantity: 500 })).id, 1)).ok).toBe(true);
  });

  it("stars per person per day, counting this purchase, reset at UTC midnight", async () => {
    const { ledger, other, draft, clock } = await ledgerContract(store, { limits });
    expect((await buy(ledger, (await draft({ quantity: 400 })).id, 1)).ok).toBe(true);
    const over = await draft({ quantity: 201 });
    expect(await other.claim(over.id, 1)).toEqual({
      ok: false,
      reason: "limit",
      limit: "stars_per_user_day",
      max: 600,
      used: 400,
      resetsAt: Date.UTC(2030, 0, 2),
    });
    expect((await buy(other, (await draft({ quantity: 200 })).id, 1)).ok).toBe(true);
    clock.now = Date.UTC(2030, 0, 2) - 1;
    expect(await ledger.claim((await draft({ quantity: 50 })).id, 1)).toMatchObject({
      reason: "limit",
    });
    clock.now = Date.UTC(2030, 0, 2);
    expect((await buy(ledger, (await draft({ quantity: 500 })).id, 1)).ok).toBe(true);
  });

  it("stars per day for the whole bot", async () => {
    const { ledger, draft } = await ledgerContract(store, { limits });
    expect((await buy(ledger, (await draft({ quantity: 500, ...user(1) })).id, 1)).ok).toBe(true);
    expect((await buy(ledger, (await draft({ quantity: 450, ...user(2) })).id, 2)).ok).toBe(true);
    expect(await ledger.claim((await draft({ quantity: 100, ...user(3) })).id, 3)).toMatchObject({
      ok: false,
      limit: "stars_per_bot_day",
      max: 1000,
      used: 950,
    });
  });

  it("premium per person and per bot per day; failed purchases do not count", async () => {
    const { ledger, draft } = await ledgerContract(store, { limits });
    const premium = (id: number) => draft({ kind: "premium", quantity: 3, ...user(id) });
    const first = await premium(1);
    // While in flight it counts: another purchase by the same person is over the limit.
    expect((await ledger.claim(first.id, 1)).ok).toBe(true);
    expect(await ledger.claim((await premium(1)).id, 1)).toMatchObject({
      limit: "premium_per_user_day",
      max: 1,
      used: 1,
    });
    await ledger.recordOutcome(first.id, rejected);
    expect((await buy(ledger, (await premium(1)).id, 1)).ok).toBe(true);
    expect((await buy(ledger, (await premium(2)).id, 2)).ok).toBe(true);
    expect(await ledger.claim((await premium(3)).id, 3)).toMatchObject({
      limit: "premium_per_bot_day",
      max: 2,
      used: 2,
    });
    expect(await ledger.usage(1)).toMatchObject({ premiumBot: 2, premiumUser: 1, starsUser: 0 });
  });

  it("admins are not exempt unless configured, and never from per-bot limits", async () => {
    const strict = await ledgerContract(store, { limits });
    expect((await buy(strict.ledger, (await strict.draft({ quantity: 500 })).id, 1)).ok).toBe(true);
    const asAdmin = { isAdmin: true };
    expect(
      await strict.ledger.claim((await strict.draft({ quantity: 150 })).id, 1, undefined, asAdmin),
    ).toMatchObject({ limit: "stars_per_user_day" });

    const lenient = await ledgerContract(store, { limits: { ...limits, adminsExempt: true } });
    await buy(lenient.ledger, (await lenient.draft({ quantity: 500 })).id, 1);
    const again = await lenient.draft({ quantity: 400 });
    expect(await lenient.ledger.claim(again.id, 1)).toMatchObject({
      limit: "stars_per_user_day",
    });
    expect((await buy(lenient.ledger, again.id, 1, asAdmin)).ok).toBe(true);
    expect(
      await lenient.ledger.claim(
        (await lenient.draft({ quantity: 200 })).id,
        1,
        undefined,
        asAdmin,
      ),
    ).toMatchObject({ limit: "stars_per_bot_day" });
  });
});

describe.each(STORES)("$name: ledger queries", (store) => {
  it("lists a person's drafts still open in one chat, not their others, nor other people's", async () => {
    const { ledger, draft } = await ledgerContract(store);
    const mine = (chatId: number) => ({
      requester: { userId: 1, chatId, chatType: "private" as const },
    });
    const first = await draft(mine(1));
    const second = await draft(mine(1));
    const elsewhere = await draft(mine(2));
    const cancelled = await draft(mine(1));
    await ledger.cancel(cancelled.id, 1);
    const sent = await draft(mine(1));
    expect((await ledger.claim(sent.id, 1)).ok).toBe(true);
    await draft({ requester: { userId: 3, chatId: 1, chatType: "group" } });
    expect((await ledger.openDrafts(1, 1)).map((i) => i.id)).toEqual([first.id, second.id]);
    expect((await ledger.openDrafts(1, 2)).map((i) => i.id)).toEqual([elsewhere.id]);
    expect(await ledger.openDrafts(2, 1)).toEqual([]);
  });

  it("recent (paged, per person), totals per UTC day, usage", async () => {
    const { ledger, draft, clock } = await ledgerContract(store);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      clock.now = NOON + i;
      ids.push((await draft(user(i % 2 === 0 ? 1 : 2))).id);
    }
    const idsOf = async (query: Parameters<typeof ledger.recent>[0]) =>
      (await ledger.recent(query)).map((i) => i.id);
    expect(await idsOf({ limit: 2 })).toEqual([ids[4], ids[3]]);
    expect(await idsOf({ limit: 2, offset: 2 })).toEqual([ids[2], ids[1]]);
    expect(await idsOf({ limit: 10, userId: 2 })).toEqual([ids[3], ids[1]]);

    const [a, , c] = ids as [string, string, string];
    await ledger.claim(a, 1);
    await ledger.recordOutcome(a, success);
    await ledger.claim(c, 1);
    await ledger.recordOutcome(c, rejected);
    clock.now = Date.UTC(2030, 0, 2, 1);
    await ledger.claim((await draft({ kind: "premium", quantity: 6 })).id, 1);
    expect(await ledger.dailyTotals(7)).toEqual([
      { day: "2030-01-02", starsSpent: 0, premiumGifts: 1, byStatus: { sending: 1 } },
      {
        day: "2030-01-01",
        starsSpent: 100,
        premiumGifts: 0,
        byStatus: { succeeded: 1, rejected: 1 },
      },
    ]);
    expect(await ledger.dailyTotals(1)).toHaveLength(1);
    expect(await ledger.usage(1)).toEqual({
      day: "2030-01-02",
      starsBot: 0,
      premiumBot: 1,
      starsUser: 0,
      premiumUser: 1,
      resetsAt: Date.UTC(2030, 0, 3),
    });
    expect((await ledger.usage()).starsUser).toBeUndefined();
  });
});

describe.each(STORES)("$name: ledger balance before a purchase", (store) => {
  const older = { ton: "100", usdt: "1000" };
  const newer = { ton: "90", usdt: "1000" };

  it("takes a newer read only once claimed, and never an older one", async () => {
    const { ledger, clock, draft } = await ledgerContract(store);
    const intent = await draft({ balanceBefore: older, balanceBeforeAt: NOON - 5_000 });
    expect(intent.balanceBeforeAt).toBe(NOON - 5_000);
    expect(await ledger.recordBalanceBefore(intent.id, newer, NOON + 1_000)).toBe(false);
    clock.now = NOON + 2_000;
    expect((await ledger.claim(intent.id, 1)).ok).toBe(true);
    expect(await ledger.recordBalanceBefore(intent.id, newer, NOON - 6_000)).toBe(false);
    expect(await ledger.recordBalanceBefore(intent.id, newer, NOON - 5_000)).toBe(false);
    expect(await ledger.get(intent.id)).toMatchObject({
      balanceBefore: older,
      balanceBeforeAt: NOON - 5_000,
    });
    expect(await ledger.recordBalanceBefore(intent.id, newer, NOON + 1_000)).toBe(true);
    expect(await ledger.get(intent.id)).toMatchObject({
      balanceBefore: newer,
      balanceBeforeAt: NOON + 1_000,
    });
    await ledger.recordOutcome(intent.id, success);
    expect(await ledger.recordBalanceBefore(intent.id, older, NOON + 3_000)).toBe(false);
  });

  it("without a read time, a read from before the draft does not replace its figure", async () => {
    const { ledger, draft } = await ledgerContract(store);
    const intent = await draft({ balanceBefore: older });
    expect(intent.balanceBeforeAt).toBeUndefined();
    expect((await ledger.claim(intent.id, 1)).ok).toBe(true);
    expect(await ledger.recordBalanceBefore(intent.id, newer, NOON - 1)).toBe(false);
    expect(await ledger.recordBalanceBefore(intent.id, newer, NOON)).toBe(true);
  });

  it("lists the other intents out between two times, leaving rejected ones out", async () => {
    const { ledger, clock, draft } = await ledgerContract(store);
    const sendAt = async (
      at: number,
      userId: number,
      outcome: PurchaseOutcome,
      doneAt = at + 10,
    ) => {
      const intent = await draft(user(userId));
      clock.now = at;
      expect((await ledger.claim(intent.id, userId)).ok).toBe(true);
      await ledger.recordOutcome(intent.id, outcome, doneAt);
      return intent.id;
    };
    const before = await sendAt(NOON + 100, 1, success, NOON + 150);
    const spanning = await sendAt(NOON + 900, 2, success, NOON + 1_100);
    const inside = await sendAt(NOON + 1_500, 3, success);
    const refused = await sendAt(NOON + 1_700, 4, rejected);
    const self = await sendAt(NOON + 1_900, 5, success);
    const after = await sendAt(NOON + 2_500, 6, success);
    const ids = (await ledger.sentDuring(NOON + 1_000, NOON + 1_900, self)).map((i) => i.id);
    expect(ids).toEqual([spanning, inside]);
    const windows = await ledger.outBetween(NOON + 1_000, NOON + 1_901);
    expect(windows.sort((a, b) => a.sentAt - b.sentAt)).toEqual([
      { id: spanning, sentAt: NOON + 900, finishedAt: NOON + 1_100 },
      { id: inside, sentAt: NOON + 1_500, finishedAt: NOON + 1_510 },
      { id: self, sentAt: NOON + 1_900, finishedAt: NOON + 1_910 },
    ]);
    expect(ids).not.toContain(before);
    expect(ids).not.toContain(refused);
    expect(ids).not.toContain(after);
  });

  it("lists an intent still out (no outcome yet), sent before the window, and not one sent after it", async () => {
    const { ledger, clock, draft } = await ledgerContract(store);
    const finished = await draft(user(1));
    clock.now = NOON + 100;
    expect((await ledger.claim(finished.id, 1)).ok).toBe(true);
    await ledger.recordOutcome(finished.id, success, NOON + 200);
    const stillOut = await draft(user(2));
    clock.now = NOON + 500;
    expect((await ledger.claim(stillOut.id, 2)).ok).toBe(true);
    const out = await ledger.sentDuring(NOON + 1_000, NOON + 2_000, finished.id);
    expect(out.map((i) => i.id)).toEqual([stillOut.id]);
    expect(await ledger.sentDuring(NOON + 300, NOON + 400, "nobody")).toEqual([]);
  });
});

describe.each(STORES)("$name: the claim fenced by the sender lease", (store) => {
  it("claims only while this process holds the lease at its epoch, unexpired by the store's clock", async () => {
    const { ledger, draft, storages } = await ledgerContract(store);
    const lease = storages[0].senderLease;
    expect(await lease.acquire("a", 30_000)).toMatchObject({ epoch: 1 });
    ledger.fenceWith({ owner: "a", epoch: 1 });
    const first = await draft();
    expect((await ledger.claim(first.id, 1)).ok).toBe(true);
    await ledger.recordOutcome(first.id, success);

    // Another process takes the lease over: this one's claims are refused from then on.
    expect(
      await storages[1].senderLease.takeOver("b", { owner: "a", epoch: 1 }, 30_000),
    ).toMatchObject({ epoch: 2 });
    const second = await draft();
    expect(await ledger.claim(second.id, 1)).toEqual({ ok: false, reason: "busy" });
    expect((await ledger.get(second.id))?.status).toBe("draft");

    // Fenced at the new epoch: claims go through while the lease lasts by the store's clock,
    // whatever the ledger's own clock says (the test's, at NOON in 2030).
    ledger.fenceWith({ owner: "b", epoch: 2 });
    expect((await ledger.claim(second.id, 1)).ok).toBe(true);
  });

  it("recovers what was left in flight only while it holds the lease: not the new holder's purchase on its way", async () => {
    const { ledger, other, draft, storages } = await ledgerContract(store);
    expect(await storages[0].senderLease.acquire("a", 30_000)).toMatchObject({ epoch: 1 });
    ledger.fenceWith({ owner: "a", epoch: 1 });
    // "a" stalled (paused, cut off) before its start's recovery; "b" took over and claimed.
    expect(
      await storages[1].senderLease.takeOver("b", { owner: "a", epoch: 1 }, 30_000),
    ).toMatchObject({ epoch: 2 });
    other.fenceWith({ owner: "b", epoch: 2 });
    const onItsWay = await draft();
    expect((await other.claim(onItsWay.id, 1)).ok).toBe(true);

    // SQLite refuses at once, PostgreSQL with a promise: both end up here.
    const recovering = Promise.resolve().then(() => ledger.recoverInterrupted());
    await expect(recovering).rejects.toThrow(LeaseNotHeldError);
    expect((await other.get(onItsWay.id))?.status).toBe("sending");
    // The holder's own recovery (at its next start) still makes it unknown.
    expect((await other.recoverInterrupted()).map((i) => i.id)).toEqual([onItsWay.id]);
  });

  it("an expired lease nobody took yet fences too: the holder must renew before it sends", async () => {
    const { ledger, draft, storages } = await ledgerContract(store);
    // A lease that has already run out by the store's clock (no lifetime at all).
    expect(await storages[0].senderLease.acquire("only", 0)).toMatchObject({ epoch: 1 });
    ledger.fenceWith({ owner: "only", epoch: 1 });
    const intent = await draft();
    expect(await ledger.claim(intent.id, 1)).toEqual({ ok: false, reason: "busy" });
    expect(await storages[0].senderLease.renew("only", 1, 30_000)).toBe(false);
  });

  it("a holder paused past its expiry cannot claim once another process took it; the new holder can", async () => {
    const { ledger, other, draft, storages, sql } = await ledgerContract(store);
    const epoch = (await storages[0].senderLease.acquire("old", 30_000))?.epoch ?? 0;
    ledger.fenceWith({ owner: "old", epoch });
    const intent = await draft();

    // Paused (SIGSTOP) past the expiry: its lifetime goes by; the standby process takes it.
    await sql("UPDATE sender_lease SET expires_at = expires_at - 30001");
    const taken = await storages[1].senderLease.acquire("next", 30_000);
    expect(taken?.previous?.owner).toBe("old");
    other.fenceWith({ owner: "next", epoch: taken?.epoch ?? 0 });

    // Resumed (SIGCONT): its claim is refused by the database, the intent untouched.
    expect(await ledger.claim(intent.id, 1)).toEqual({ ok: false, reason: "busy" });
    expect((await ledger.get(intent.id))?.status).toBe("draft");
    expect((await other.claim(intent.id, 1)).ok).toBe(true);
  });
});

describe.each(STORES)("$name: text the service sends, whatever it holds", (store) => {
  it("records an outcome whose reason and hash hold a NUL character (PostgreSQL's text cannot)", async () => {
    const { ledger, other, draft } = await ledgerContract(store);
    const intent = await draft();
    await ledger.claim(intent.id, 1);
    const odd: PurchaseOutcome = {
      kind: "rejected",
      status: 400,
      body: { ok: false, error: "BAD\u0000REASON", tx_hash: "ab\u0000c" },
      detail: "BAD\u0000REASON",
    };
    const recorded = await ledger.recordOutcome(intent.id, odd);
    expect(recorded.intent.status).toBe("rejected");
    // The body is kept as JSON, exactly; a plain text column keeps the rest of the text.
    expect((await other.get(intent.id))?.response).toEqual({ status: 400, body: odd.body });
    expect(recorded.intent.outcomeDetail).toMatch(/^BAD.REASON$/u);
    expect(recorded.intent.txHash).toMatch(/^ab.c$/u);
    expect(await other.sendingCount()).toBe(0);
  });
});
