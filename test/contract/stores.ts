/**
 * The stores the contract suite runs against: the SQLite file (the embedded default) and
 * PostgreSQL (several replicas). Each opens two independent storages on one database, as two
 * processes (or two replicas) would, so what one writes the other must see, and what one
 * holds the other must be refused. Tests `await` every answer: SQLite answers at once,
 * PostgreSQL with promises, and one test serves both.
 */
import { join } from "node:path";
import { onTestFinished } from "vitest";
import type { PurchaseLedger } from "../../src/ledger/types.js";
import { openPostgresStorage } from "../../src/storage/postgres/storage.js";
import { openSqliteStorage } from "../../src/storage/sqlite/storage.js";
import type { Storage } from "../../src/storage/types.js";
import { NOON } from "../helpers/ledger.js";
import { openDatabase } from "../../src/storage/sqlite/database.js";
import { freshMigratedPostgresDatabase } from "../helpers/postgres.js";
import { onPostgres } from "../helpers/store-sql.js";
import { tempDir } from "../helpers/temp-dir.js";

export interface StoreUnderTest {
  name: "sqlite" | "postgres";
  /** Two storages on one fresh database (two connections, as two processes). */
  openTwo(): Promise<[Storage, Storage]>;
  /**
   * As {@link openTwo}, with `sql` to run a statement of the test's own on that database
   * (what no code path writes: a lease aged past its expiry).
   */
  openTwoWithSql(): Promise<{
    storages: [Storage, Storage];
    sql: (statement: string) => Promise<void>;
  }>;
}

/** Closed when the test finishes (before its database or folder is removed). */
function closedAtEnd(storage: Storage): Storage {
  onTestFinished(async () => {
    await storage.close();
  });
  return storage;
}

/** The two stores' `openTwoWithSql`; `openTwo` is the same without the SQL. */
const OPENERS: Record<StoreUnderTest["name"], StoreUnderTest["openTwoWithSql"]> = {
  sqlite: () => {
    const path = join(tempDir(), "bot.sqlite");
    const storages: [Storage, Storage] = [
      closedAtEnd(openSqliteStorage(path)),
      closedAtEnd(openSqliteStorage(path)),
    ];
    return Promise.resolve({
      storages,
      sql: (statement) => {
        const db = openDatabase(path);
        try {
          db.exec(statement);
        } finally {
          db.close();
        }
        return Promise.resolve();
      },
    });
  },
  postgres: async () => {
    const url = await freshMigratedPostgresDatabase();
    const one = closedAtEnd(await openPostgresStorage(url, { maxConnections: 4 }));
    const storages: [Storage, Storage] = [
      one,
      closedAtEnd(await openPostgresStorage(url, { maxConnections: 4 })),
    ];
    return {
      storages,
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
}

export async function openLedgers(
  store: StoreUnderTest,
  settings: Omit<Parameters<Storage["openLedger"]>[0], "clock"> = {},
): Promise<LedgerPair> {
  const storages = await store.openTwo();
  const clock = { now: NOON };
  const [a, b] = storages.map((storage) =>
    storage.openLedger({ ...settings, clock: () => clock.now }),
  ) as [PurchaseLedger, PurchaseLedger];
  return { a, b, storages, clock };
}
