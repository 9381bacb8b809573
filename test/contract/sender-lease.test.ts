/**
 * The sender lease, the same on SQLite and PostgreSQL, through two connections (two processes
 * or replicas): one holder at a time, an epoch that grows at every takeover, many asking at
 * once with exactly one winner, and every time taken from the store's own clock.
 */
import { describe, expect, it } from "vitest";
import { STORES } from "./stores.js";

const TTL = 30_000;
/** Moves the lease's expiry into the past, as if its lifetime had gone by without renewals. */
const EXPIRE_IT = `UPDATE sender_lease SET expires_at = expires_at - ${TTL + 1}`;

describe.each(STORES)("$name: the sender lease", (store) => {
  it("one holder at a time; released, it is taken at once with a new epoch, as a free lease", async () => {
    const [{ senderLease: a }, { senderLease: b }] = await store.openTwo();
    const first = await a.acquire("a", TTL);
    expect(first).toMatchObject({ epoch: 1 });
    // Never held before: nobody to wait for.
    expect(first?.previous).toBeUndefined();
    expect(await b.acquire("b", TTL)).toBeUndefined();
    expect(await b.holder()).toEqual({
      owner: "a",
      epoch: 1,
      expiresAt: (first?.at ?? 0) + TTL,
    });
    expect(await a.renew("a", 1, TTL)).toBe(true);
    await a.release("a", 1);
    expect(await b.holder()).toBeUndefined();
    const second = await b.acquire("b", TTL);
    expect(second).toMatchObject({ epoch: 2 });
    expect(second?.previous).toBeUndefined();
    // The old holder's renewal and release no longer touch it.
    expect(await a.renew("a", 1, TTL)).toBe(false);
    await a.release("a", 1);
    expect((await a.holder())?.owner).toBe("b");
  });

  it("expires without renewals: the other takes it, told whose it was and when it expired; the old holder's renewal fails", async () => {
    const {
      storages: [{ senderLease: a }, { senderLease: b }],
      sql,
    } = await store.openTwoWithSql();
    const first = await a.acquire("a", TTL);
    expect(await b.acquire("b", TTL)).toBeUndefined();
    await sql(EXPIRE_IT);
    expect(await b.holder()).toBeUndefined();
    const taken = await b.acquire("b", TTL);
    expect(taken).toMatchObject({
      epoch: 2,
      previous: { owner: "a", expiresAt: (first?.at ?? 0) + TTL - (TTL + 1) },
    });
    expect(await a.renew("a", 1, TTL)).toBe(false);
  });

  it("is taken over from a dead holder only while that holder still has it", async () => {
    const [{ senderLease: a }, { senderLease: b }] = await store.openTwo();
    await a.acquire("dead", TTL);
    expect(await b.takeOver("b", { owner: "dead", epoch: 0 }, TTL)).toBeUndefined();
    expect(await b.takeOver("b", { owner: "dead", epoch: 1 }, TTL)).toMatchObject({
      epoch: 2,
      previous: { owner: "dead" },
    });
    expect(await a.takeOver("c", { owner: "dead", epoch: 1 }, TTL)).toBeUndefined();
  });

  it("many asking at once through both connections: exactly one wins", async () => {
    const [{ senderLease: a }, { senderLease: b }] = await store.openTwo();
    const asks = Array.from({ length: 20 }, async (_, i) =>
      (i % 2 === 0 ? a : b).acquire(`p${i}`, TTL),
    );
    const epochs = (await Promise.all(asks)).filter((grant) => grant !== undefined);
    expect(epochs.map((grant) => grant.epoch)).toEqual([1]);
  });

  it("keeps time by the store's clock: taken now, expiring a lifetime later, whatever the caller's clock", async () => {
    const [{ senderLease: a }, { senderLease: b }] = await store.openTwo();
    // This test runs on the store's machine: the store's clock and this one agree.
    const before = Date.now();
    const grant = await a.acquire("a", TTL);
    const after = Date.now();
    expect(grant?.at).toBeGreaterThanOrEqual(before - 5);
    expect(grant?.at).toBeLessThanOrEqual(after + 5);
    const held = await b.holder();
    expect(held?.expiresAt).toBe((grant?.at ?? 0) + TTL);
    // A renewal moves the expiry to a lifetime from the store's now, never back.
    expect(await a.renew("a", 1, TTL)).toBe(true);
    expect((await b.holder())?.expiresAt).toBeGreaterThanOrEqual(held?.expiresAt ?? 0);
  });
});
