import { describe, expect, it } from "vitest";
import type { BalanceReading } from "../../src/purchases/types.js";
import { deskFixture, type DeskFixtureOptions } from "./helpers.js";
import { username } from "../helpers/username.js";

/** A desk on the sandbox whose "quota is idle" answer the test sets, with what it read. */
async function world(options: { quotaIdle: boolean; listen?: boolean }) {
  const idle = { now: options.quotaIdle };
  const desk: DeskFixtureOptions["desk"] = { quotaIdle: () => idle.now };
  const f = await deskFixture({ desk });
  const readings: BalanceReading[] = [];
  if (options.listen !== false) f.desk.onBalanceRead((reading) => readings.push(reading));
  const balanceReads = () => f.sandbox.requests.filter((r) => r.path === "/wallet-balance/").length;
  return { f, idle, readings, balanceReads };
}

describe("the balance after a purchase", () => {
  it("is read once, fresh, when the quota is idle; its listeners get it and a summary reuses it", async () => {
    const { f, readings, balanceReads } = await world({ quotaIdle: true });
    const draft = f.starsDraft();
    const result = await f.desk.confirm(draft.id, 1);
    expect(result.kind).toBe("succeeded");
    await f.desk.settled();

    expect(balanceReads()).toBe(1);
    expect(readings).toHaveLength(1);
    const [after] = readings;
    // Read after the answer, so it shows what the purchase spent.
    expect(after?.at).toBeGreaterThanOrEqual(f.ledger.get(draft.id)?.finishedAt ?? Infinity);
    expect(after?.balance).toEqual(f.sandbox.getBalance());
    expect(after?.balance.ton).not.toBe("100");
    // The next summary's read is that answer, not another request.
    await f.desk.readBalance();
    expect(balanceReads()).toBe(1);
  });

  it("costs no request while the quota is in demand: the next read made anyway reaches the listeners", async () => {
    const { f, idle, readings, balanceReads } = await world({ quotaIdle: false });
    const draft = f.starsDraft();
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
    const drafts = ["alice_1", "bob_gifts", "carl_gifts"].map((name, i) =>
      f.starsDraft({
        recipient: username(name),
        requester: { userId: 10 + i, chatId: 10 + i, chatType: "private" },
      }),
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
    expect((await quiet.f.desk.confirm(quiet.f.starsDraft().id, 1)).kind).toBe("succeeded");
    await quiet.f.desk.settled();
    expect(quiet.balanceReads()).toBe(0);

    const { f, readings, balanceReads } = await world({ quotaIdle: true });
    f.desk.pause(99);
    const refused = await f.desk.confirm(f.starsDraft().id, 1);
    expect(refused).toMatchObject({ kind: "refused", refusal: { reason: "paused" } });
    await f.desk.settled();
    expect(balanceReads()).toBe(0);
    expect(readings).toEqual([]);
  });
});
