/**
 * The sender lease, the same on SQLite and PostgreSQL, through two connections (two processes
 * or replicas): one holder at a time, an epoch that grows at every takeover, and many asking at
 * once with exactly one winner.
 */
import { describe, expect, it } from "vitest";
import { STORES } from "./stores.js";

const NOON = Date.UTC(2030, 0, 1, 12);
const TTL = 30_000;

describe.each(STORES)("$name: the sender lease", (store) => {
  it("one holder at a time; released, it is taken at once with a new epoch", async () => {
    const [{ senderLease: a }, { senderLease: b }] = await store.openTwo();
    expect(await a.acquire("a", NOON, TTL)).toBe(1);
    expect(await b.acquire("b", NOON + 1_000, TTL)).toBeUndefined();
    expect(await b.holder(NOON + 1_000)).toEqual({ owner: "a", epoch: 1, expiresAt: NOON + TTL });
    expect(await a.renew("a", 1, NOON + 10_000, TTL)).toBe(true);
    await a.release("a", 1);
    expect(await b.holder(NOON + 10_000)).toBeUndefined();
    expect(await b.acquire("b", NOON + 10_001, TTL)).toBe(2);
    // The old holder's renewal and release no longer touch it.
    expect(await a.renew("a", 1, NOON + 10_002, TTL)).toBe(false);
    await a.release("a", 1);
    expect((await a.holder(NOON + 10_003))?.owner).toBe("b");
  });

  it("expires without renewals: the other takes over, and the old holder's renewal fails", async () => {
    const [{ senderLease: a }, { senderLease: b }] = await store.openTwo();
    expect(await a.acquire("a", NOON, TTL)).toBe(1);
    expect(await b.acquire("b", NOON + TTL - 1, TTL)).toBeUndefined();
    expect(await b.acquire("b", NOON + TTL, TTL)).toBe(2);
    expect(await a.renew("a", 1, NOON + TTL + 1, TTL)).toBe(false);
  });

  it("is taken over from a dead holder only while that holder still has it", async () => {
    const [{ senderLease: a }, { senderLease: b }] = await store.openTwo();
    expect(await a.acquire("dead", NOON, TTL)).toBe(1);
    expect(await b.takeOver("b", { owner: "dead", epoch: 0 }, NOON + 1, TTL)).toBeUndefined();
    expect(await b.takeOver("b", { owner: "dead", epoch: 1 }, NOON + 1, TTL)).toBe(2);
    expect(await a.takeOver("c", { owner: "dead", epoch: 1 }, NOON + 2, TTL)).toBeUndefined();
  });

  it("many asking at once through both connections: exactly one wins", async () => {
    const [{ senderLease: a }, { senderLease: b }] = await store.openTwo();
    const asks = Array.from({ length: 20 }, async (_, i) =>
      (i % 2 === 0 ? a : b).acquire(`p${i}`, NOON, TTL),
    );
    const epochs = (await Promise.all(asks)).filter((epoch) => epoch !== undefined);
    expect(epochs).toEqual([1]);
  });
});
