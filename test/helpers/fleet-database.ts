/**
 * One database for a fleet of bot processes (test/purchases/fleet-schedules.test.ts), on either
 * store: each process opens its own Storage on it (on SQLite its own connection to the one
 * file, on PostgreSQL its own pool), as two bots on one machine or two replicas would. It can
 * be backed up while they run and restored once they have stopped, with the restore's own step
 * (`markRestored`, what `npm run restore` runs after putting a SQLite backup in place and
 * `npm run restore -- --after-pg-restore` runs after pg_restore).
 *
 * Only opening and copying the database are per store; everything else goes through Storage.
 */
import { copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { RestoreMarks } from "../../src/ledger/types.js";
import { openPostgresStorage } from "../../src/storage/postgres/open.js";
import { openSqliteStorage } from "../../src/storage/sqlite/open.js";
import type { Storage } from "../../src/storage/types.js";
import { freshMigratedPostgresDatabase } from "./postgres.js";
import { onPostgres } from "./store-sql.js";
import { tempDir } from "./temp-dir.js";

export type StoreName = "sqlite" | "postgres";

/** A backup of the whole database, as taken at one moment. */
export interface FleetBackup {
  /** When it was taken, as `npm run restore` reports it (the file's time). */
  takenAt: string;
  /** Puts it back in place of the database (every process must have stopped). */
  putBack(): Promise<void>;
}

export interface FleetDatabase {
  store: StoreName;
  /** A new connection (SQLite) or pool (PostgreSQL) to the database: one process's storage. */
  open(): Promise<Storage>;
  /** A consistent copy of the database now, while processes go on using it. */
  backup(): Promise<FleetBackup>;
}

/** A fresh database of `store`, removed when the test finishes. */
export async function freshFleetDatabase(store: StoreName): Promise<FleetDatabase> {
  return store === "sqlite" ? sqliteDatabase() : postgresDatabase();
}

/**
 * Restores `backup` as an operator does once every bot has stopped: the database put back,
 * then the restore's step on it (purchases in flight or waiting made unknown, open summaries
 * expired, the sender lease cleared). Resolves with what the step marked.
 */
export async function restoreFleetDatabase(
  database: FleetDatabase,
  backup: FleetBackup,
): Promise<RestoreMarks> {
  await backup.putBack();
  const storage = await database.open();
  try {
    return await storage.openLedger({}).markRestored(backup.takenAt);
  } finally {
    await storage.close();
  }
}

function sqliteDatabase(): FleetDatabase {
  const dir = tempDir("giftbot-fleet-");
  const path = join(dir, "bot.sqlite");
  let backups = 0;
  const database: FleetDatabase = {
    store: "sqlite",
    open: () => openSqliteStorage(path),
    backup: async () => {
      // The bot's own online backup (what /backup and the schedule take), through a connection
      // of its own while the processes go on writing.
      const storage = await database.open();
      let file: string;
      let at: number;
      try {
        const backup = storage.backup;
        if (backup === undefined) throw new Error("a SQLite storage takes backups");
        ({ path: file, at } = await backup(join(dir, `backups-${++backups}`), {
          keep: 1,
          now: Date.now(),
        }));
      } finally {
        await storage.close();
      }
      return {
        takenAt: new Date(at).toISOString(),
        putBack: () => {
          // As npm run restore: the file and its WAL replaced (an old WAL must not be replayed
          // onto the restored file).
          for (const suffix of ["-wal", "-shm"]) rmSync(path + suffix, { force: true });
          copyFileSync(file, path);
          return Promise.resolve();
        },
      };
    },
  };
  return database;
}

/**
 * PostgreSQL has no pg_dump here (the tests' server comes from npm without its client tools),
 * so a backup is what pg_dump takes: every table's rows in one REPEATABLE READ snapshot, here
 * copied into a schema of its own on the same database; putting it back empties every table
 * and copies the rows back, identities moved past the highest restored value.
 */
async function postgresDatabase(): Promise<FleetDatabase> {
  const url = await freshMigratedPostgresDatabase();
  let backups = 0;
  return {
    store: "postgres",
    open: () => openPostgresStorage(url, { maxConnections: 4 }),
    backup: async () => {
      const schema = `fleet_backup_${++backups}`;
      const takenAt = new Date().toISOString();
      await onPostgres(url, async (client) => {
        await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ");
        await client.query(`CREATE SCHEMA ${schema}`);
        for (const table of await tablesOf(client)) {
          await client.query(`CREATE TABLE ${schema}.${table} AS SELECT * FROM public.${table}`);
        }
        await client.query("COMMIT");
      });
      return {
        takenAt,
        putBack: () =>
          onPostgres(url, async (client) => {
            const tables = await parentsFirst(client, await tablesOf(client));
            await client.query("BEGIN");
            await client.query(`TRUNCATE ${tables.map((t) => `public.${t}`).join(", ")}`);
            for (const table of tables) await copyBack(client, schema, table);
            await client.query("COMMIT");
          }),
      };
    },
  };
}

type PgClient = Parameters<Parameters<typeof onPostgres>[1]>[0];

async function tablesOf(client: PgClient): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  return rows.map((row) => row.name);
}

/** `tables` with every table after the tables its foreign keys refer to. */
async function parentsFirst(client: PgClient, tables: readonly string[]): Promise<string[]> {
  const { rows } = await client.query<{ child: string; parent: string }>(
    `SELECT c.relname AS child, p.relname AS parent FROM pg_constraint k
     JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
     WHERE k.contype = 'f' AND k.connamespace = 'public'::regnamespace`,
  );
  const sorted: string[] = [];
  const visit = (table: string): void => {
    if (sorted.includes(table)) return;
    for (const { parent } of rows.filter((row) => row.child === table && row.parent !== table)) {
      visit(parent);
    }
    sorted.push(table);
  };
  for (const table of tables) visit(table);
  return sorted;
}

/** One table's rows back from the backup's schema, its identity moved past them. */
async function copyBack(client: PgClient, schema: string, table: string): Promise<void> {
  const { rows } = await client.query<{ name: string; identity: string }>(
    `SELECT column_name AS name, is_identity AS identity FROM information_schema.columns
     WHERE table_schema = 'public' AND table_name = $1 AND is_generated = 'NEVER'
     ORDER BY ordinal_position`,
    [table],
  );
  const columns = rows.map((row) => `"${row.name}"`).join(", ");
  await client.query(
    `INSERT INTO public.${table} (${columns}) OVERRIDING SYSTEM VALUE
     SELECT ${columns} FROM ${schema}.${table}`,
  );
  for (const { name } of rows.filter((row) => row.identity === "YES")) {
    await client.query(
      `SELECT setval(pg_get_serial_sequence('public.${table}', '${name}'),
                     COALESCE((SELECT MAX("${name}") FROM public.${table}), 0) + 1, false)`,
    );
  }
}
