/**
 * The one SQLite file the bot keeps: the purchase ledger, conversation state, settings.
 *
 * WAL lets readers go on while a purchase claim writes; `busy_timeout` makes a second
 * connection wait for the write lock instead of failing, which is what several processes
 * (or a test with several connections) confirming at once need.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { migrations } from "./migrations.js";

export type Db = Database.Database;

/** Opens (creating it and its folder if needed) and migrates the database at `path`. */
export function openDatabase(path: string): Db {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  db.pragma("synchronous = NORMAL");
  migrate(db);
  return db;
}

/**
 * Applies every migration newer than the file's `user_version`, each in its own transaction.
 * A database written by an older version is carried forward, never dropped.
 */
export function migrate(db: Db, upTo: number = migrations.length): void {
  const current = db.pragma("user_version", { simple: true }) as number;
  if (current > migrations.length) {
    throw new Error(
      `The database schema is version ${current}, newer than this bot knows (${migrations.length}).`,
    );
  }
  for (let version = current + 1; version <= upTo; version++) {
    const migration = migrations[version - 1];
    if (!migration) break;
    db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${version}`);
    }).immediate();
  }
}

/** The schema version of an open database. */
export function schemaVersion(db: Db): number {
  return db.pragma("user_version", { simple: true }) as number;
}
