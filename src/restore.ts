/**
 * `npm run restore -- <backup file> [--database <path>]`: puts a backup in place of the bot's
 * database. The database is `--database`, else DATABASE_PATH, else ./data/giftbot.sqlite (the
 * bot's default). Refuses while a bot holds the database (its sender lease is held and not
 * expired, unless its process is gone from this host). Checks the backup, keeps the current
 * database aside (renamed with the time, its -wal and -shm files too), copies the backup in, and
 * marks every purchase the backup shows in flight or waiting as unknown, for an admin to settle
 * (never sent again). With DATABASE_URL set and no --database, refuses: PostgreSQL is restored
 * with its own tools. Prints what it did. Exit codes: 0 restored, 2 bad use or a bad backup,
 * 5 a bot holds the database.
 */
import { chmodSync, copyFileSync, existsSync, renameSync, statSync } from "node:fs";
import { resolve } from "node:path";
import Database from "better-sqlite3";
import { Ledger } from "./storage/sqlite/ledger.js";
import { SqliteSenderLease } from "./storage/sqlite/sender-lease.js";
import { isDeadHereOwner } from "./run/lease-keeper.js";
import { backupProblem } from "./storage/sqlite/backup.js";
import { openDatabase } from "./storage/sqlite/database.js";
import { tryExclusive } from "./storage/sqlite/file-lock.js";

function fail(code: number, message: string): never {
  process.stderr.write(`restore: ${message}\n`);
  process.exit(code);
}

function parseArgs(argv: string[]): { backup: string; database: string } {
  let backup: string | undefined;
  let database = process.env.DATABASE_PATH ?? "./data/giftbot.sqlite";
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--database") database = argv[++i] ?? fail(2, "--database needs a path");
    else if (arg !== undefined && !arg.startsWith("--") && backup === undefined) backup = arg;
    else fail(2, `unexpected argument ${String(arg)}`);
  }
  if (backup === undefined) fail(2, "usage: npm run restore -- <backup file> [--database <path>]");
  return { backup: resolve(backup), database: resolve(database) };
}

/** The holder of the current database's sender lease, when a live bot holds it. */
function liveHolder(database: string): string | undefined {
  if (!existsSync(database)) return undefined;
  const db = new Database(database, { fileMustExist: true });
  try {
    const hasLease = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sender_lease'")
      .get();
    if (hasLease === undefined) return undefined;
    const holder = new SqliteSenderLease(db).holder(Date.now());
    if (holder === undefined || isDeadHereOwner(holder.owner)) return undefined;
    return `${holder.owner}, until ${new Date(holder.expiresAt).toISOString()}`;
  } finally {
    db.close();
  }
}

function moveAside(database: string, stamp: string): string | undefined {
  if (!existsSync(database)) return undefined;
  const aside = `${database}.before-restore-${stamp}`;
  for (const suffix of ["", "-wal", "-shm"]) {
    if (existsSync(database + suffix)) renameSync(database + suffix, aside + suffix);
  }
  return aside;
}

/**
 * With DATABASE_URL set the bot keeps nothing in SQLite: a restore into the default file would
 * look done and change nothing the bot reads. Only an explicit --database still restores a file.
 */
function refuseWhenPostgres(argv: string[]): void {
  if (process.env.DATABASE_URL === undefined || argv.includes("--database")) return;
  fail(
    2,
    "DATABASE_URL is set: this bot keeps its data in PostgreSQL; restore it with pg_restore (or your database service's own restore). To restore a SQLite backup into a file anyway, name it with --database.",
  );
}

function main(): void {
  refuseWhenPostgres(process.argv.slice(2));
  const { backup, database } = parseArgs(process.argv.slice(2));
  if (!existsSync(backup)) fail(2, `no such file: ${backup}`);
  const problem = backupProblem(backup);
  if (problem !== undefined) fail(2, `${backup} cannot be restored: ${problem}`);
  // Held until the process ends: no bot opens the file while it is being replaced.
  const lock = tryExclusive(database);
  if (lock === undefined) {
    fail(5, `a bot holds ${database} (it has the file open): stop it first, then restore`);
  }
  const holder = liveHolder(database);
  if (holder !== undefined) {
    fail(5, `a bot holds ${database} (${holder}): stop it first, then restore`);
  }
  const now = Date.now();
  const stamp = new Date(now)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  const aside = moveAside(database, stamp);
  copyFileSync(backup, database);
  chmodSync(database, 0o600);
  const db = openDatabase(database);
  try {
    const takenAt = new Date(statSync(backup).mtimeMs).toISOString();
    const unknown = new Ledger(db).markRestored(takenAt, now);
    const lines = [
      `restored ${backup} into ${database}`,
      aside === undefined
        ? "there was no database before"
        : `the database before is kept as ${aside}`,
      unknown.length === 0
        ? "no purchase was in flight or waiting in the backup"
        : `${unknown.length} purchase(s) in flight or waiting in the backup are now unknown, for an admin to settle with /pending (never sent again): ${unknown.map((intent) => intent.id).join(", ")}`,
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  } finally {
    db.close();
  }
}

main();
