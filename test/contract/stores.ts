/**
 * The stores the contract suite runs against: the SQLite file (the embedded default) and
 * PostgreSQL (several replicas). Each opens two independent handles on one database, as two
 * processes (or two replicas) would, so what one writes the other must see, and what one
 * holds the other must be refused. Tests `await` every answer: SQLite answers at once,
 * PostgreSQL with promises, and one test serves both.
 */
import { join } from "node:path";
import type pg from "pg";
import { onTestFinished } from "vitest";
import type { SenderLease } from "../../src/ledger/types.js";
import { PostgresAccessStore } from "../../src/storage/postgres/access-store.js";
import { openPool } from "../../src/storage/postgres/connection.js";
import { PostgresKeyValueStore } from "../../src/storage/postgres/key-value-store.js";
import { migratePostgres } from "../../src/storage/postgres/migrations.js";
import { PostgresSenderLease } from "../../src/storage/postgres/sender-lease.js";
import { SqliteAccessStore } from "../../src/storage/sqlite/access-store.js";
import { openDatabase } from "../../src/storage/sqlite/database.js";
import { KeyValueStore } from "../../src/storage/sqlite/key-value-store.js";
import { SqliteSenderLease } from "../../src/storage/sqlite/sender-lease.js";
import type { AccessStore, KeyValueStores } from "../../src/storage/types.js";
import { freshPostgresDatabase } from "../helpers/postgres.js";
import { tempDir } from "../helpers/temp-dir.js";

/** One process's view of the store. */
interface StoreHandle {
  keyValues: KeyValueStores;
  access: AccessStore;
  senderLease: SenderLease;
}

export interface StoreUnderTest {
  name: "sqlite" | "postgres";
  /** Two handles on one fresh database (two connections, as two processes). */
  openTwo(): Promise<[StoreHandle, StoreHandle]>;
}

function sqliteHandle(path: string): StoreHandle {
  const db = openDatabase(path);
  onTestFinished(() => {
    db.close();
  });
  return {
    keyValues: <T>(namespace: string) => new KeyValueStore<T>(db, namespace),
    access: new SqliteAccessStore(db),
    senderLease: new SqliteSenderLease(db),
  };
}

async function postgresHandle(url: string): Promise<StoreHandle> {
  const pool: pg.Pool = openPool(url, { max: 4 });
  onTestFinished(() => pool.end());
  await migratePostgres(pool);
  return {
    keyValues: <T>(namespace: string) => new PostgresKeyValueStore<T>(pool, namespace),
    access: new PostgresAccessStore(pool),
    senderLease: new PostgresSenderLease(pool),
  };
}

export const STORES: readonly StoreUnderTest[] = [
  {
    name: "sqlite",
    openTwo: () => {
      const path = join(tempDir(), "bot.sqlite");
      return Promise.resolve([sqliteHandle(path), sqliteHandle(path)]);
    },
  },
  {
    name: "postgres",
    openTwo: async () => {
      const url = await freshPostgresDatabase();
      return [await postgresHandle(url), await postgresHandle(url)];
    },
  },
];
