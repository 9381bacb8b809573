/**
 * Databases made by the bot before its stores were one (main at aece907: the fixtures and how
 * they were made are in test/ledger/fixtures/store-snapshot.ts) open under today's code with
 * every row as it was: the schema version goes on from where it was, nothing is migrated again,
 * everything reads back as that version read it, and the ledger goes on working on it.
 */
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { latestVersion } from "../../src/storage/migrations.js";
import { openPostgresStorage } from "../../src/storage/postgres/open.js";
import type { Db } from "../../src/storage/sqlite/driver.js";
import { openSqliteStorage, schemaVersion } from "../../src/storage/sqlite/open.js";
import type { Storage } from "../../src/storage/types.js";
import { freshPostgresDatabase } from "../helpers/postgres.js";
import { onPostgres } from "../helpers/store-sql.js";
import { tempDir } from "../helpers/temp-dir.js";
import { NOON, snapshotOf } from "../ledger/fixtures/store-snapshot.js";

const FIXTURES = new URL("../ledger/fixtures/", import.meta.url);
const expected = JSON.parse(readFileSync(new URL("main-store.json", FIXTURES), "utf8")) as Record<
  "sqlite" | "postgres",
  { batchId: string; snapshot: unknown; lease: unknown }
>;

/** The ledger goes on: the admin settles the unknown outcome and resumes; a draft is bought. */
async function goesOn(storage: Storage): Promise<void> {
  const ledger = storage.openLedger({ clock: () => NOON + 120_000 });
  const [unknown] = await ledger.unconfirmed();
  expect((await ledger.resolve(unknown!.id, 1, false)).unconfirmedLeft).toBe(0);
  await ledger.setPaused(false, 1);
  const [open] = await ledger.openDrafts(6, 6);
  expect(await ledger.claim(open!.id, 6)).toMatchObject({ ok: true });
}

describe("a SQLite file made before the stores were one", () => {
  it("opens at the same schema version with every row as it was, and goes on working", async () => {
    const path = join(tempDir(), "bot.sqlite");
    copyFileSync(new URL("main-store.sqlite", FIXTURES), path);
    let db: Db | undefined;
    const storage = await openSqliteStorage(path, (opened) => (db = opened));
    onTestFinished(() => storage.close());
    // Made at version 11; carried forward by 0012 (Premium through Telegram, #39).
    expect(schemaVersion(db!)).toBe(12);
    expect(latestVersion("sqlite")).toBe(12);
    const { batchId, snapshot, lease } = expected.sqlite;
    expect(await snapshotOf(storage, batchId)).toEqual(snapshot);
    // Held until 2030 by the database's clock as by that version's.
    expect(await storage.senderLease.holder()).toEqual(lease);
    await goesOn(storage);
  });
});

describe("a PostgreSQL database made before the stores were one", () => {
  it("opens with its migrations as they were, every row as it was, and goes on working", async () => {
    const url = await freshPostgresDatabase();
    const dump = readFileSync(new URL("main-store.postgres.sql", FIXTURES), "utf8");
    await onPostgres(url, async (client) => void (await client.query(dump)));
    const storage = await openPostgresStorage(url, { maxConnections: 2 });
    onTestFinished(() => storage.close());
    const versions = await onPostgres(url, async (client) => {
      const applied = await client.query<{ version: number }>(
        "SELECT version FROM schema_migrations ORDER BY version",
      );
      return applied.rows.map((row) => row.version);
    });
    // Its steps as they were, then 0012 (shared from 12 on: src/storage/migrations.ts).
    expect(versions).toEqual([1, 2, 3, 12]);
    const { batchId, snapshot, lease } = expected.postgres;
    expect(await snapshotOf(storage, batchId)).toEqual(snapshot);
    expect(await storage.senderLease.holder()).toEqual(lease);
    await goesOn(storage);
  });
});
