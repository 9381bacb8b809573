/**
 * `npm run restore -- <backup file> [--database <path>]`: puts a SQLite backup in place of the
 * bot's database. The database is `--database`, else DATABASE_PATH, else ./data/giftbot.sqlite
 * (the bot's default). Refuses while a bot has the database open (it holds the lock file
 * beside it, src/storage/sqlite/file-lock.ts, whether or not it holds the sender lease yet) or
 * a live bot holds its sender lease; holds the lock itself until it is done, so no bot opens the
 * file meanwhile. Checks the backup, keeps the current database aside (renamed with the time,
 * its -wal and -shm files too), copies the backup in, and marks what the backup shows unsent
 * (src/ledger/restore.ts): purchases in flight or waiting become unknown, for an admin to settle
 * (never sent again); open summaries expire; giveaways not over stop for good; the admins are
 * told at the bot's next start.
 *
 * `npm run restore -- --after-pg-restore` (DATABASE_URL set): the same marks on a PostgreSQL
 * database just restored with pg_restore; refused while a live bot holds the sender lease there.
 *
 * With DATABASE_URL set and no --database, a backup file is refused: PostgreSQL is restored
 * with its own tools. Prints what it did. Exit codes: 0 restored, 1 the database could not be
 * reached, 2 bad use or a bad backup, 5 a bot holds the database.
 */
import { chmodSync, copyFileSync, existsSync, renameSync, statSync } from "node:fs";
import { resolve } from "node:path";
import Database from "better-sqlite3";
import type { RestoreMarks } from "./ledger/types.js";
import type { LeaseHolder } from "./ledger/types.js";
import { isDeadHereOwner } from "./run/lease-owner.js";
import { describeDatabaseUrl } from "./shared/database-url.js";
import { openLedger } from "./storage/ledger/ledger.js";
import { openPostgresStorage } from "./storage/postgres/open.js";
import { StoredSenderLease } from "./storage/sender-lease.js";
import { backupProblem } from "./storage/sqlite/backup.js";
import { SqliteDatabase } from "./storage/sqlite/driver.js";
import { tryExclusive } from "./storage/sqlite/file-lock.js";
import { openDatabase } from "./storage/sqlite/open.js";

const USAGE =
  "usage: npm run restore -- <backup file> [--database <path>]\n   or: npm run restore -- --after-pg-restore   (with DATABASE_URL set)";

function fail(code: number, message: string): never {
  process.stderr.write(`restore: ${message}\n`);
  process.exit(code);
}

type Command =
  { kind: "sqlite"; backup: string; database: string } | { kind: "after-pg-restore"; url: string };

function parseArgs(argv: string[], env: NodeJS.ProcessEnv): Command {
  if (argv.includes("--after-pg-restore")) {
    if (argv.length > 1) fail(2, `--after-pg-restore takes no other argument\n${USAGE}`);
    const url = env.DATABASE_URL;
    if (url === undefined || url.trim() === "") {
      fail(2, "--after-pg-restore needs DATABASE_URL: the PostgreSQL database just restored");
    }
    return { kind: "after-pg-restore", url };
  }
  refuseWhenPostgres(argv, env);
  let backup: string | undefined;
  let database = env.DATABASE_PATH ?? "./data/giftbot.sqlite";
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--database") database = argv[++i] ?? fail(2, "--database needs a path");
    else if (arg !== undefined && !arg.startsWith("--") && backup === undefined) backup = arg;
    else fail(2, `unexpected argument ${String(arg)}\n${USAGE}`);
  }
  if (backup === undefined) fail(2, USAGE);
  return { kind: "sqlite", backup: resolve(backup), database: resolve(database) };
}

/**
 * With DATABASE_URL set the bot keeps nothing in SQLite: a restore into the default file would
 * look done and change nothing the bot reads. Only an explicit --database still restores a file.
 */
function refuseWhenPostgres(argv: string[], env: NodeJS.ProcessEnv): void {
  if (env.DATABASE_URL === undefined || argv.includes("--database")) return;
  fail(
    2,
    "DATABASE_URL is set: this bot keeps its data in PostgreSQL; restore it with pg_restore (or your database service's own restore), then run npm run restore -- --after-pg-restore. To restore a SQLite backup into a file anyway, name it with --database.",
  );
}

/** Who holds the sender lease, when a live bot does (a holder gone from this host does not). */
function liveHolder(holder: LeaseHolder | undefined): string | undefined {
  if (holder === undefined || isDeadHereOwner(holder.owner)) return undefined;
  return `${holder.owner}, until ${new Date(holder.expiresAt).toISOString()}`;
}

/** The holder of the current SQLite database's sender lease, when a live bot holds it. */
async function sqliteLeaseHolder(database: string): Promise<string | undefined> {
  if (!existsSync(database)) return undefined;
  const db = new Database(database, { fileMustExist: true });
  try {
    const hasLease = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sender_lease'")
      .get();
    if (hasLease === undefined) return undefined;
    return liveHolder(await new StoredSenderLease(new SqliteDatabase(db)).holder());
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

/** `20261125T013000Z` */
function timeStamp(at: number): string {
  return new Date(at)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
}

/** What the marks changed, one line each. */
function markLines(marks: RestoreMarks): string[] {
  const { unknown, notice } = marks;
  const batches = notice.stoppedBatches;
  return [
    unknown.length === 0
      ? "no purchase was in flight or waiting in the backup"
      : `${unknown.length} purchase(s) in flight or waiting in the backup are now unknown, for an admin to settle with /pending (never sent again): ${unknown.map((intent) => intent.id).join(", ")}`,
    batches.length === 0
      ? "no giveaway was being sent in the backup"
      : `${batches.length} giveaway(s) stopped for good, restored from a backup (an admin starts a new giveaway to send them): ${batches.map((batch) => `${batch.id} (${batch.unsent} recipient(s) not sent)`).join(", ")}`,
    `${notice.expiredSummaries} open purchase summary(ies) expired (their people start again)`,
    "the admins are told at the bot's next start",
  ];
}

async function restoreSqlite(backup: string, database: string): Promise<void> {
  if (!existsSync(backup)) fail(2, `no such file: ${backup}`);
  const problem = backupProblem(backup);
  if (problem !== undefined) fail(2, `${backup} cannot be restored: ${problem}`);
  // Held until the process ends: no bot opens the file while it is being replaced.
  const lock = tryExclusive(database);
  if (lock === undefined) {
    fail(5, `a bot holds ${database} (it has the file open): stop it first, then restore`);
  }
  const holder = await sqliteLeaseHolder(database);
  if (holder !== undefined) {
    fail(5, `a bot holds ${database} (${holder}): stop it first, then restore`);
  }
  const now = Date.now();
  const aside = moveAside(database, timeStamp(now));
  copyFileSync(backup, database);
  chmodSync(database, 0o600);
  const db = openDatabase(database);
  try {
    const takenAt = new Date(statSync(backup).mtimeMs).toISOString();
    // Opened without the lock file's shared hold: this process holds it exclusively.
    const marks = await openLedger(new SqliteDatabase(db)).markRestored(takenAt, now);
    const lines = [
      `restored ${backup} into ${database}`,
      aside === undefined
        ? "there was no database before"
        : `the database before is kept as ${aside}`,
      ...markLines(marks),
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  } finally {
    db.close();
    lock.release();
  }
}

async function afterPgRestore(url: string): Promise<void> {
  const where = describeDatabaseUrl(url);
  const storage = await openPostgresStorage(url, { maxConnections: 2 }).catch((error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error);
    return fail(1, `the PostgreSQL database at ${where} cannot be reached or migrated (${reason})`);
  });
  try {
    const holder = liveHolder(await storage.senderLease.holder());
    if (holder !== undefined) {
      fail(5, `a bot holds ${where} (${holder}): stop every bot first, then run this again`);
    }
    const marks = await storage.openLedger({}).markRestored(undefined);
    const lines = [`marked ${where} as restored from a backup`, ...markLines(marks)];
    process.stdout.write(`${lines.join("\n")}\n`);
  } finally {
    await storage.close();
  }
}

async function main(): Promise<void> {
  const command = parseArgs(process.argv.slice(2), process.env);
  if (command.kind === "sqlite") await restoreSqlite(command.backup, command.database);
  else await afterPgRestore(command.url);
}

main().catch((error: unknown) => {
  fail(1, error instanceof Error ? `${error.name}: ${error.message}` : String(error));
});
