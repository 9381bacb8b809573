/** The key-value namespaces and the access lists, the same on SQLite and PostgreSQL. */
import { describe, expect, it } from "vitest";
import { STORES } from "./stores.js";

describe.each(STORES)("$name: the key-value store", (store) => {
  it("keeps JSON values per namespace, seen by another connection, until deleted", async () => {
    const [a, b] = await store.openTwo();
    await a.keyValues<{ step: number }>("conversations").write("chat:1", { step: 2 });
    await a.keyValues<{ step: number }>("other").write("chat:1", { step: 9 });
    const seen = b.keyValues<{ step: number }>("conversations");
    expect(await seen.read("chat:1")).toEqual({ step: 2 });
    await seen.writeRetrying("chat:1", { step: 3 });
    expect(await a.keyValues("conversations").read("chat:1")).toEqual({ step: 3 });
    await seen.deleteRetrying("chat:1");
    expect(await a.keyValues("conversations").read("chat:1")).toBeUndefined();
    expect(await b.keyValues("other").read("chat:1")).toEqual({ step: 9 });
    await b.keyValues("other").delete("chat:1");
    expect(await a.keyValues("other").read("chat:1")).toBeUndefined();
  });

  it("keeps text exactly, whatever it holds", async () => {
    const [a, b] = await store.openTwo();
    const odd = { text: "emoji 🎁, quotes \" ', NUL-free unicode ёжик, a\nnew line", n: 2 ** 52 };
    await a.keyValues<typeof odd>("odd").write("k", odd);
    expect(await b.keyValues("odd").read("k")).toEqual(odd);
  });
});

describe.each(STORES)("$name: the access lists", (store) => {
  it("adds, keeps the first adder, updates a known label, lists oldest first and removes", async () => {
    const [a, b] = await store.openTwo();
    await a.access.addUser({ id: 2002, addedBy: 1, addedAt: 20, label: "@bea" });
    await a.access.addUser({ id: 3003, addedBy: 1, addedAt: 10, label: undefined });
    await b.access.addUser({ id: 2002, addedBy: 9, addedAt: 30, label: "@bea_new" });
    await b.access.addUser({ id: 3003, addedBy: 9, addedAt: 40, label: undefined });
    expect(await a.access.users()).toEqual([
      { id: 3003, addedBy: 1, addedAt: 10, label: undefined },
      { id: 2002, addedBy: 1, addedAt: 20, label: "@bea_new" },
    ]);
    expect(await b.access.hasUser(2002)).toBe(true);
    expect(await b.access.hasChat(2002)).toBe(false);
    await a.access.addChat({ id: -100_123_456_789, addedBy: 1, addedAt: 5, label: "Gifts" });
    expect(await b.access.chats()).toEqual([
      { id: -100_123_456_789, addedBy: 1, addedAt: 5, label: "Gifts" },
    ]);
    expect(await b.access.removeUser(2002)).toBe(true);
    expect(await a.access.removeUser(2002)).toBe(false);
    expect(await a.access.hasUser(2002)).toBe(false);
    expect(await a.access.removeChat(-100_123_456_789)).toBe(true);
    expect(await b.access.chats()).toEqual([]);
  });
});
