/**
 * The admins' app's reads (src/ledger/admin-reads.ts), the same on SQLite and PostgreSQL: the
 * spending per UTC day with costs summed exactly, the list's search (text taken literally) and
 * filters, and the giveaways not ended.
 */
import { describe, expect, it } from "vitest";
import type { Storage } from "../../src/storage/types.js";
import type { PurchaseOutcome } from "../../src/service/types.js";
import { STORES } from "./stores.js";

const DAY = 86_400_000;
const NOW = Date.parse("2026-11-20T12:00:00Z");
const DELIVERED: PurchaseOutcome = {
  kind: "success",
  value: { txHash: "tx", data: undefined },
  body: { ok: true },
};

/** A purchase delivered at `at`, with its cost when given. */
async function deliver(
  storage: Storage,
  purchase: { recipient: string; userId: number; kind?: "stars" | "premium"; quantity?: number },
  at: number,
  cost?: { amount: string; currency: "ton" | "usdt" },
): Promise<string> {
  const ledger = storage.openLedger({ limits: { starsPerUserDay: 1e9, starsPerBotDay: 1e9 } });
  const draft = await ledger.createDraft(
    {
      kind: purchase.kind ?? "stars",
      recipient: purchase.recipient,
      quantity: purchase.quantity ?? 50,
      paymentMethod: cost?.currency === "ton" ? "ton" : "usdt_ton",
      requester: { userId: purchase.userId, chatId: purchase.userId, chatType: "private" },
      balanceBefore: undefined,
    },
    at,
  );
  const claim = await ledger.claim(draft.id, purchase.userId, at);
  if (!claim.ok) throw new Error(`claim refused: ${claim.reason}`);
  await ledger.recordOutcome(draft.id, DELIVERED, at + 1);
  if (cost !== undefined) {
    await storage
      .openAccounts()
      .recordCost(draft.id, { measured: true, ...cost, source: "balance_after", at: at + 2 });
  }
  return draft.id;
}

describe.each(STORES)("$name: the admins' app's reads", (store) => {
  it("sums each UTC day's delivered gifts and their costs exactly, per currency", async () => {
    const [storage, other] = await store.openTwo();
    const today = NOW;
    const yesterday = NOW - DAY;
    await deliver(storage, { recipient: "ann_gifts", userId: 1 }, yesterday, {
      amount: "0.1",
      currency: "usdt",
    });
    await deliver(storage, { recipient: "ann_gifts", userId: 1 }, yesterday + 1000, {
      amount: "0.2",
      currency: "usdt",
    });
    // A negative figure never comes from the cost meter, but the sum keeps its sign exactly.
    await deliver(storage, { recipient: "ann_gifts", userId: 1, quantity: 50 }, yesterday + 2000, {
      amount: "-0.05",
      currency: "usdt",
    });
    await deliver(storage, { recipient: "bob_gifts", userId: 2, quantity: 100 }, today, {
      amount: "0.123456789",
      currency: "ton",
    });
    await deliver(storage, { recipient: "bob_gifts", userId: 2, quantity: 200 }, today + 1000, {
      amount: "12",
      currency: "ton",
    });
    await deliver(
      storage,
      { recipient: "cid_gifts", userId: 3, kind: "premium", quantity: 6 },
      today + 2000,
    );
    // Another connection (another process) reads what the first wrote.
    expect(await other.adminReads.dailySpending(NOW - 7 * DAY, NOW + DAY)).toEqual([
      {
        day: "2026-11-19",
        gifts: 3,
        stars: 150,
        premiumGifts: 0,
        premiumMonths: 0,
        spent: { ton: "0", usdt: "0.25" },
      },
      {
        day: "2026-11-20",
        gifts: 3,
        stars: 300,
        premiumGifts: 1,
        premiumMonths: 6,
        spent: { ton: "12.123456789", usdt: "0" },
      },
    ]);
    expect(await other.adminReads.dailySpending(NOW, NOW + DAY)).toHaveLength(1);
  });

  it("searches by person (id or known name) and recipient literally, filters, and pages newest first", async () => {
    const [storage] = await store.openTwo();
    await storage.keyValues<string>("people").write("1", "@Ann_100%");
    await storage.keyValues<string>("people").write("2", "Bob Smith");
    for (let i = 0; i < 5; i++) {
      await deliver(storage, { recipient: `ann_${i}_gifts`, userId: 1 }, NOW + i * 1000);
    }
    await deliver(
      storage,
      { recipient: "bob_gifts", userId: 2, kind: "premium", quantity: 3 },
      NOW - DAY,
    );
    const page = (filter: object, limit = 10, offset = 0) =>
      Promise.resolve(storage.adminReads.purchasesPage(filter, { limit, offset }));
    const recipients = async (filter: object) =>
      (await page(filter)).intents.map((i) => i.recipient);

    expect((await page({})).total).toBe(6);
    expect(await recipients({ person: "ann_100%" })).toHaveLength(5);
    expect(await recipients({ person: "ann_1000" })).toEqual([]);
    expect(await recipients({ person: "_" })).toHaveLength(5);
    expect(await recipients({ person: "smith" })).toEqual(["bob_gifts"]);
    expect(await recipients({ person: "2" })).toEqual(["bob_gifts"]);
    expect(await recipients({ recipient: "@ANN_3" })).toEqual(["ann_3_gifts"]);
    expect(await recipients({ recipient: "%" })).toEqual([]);
    expect(await recipients({ kind: "premium" })).toEqual(["bob_gifts"]);
    expect(await recipients({ statuses: ["succeeded"], from: NOW })).toHaveLength(5);
    expect(await recipients({ statuses: ["unconfirmed", "draft"] })).toEqual([]);
    expect(await recipients({ to: NOW })).toEqual(["bob_gifts"]);
    const second = await page({}, 4, 4);
    expect(second).toMatchObject({ total: 6 });
    expect(second.intents.map((i) => i.recipient)).toEqual(["ann_0_gifts", "bob_gifts"]);
    expect((await page({}, 4, 0)).intents[0]?.recipient).toBe("ann_4_gifts");
  });

  it("lists the giveaways not ended, newest first", async () => {
    const [storage] = await store.openTwo();
    const batch = (recipients: string[]) =>
      storage.giveaways.createBatch(
        {
          kind: "stars",
          quantity: 50,
          paymentMethod: "usdt_ton",
          adminId: 9,
          chatId: 9,
          recipients,
          balanceBefore: undefined,
        },
        NOW,
      );
    const first = await batch(["ann_gifts"]);
    const second = await batch(["bob_gifts"]);
    const third = await batch(["cid_gifts"]);
    await storage.giveaways.moveBatch(first.id, ["running"], "paused", NOW + 1);
    await storage.giveaways.moveBatch(third.id, ["running"], "finished", NOW + 1);
    const open = await storage.adminReads.openBatches();
    expect(open.map((b) => b.id).sort()).toEqual([first.id, second.id].sort());
  });
});
