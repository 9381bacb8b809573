import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase, schemaVersion } from "../../src/storage/sqlite/database.js";
import { KeyValueStore } from "../../src/storage/sqlite/key-value-store.js";
import { migrations } from "../../src/storage/sqlite/migrations.js";
import { tempDir } from "../helpers/temp-dir.js";

describe("KeyValueStore", () => {
  it("keeps values across a reopen of the same file, per namespace", () => {
    const path = join(tempDir(), "nested", "bot.sqlite");
    const db = openDatabase(path);
    new KeyValueStore<{ step: number }>(db, "conversations").write("chat:1", { step: 2 });
    new KeyValueStore<{ step: number }>(db, "other").write("chat:1", { step: 9 });
    db.close();

    const reopened = openDatabase(path);
    const store = new KeyValueStore<{ step: number }>(reopened, "conversations");
    expect(store.read("chat:1")).toEqual({ step: 2 });
    store.delete("chat:1");
    expect(store.read("chat:1")).toBeUndefined();
    expect(new KeyValueStore(reopened, "other").read("chat:1")).toEqual({ step: 9 });
    expect(schemaVersion(reopened)).toBe(migrations.length);
    expect(reopened.pragma("journal_mode", { simple: true })).toBe("wal");
    reopened.close();
  });
});
