import { describe, expect, it } from "vitest";
import type { BalanceReading } from "../../src/purchases/types.js";
import { deskFixture, type DeskFixtureOptions } from "../helpers/desk.js";
import { username } from "../helpers/username.js";
import { formatDecimal, starsPrice } from "../../tools/sandbox/pricing.js";

/** A desk on the sandbox whose "quota is idle" answer the test sets, with what it read. */
async function world(options: { quotaIdle: boolean; listen?: boolean }) {
  const idle = { now: options.quotaIdle };
  const desk: DeskFixtureOptions["desk"] = { quotaIdle: () => idle.now };
  const f = await deskFixture({ desk });
  const readings: BalanceReading[] = [];
  if (options.listen !== false)
    f.desk.events.on("balanceRead", (reading) => readings.push(reading));
  const balanceReads = () => f.sandbox.requests.filter((r) => r.path === "/wallet-balance/").length;
  return { f, idle, readings, balanceReads };
}

describe("the balance after a purchase", () => {
  it("is read once, fresh, when the quota is idle; its listeners get it and a summary reuses it", async () => {
    const { f, readings, balanceReads } = await world({ quotaIdle: true });
    const draft = await f.starsDraft();
    const result = await f.desk.confirm(draft.id, 1);
    expect(result.kind).toBe("succeeded");
    await f.desk.settled();

    expect(balanceReads()).toBe(1);
    expect(readings).toHaveLength(1);
    const [after] = readings;
    // Read after the answer, so it shows what the purchase spent.
    expect(after?.at).toBeGreaterThanOrEqual(
      (await f.ledger.get(draft.id))?.finishedAt ?? Infinity,
    );
    expect(after?.balance).toEqual(f.sandbox.getBalance());
    expect(after?.balance.ton).not.toBe("100");
    // The next summary's read is that answer, not another request.
    await f.desk.readBalance();
    expect(balanceReads()).toBe(1);
  });

  it("costs no request while the quota is in demand: the next read made anyway reaches the listeners", async () => {
    const { f, idle, readings, balanceReads } = await world({ quotaIdle: false });
    const draft = await f.starsDraft();
    expect((await f.desk.confirm(draft.id, 1)).kind).toBe("succeeded");
    await f.desk.settled();
    expect(balanceReads()).toBe(0);
    expect(readings).toEqual([]);

    // Someone's summary reads the balance: that answer is the balance after the purchase.
    idle.now = true;
    await f.desk.readBalance();
    expect(balanceReads()).toBe(1);
    expect(readings.map((r) => r.balance)).toEqual([f.sandbox.getBalance()]);
  });

  it("is read once after the last of several confirmations waiting in turn, not after each", async () => {
    const { f, readings, balanceReads } = await world({ quotaIdle: true });
    const drafts = await Promise.all(
      ["alice_1", "bob_gifts", "carl_gifts"].map((name, i) =>
        f.starsDraft({
          recipient: username(name),
          requester: { userId: 10 + i, chatId: 10 + i, chatType: "private" },
        }),
      ),
    );
    const results = await Promise.all(drafts.map((d, i) => f.desk.confirm(d.id, 10 + i)));
    expect(results.map((r) => r.kind)).toEqual(["succeeded", "succeeded", "succeeded"]);
    await f.desk.settled();
    expect(f.sandbox.purchaseRequests()).toHaveLength(3);
    expect(balanceReads()).toBe(1);
    expect(readings.map((r) => r.balance)).toEqual([f.sandbox.getBalance()]);
  });

  it("is not read when nobody listens, nor after a confirmation that sent nothing", async () => {
    const quiet = await world({ quotaIdle: true, listen: false });
    expect((await quiet.f.desk.confirm((await quiet.f.starsDraft()).id, 1)).kind).toBe("succeeded");
    await quiet.f.desk.settled();
    expect(quiet.balanceReads()).toBe(0);

    const { f, readings, balanceReads } = await world({ quotaIdle: true });
    await f.desk.admin.pause(99);
    const refused = await f.desk.confirm((await f.starsDraft()).id, 1);
    expect(refused).toMatchObject({ kind: "refused", refusal: { reason: "paused" } });
    await f.desk.settled();
    expect(balanceReads()).toBe(0);
    expect(readings).toEqual([]);
  });
});

/** A desk with the accounts (costs measured) and a low-balance-style listener, on the sandbox. */
async function costWorld(options: { quotaIdle: boolean }) {
  const idle = { now: options.quotaIdle };
  const f = await deskFixture({ accounts: true, desk: { quotaIdle: () => idle.now } });
  const readings: BalanceReading[] = [];
  f.desk.events.on("balanceRead", (reading) => readings.push(reading));
  const balanceReads = () => f.sandbox.requests.filter((r) => r.path === "/wallet-balance/").length;
  /** A draft made as a summary makes one: its "balance before" is the desk's (shared) read. */
  const draft = async (name: string, userId: number) => {
    f.clock.now += 1;
    return await f.desk.createDraft({
      kind: "stars",
      recipient: username(name),
      quantity: 100,
      paymentMethod: "ton",
      requester: { userId, chatId: userId, chatType: "private" },
    });
  };
  return { f, idle, readings, balanceReads, draft };
}

/** The sandbox's price of 100 stars paid in TON, as the accounts write it. */
const PRICE_100_STARS_TON = formatDecimal(starsPrice(100, "ton").nano);

describe("the cost of a purchase, from that same one read", () => {
  it("is measured exactly from the desk's read after the purchase, with no request of its own", async () => {
    const { f, readings, balanceReads, draft } = await costWorld({ quotaIdle: true });
    const intent = await draft("bob_gifts", 1);
    expect(balanceReads()).toBe(1);
    expect((await f.desk.confirm(intent.id, 1)).kind).toBe("succeeded");
    // The delivered message waits for the measurement the desk's read makes.
    const cost = await f.desk.measuredCost(intent.id, 10_000);
    expect(cost).toMatchObject({
      measured: true,
      amount: PRICE_100_STARS_TON,
      currency: "ton",
      source: "balance_after",
    });
    await f.desk.settled();
    // One read after the purchase, shared by the low-balance listener and the cost.
    expect(balanceReads()).toBe(2);
    expect(readings).toHaveLength(2);
    expect((await f.records.getIntent(intent.id))?.cost).toEqual(cost);
  });

  it("costs no request while the quota is in demand: the next summary's read measures it", async () => {
    const { f, idle, balanceReads, draft } = await costWorld({ quotaIdle: false });
    const intent = await draft("bob_gifts", 1);
    expect((await f.desk.confirm(intent.id, 1)).kind).toBe("succeeded");
    // Nothing under way: the delivered message does not wait for a read that will not come.
    expect(await f.desk.measuredCost(intent.id, 60_000)).toBeUndefined();
    await f.desk.settled();
    expect(balanceReads()).toBe(1);

    idle.now = true;
    f.clock.now += 1;
    await f.desk.readBalance();
    expect(balanceReads()).toBe(2);
    expect((await f.records.getIntent(intent.id))?.cost).toMatchObject({
      measured: true,
      amount: PRICE_100_STARS_TON,
      source: "later_balance",
    });
  });

  it("is one read after the last of several confirmations in turn, and no wrong figure for any", async () => {
    const { f, balanceReads, draft } = await costWorld({ quotaIdle: true });
    const drafts = [];
    for (const [i, name] of ["alice_1", "bob_gifts", "carl_gifts"].entries()) {
      drafts.push(await draft(name, 10 + i));
    }
    const results = await Promise.all(drafts.map((d, i) => f.desk.confirm(d.id, 10 + i)));
    expect(results.map((r) => r.kind)).toEqual(["succeeded", "succeeded", "succeeded"]);
    await f.desk.settled();
    // The summaries' one shared read, then one after the last purchase.
    expect(balanceReads()).toBe(2);
    // Every "before" was the summaries' shared reading and the one "after" came once all three
    // went out: each drop would include the others' prices, so none gets a figure.
    for (const d of drafts) {
      expect((await f.records.getIntent(d.id))?.cost).toMatchObject({
        measured: false,
        reason: "other_purchase",
      });
    }
  });
});
