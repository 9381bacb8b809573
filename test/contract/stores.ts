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
import { freshMigratedPostgresDatabase } from "../helpers/postgres.js";
import { tempDir } from "../helpers/temp-dir.js";

export interface StoreUnderTest {
  name: "sqlite" | "postgres";
  /** Two storages on one fresh database (two connections, as two processes). */
  openTwo(): Promise<[Storage, Storage]>;
}

/** Closed when the test finishes (before its database or folder is removed). */
function closedAtEnd(storage: Storage): Storage {
  onTestFinished(async () => {
    await storage.close();
  });
  return storage;
}

export const STORES: readonly StoreUnderTest[] = [
  {
    name: "sqlite",
    openTwo: () => {
      const path = join(tempDir(), "bot.sqlite");
      return Promise.resolve([
        closedAtEnd(openSqliteStorage(path)),
        closedAtEnd(openSqliteStorage(path)),
      ]);
    },
  },
  {
    name: "postgres",
    openTwo: async () => {
      const url = await freshMigratedPostgresDatabase();
      const one = closedAtEnd(await openPostgresStorage(url, { maxConnections: 4 }));
      return [one, closedAtEnd(await openPostgresStorage(url, { maxConnections: 4 }))];
    },
  },
];

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
