/**
 * The SQLite file itself: made with its folder, in WAL mode at the newest schema, and the
 * key-value namespaces kept across a reopen (the same store on both databases is in the ledger's
 * suite: test/contract/key-value-and-access.test.ts).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { latestVersion } from "../../src/storage/migrations.js";
import type { Db } from "../../src/storage/sqlite/driver.js";
import { openSqliteStorage, schemaVersion } from "../../src/storage/sqlite/open.js";
import { tempDir } from "../helpers/temp-dir.js";

describe("the SQLite file", () => {
  it("keeps key-value namespaces across a reopen, in WAL mode at the newest schema", async () => {
    const path = join(tempDir(), "nested", "bot.sqlite");
    const first = await openSqliteStorage(path);
    await first.keyValues<{ step: number }>("conversations").write("chat:1", { step: 2 });
    await first.keyValues<{ step: number }>("other").write("chat:1", { step: 9 });
    await first.close();

    let db: Db | undefined;
    const reopened = await openSqliteStorage(path, (opened) => (db = opened));
    const store = reopened.keyValues<{ step: number }>("conversations");
    expect(await store.read("chat:1")).toEqual({ step: 2 });
    await store.delete("chat:1");
    expect(await store.read("chat:1")).toBeUndefined();
    expect(await reopened.keyValues("other").read("chat:1")).toEqual({ step: 9 });
    expect(schemaVersion(db!)).toBe(latestVersion("sqlite"));
    expect(db!.pragma("journal_mode", { simple: true })).toBe("wal");
    await reopened.close();
  });
});
