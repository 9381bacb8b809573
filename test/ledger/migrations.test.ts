import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { Ledger } from "../../src/ledger/ledger.js";
import { migrate, openDatabase, schemaVersion } from "../../src/storage/database.js";
import { KeyValueStore } from "../../src/storage/key-value-store.js";
import { migrations } from "../../src/storage/migrations.js";
import { tempDir } from "../helpers/temp-dir.js";
import { starsDraft } from "./helpers.js";

function tables(db: Database.Database): string[] {
  return db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .all()
    .map((r) => r.name);
}

describe("ledger migration (version 2)", () => {
  it("creates the ledger tables on an empty file", () => {
    const db = openDatabase(join(tempDir(), "empty.sqlite"));
    expect(schemaVersion(db)).toBe(migrations.length);
    expect(migrations.length).toBeGreaterThanOrEqual(2);
    expect(tables(db)).toEqual(
      expect.arrayContaining([
        "kv",
        "ledger_settings",
        "purchase_intent_events",
        "purchase_intents",
      ]),
    );
    db.close();
  });

  it("carries a version-1 file with data forward, keeping its rows", () => {
    const path = join(tempDir(), "v1.sqlite");
    const old = new Database(path);
    old.pragma("journal_mode = WAL");
    migrate(old, 1);
    expect(schemaVersion(old)).toBe(1);
    new KeyValueStore<{ step: number }>(old, "conversations").write("chat:7", { step: 3 });
    expect(tables(old)).toEqual(["kv"]);
    old.close();

    const db = openDatabase(path);
    expect(schemaVersion(db)).toBe(migrations.length);
    expect(new KeyValueStore(db, "conversations").read("chat:7")).toEqual({ step: 3 });
    const ledger = new Ledger(db);
    const intent = ledger.createDraft(starsDraft());
    expect(ledger.claim(intent.id, 1).ok).toBe(true);
    db.close();
  });

  it("keeps the database's constraints: unknown statuses and kinds cannot be written", () => {
    const db = openDatabase(join(tempDir(), "c.sqlite"));
    const ledger = new Ledger(db);
    const intent = ledger.createDraft(starsDraft());
    expect(() =>
      db.prepare("UPDATE purchase_intents SET status = 'resent' WHERE id = ?").run(intent.id),
    ).toThrow(/CHECK/);
    db.close();
  });
});
