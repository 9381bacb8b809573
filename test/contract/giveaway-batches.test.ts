/**
 * Giveaway batches in the ledger, the same on SQLite and PostgreSQL: a batch and its drafts
 * written together, sent through the ordinary claim in the admin's order, cancelled in one
 * go, counted, and never mistaken for a person's own drafts. The second storage plays
 * another process on the same database.
 */
import { describe, expect, it } from "vitest";
import { InvalidDraftError } from "../../src/ledger/errors.js";
import { BATCH_DRAFT_TTL_MS, type NewBatch } from "../../src/ledger/giveaways.js";
import { NOON } from "../helpers/ledger.js";
import { openLedgers, STORES } from "./stores.js";

const ADMIN = 7;

function batchOf(recipients: string[]): NewBatch {
  return {
    kind: "stars",
    quantity: 50,
    paymentMethod: "usdt_ton",
    adminId: ADMIN,
    chatId: ADMIN,
    recipients,
    balanceBefore: { ton: "1", usdt: "100" },
  };
}

describe.each(STORES)("$name: giveaway batches", (store) => {
  it("writes the batch and one draft per recipient, sent one by one in the admin's order through the claim", async () => {
    const { a, b, storages, clock } = await openLedgers(store);
    const [one, two] = storages;
    const batch = await one.giveaways.createBatch(batchOf(["@alice_1", "bob_22", "carol_3"]), NOON);
    expect(batch).toMatchObject({ status: "running", adminId: ADMIN, quantity: 50 });
    expect(batch.id).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(await two.giveaways.getBatch(batch.id)).toEqual(batch);
    expect(await two.giveaways.runningBatches()).toEqual([batch]);
    expect(await two.giveaways.batchCounts(batch.id)).toMatchObject({ total: 3, waiting: 3 });

    const first = await two.giveaways.nextBatchDraft(batch.id, NOON);
    expect(first).toMatchObject({
      recipient: "alice_1",
      status: "draft",
      batchId: batch.id,
      expiresAt: NOON + BATCH_DRAFT_TTL_MS,
      requester: { userId: ADMIN, chatId: ADMIN, chatType: "private" },
    });
    if (first === undefined) throw new Error("no draft");
    // The admin's own gift flow never sees (or replaces) a giveaway's drafts.
    expect(await a.openDrafts(ADMIN, ADMIN)).toEqual([]);
    clock.now = NOON + 60 * 60_000;
    expect(await a.expireDrafts()).toBe(0);

    const claimed = await b.claim(first.id, ADMIN, NOON, { isAdmin: true });
    expect(claimed.ok).toBe(true);
    expect(await a.claim(first.id, ADMIN, NOON, { isAdmin: true })).toMatchObject({ ok: false });
    await b.recordOutcome(first.id, {
      kind: "success",
      value: { txHash: "tx1", data: undefined },
      body: { ok: true, tx_hash: "tx1" },
    });
    expect((await one.giveaways.nextBatchDraft(batch.id, clock.now))?.recipient).toBe("bob_22");
    expect(await one.giveaways.batchCounts(batch.id)).toMatchObject({
      total: 3,
      waiting: 2,
      delivered: 1,
    });
    expect((await two.giveaways.batchIntents(batch.id)).map((i) => i.recipient)).toEqual([
      "alice_1",
      "bob_22",
      "carol_3",
    ]);
  });

  it("moves only from the statuses named, and cancels every unsent draft in one go", async () => {
    const { b, storages } = await openLedgers(store);
    const [one, two] = storages;
    const batch = await one.giveaways.createBatch(batchOf(["dan_444", "eve_555", "fay_666"]), NOON);
    expect(await two.giveaways.moveBatch(batch.id, ["running"], "paused", NOON + 1)).toBe(true);
    expect(await one.giveaways.moveBatch(batch.id, ["running"], "stopped", NOON + 2)).toBe(false);
    expect(
      await one.giveaways.moveBatch(batch.id, ["paused"], "stopped", NOON + 3, "unknown_outcome"),
    ).toBe(true);
    expect(await two.giveaways.getBatch(batch.id)).toMatchObject({
      status: "stopped",
      stopReason: "unknown_outcome",
      updatedAt: NOON + 3,
    });
    expect(await two.giveaways.runningBatches()).toEqual([]);
    await one.giveaways.setBatchMessage(batch.id, 4242, NOON + 4);
    expect((await two.giveaways.getBatch(batch.id))?.messageId).toBe(4242);

    const first = await one.giveaways.nextBatchDraft(batch.id, NOON);
    if (first === undefined) throw new Error("no draft");
    expect((await b.claim(first.id, ADMIN)).ok).toBe(true);
    expect(await two.giveaways.cancelBatchDrafts(batch.id, NOON + 5)).toBe(2);
    expect(await one.giveaways.nextBatchDraft(batch.id, NOON + 5)).toBeUndefined();
    expect(await one.giveaways.batchCounts(batch.id)).toMatchObject({
      total: 3,
      sending: 1,
      dropped: 2,
      waiting: 0,
    });
    const cancelled = (await one.giveaways.batchIntents(batch.id))[1];
    expect(cancelled).toMatchObject({ status: "cancelled", finishedAt: NOON + 5 });
    expect((await b.history(cancelled?.id ?? "")).map((e) => e.to)).toEqual(["draft", "cancelled"]);
  });

  it("refuses a batch with a name that is not a username, writing nothing", async () => {
    const { storages } = await openLedgers(store);
    const [one] = storages;
    await expect(async () =>
      one.giveaways.createBatch(batchOf(["ok_name", "no!"]), NOON),
    ).rejects.toThrow(InvalidDraftError);
    await expect(async () => one.giveaways.createBatch(batchOf([]), NOON)).rejects.toThrow(
      InvalidDraftError,
    );
    expect(await one.giveaways.runningBatches()).toEqual([]);
  });
});
