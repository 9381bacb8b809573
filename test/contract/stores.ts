/**
 * The stores the ledger's suite runs against: the SQLite file (the embedded default) and
 * PostgreSQL (several replicas). Each opens two independent storages on one database, as two
 * processes (or two replicas) would, so what one writes the other must see, and what one
 * holds the other must be refused.
 */
import { join } from "node:path";
import { onTestFinished } from "vitest";
import type { PurchaseLedger } from "../../src/ledger/types.js";
import { openPostgresStorage } from "../../src/storage/postgres/open.js";
import { openDatabase, openSqliteStorage } from "../../src/storage/sqlite/open.js";
import type { Storage } from "../../src/storage/types.js";
import { NOON } from "../helpers/ledger.js";
import { freshMigratedPostgresDatabase } from "../helpers/postgres.js";
import { onPostgres } from "../helpers/store-sql.js";
import { tempDir } from "../helpers/temp-dir.js";

/** Two storages on one fresh database, and SQL of the test's own on it (no parameters). */
interface OpenedTwo {
  storages: [Storage, Storage];
  /** What no code path writes: rows as an older version left them, a lease aged past expiry. */
  sql: (statement: string) => Promise<void>;
}

export interface StoreUnderTest {
  name: "sqlite" | "postgres";
  /** Two storages on one fresh database (two connections, as two processes). */
  openTwo(): Promise<[Storage, Storage]>;
  /** As {@link openTwo}, with `sql` to run a statement of the test's own on that database. */
  openTwoWithSql(): Promise<OpenedTwo>;
}

/** Closed when the test finishes (before its database or folder is removed). */
function closedAtEnd(storage: Storage): Storage {
  onTestFinished(async () => {
    await storage.close();
  });
  return storage;
}

/** The two stores' `openTwoWithSql`; `openTwo` is the same without the SQL. */
const OPENERS: Record<StoreUnderTest["name"], () => Promise<OpenedTwo>> = {
  sqlite: async () => {
    const path = join(tempDir(), "bot.sqlite");
    const one = closedAtEnd(await openSqliteStorage(path));
    return {
      storages: [one, closedAtEnd(await openSqliteStorage(path))],
      sql: (statement) => {
        const db = openDatabase(path);
        try {
          db.exec(statement);
        } finally {
          db.close();
        }
        return Promise.resolve();
      },
    };
  },
  postgres: async () => {
    const url = await freshMigratedPostgresDatabase();
    const one = closedAtEnd(await openPostgresStorage(url, { maxConnections: 4 }));
    return {
      storages: [one, closedAtEnd(await openPostgresStorage(url, { maxConnections: 4 }))],
      sql: (statement) => onPostgres(url, async (client) => void (await client.query(statement))),
    };
  },
};

export const STORES: readonly StoreUnderTest[] = (["sqlite", "postgres"] as const).map((name) => ({
  name,
  openTwo: async () => (await OPENERS[name]()).storages,
  openTwoWithSql: OPENERS[name],
}));

/** Two ledgers on one fresh database of `store`, sharing a clock the test moves. */
export interface LedgerPair {
  a: PurchaseLedger;
  b: PurchaseLedger;
  storages: [Storage, Storage];
  clock: { now: number };
  /** SQL of the test's own on the database (rows as an older version left them). */
  sql: (statement: string) => Promise<void>;
}

export async function openLedgers(
  store: StoreUnderTest,
  settings: Omit<Parameters<Storage["openLedger"]>[0], "clock"> = {},
): Promise<LedgerPair> {
  const { storages, sql } = await store.openTwoWithSql();
  const clock = { now: NOON };
  const [a, b] = storages.map((storage) =>
    storage.openLedger({ ...settings, clock: () => clock.now }),
  ) as [PurchaseLedger, PurchaseLedger];
  return { a, b, storages, clock, sql };
}
