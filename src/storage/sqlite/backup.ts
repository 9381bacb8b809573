/**
 * Online backups of the SQLite file while the bot runs. better-sqlite3's backup API copies the
 * database page by page through SQLite itself, consistent however the live connection writes
 * meanwhile (a file copy of a live WAL database is not: the WAL holds the recent commits). Each
 * copy is written under a temporary name, checked (`PRAGMA integrity_check`, and that it is a
 * giftbot database this build can read), readable by its owner only from its first byte (it
 * holds people's ids and names), and only then renamed into place; older backups are removed
 * only after that, keeping the newest `keep`.
 *
 * A backup is one self-contained file: the copy of a WAL database is itself in WAL mode, and
 * any connection that opens it read-only (the check, a restore's check) leaves a -wal and a
 * -shm beside it that it cannot remove. The copy is switched to a rollback journal before it
 * is checked; the bot switches the restored file back to WAL when it opens it.
 */
import { existsSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { latestVersion } from "../migrations.js";
import type { Db } from "./driver.js";
import { createOwnerOnly, ensureOwnerOnlyFolder } from "../../shared/owner-only.js";
import type { BackupResult } from "../types.js";

/** Backup files are named so that their names sort by time. */
const PREFIX = "giftbot-";
const SUFFIX = ".sqlite";

/**
 * Why a file cannot serve as a backup, or undefined when it can. Leaves nothing beside it: a
 * -wal or -shm a read-only look at a WAL file makes is removed (a backup is nobody's live file).
 */
export function backupProblem(path: string): string | undefined {
  const leftovers = [`${path}-wal`, `${path}-shm`].filter((file) => !existsSync(file));
  try {
    return readProblem(path);
  } finally {
    for (const file of leftovers) rmSync(file, { force: true });
  }
}

function readProblem(path: string): string | undefined {
  let db: Db | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    const check = (db.pragma("integrity_check") as { integrity_check: string }[])
      .map((row) => row.integrity_check)
      .filter((line) => line !== "ok");
    if (check.length > 0) return `integrity_check: ${check.slice(0, 3).join("; ")}`;
    const version = db.pragma("user_version", { simple: true }) as number;
    if (version > latestVersion("sqlite")) {
      return `schema version ${version} is newer than this bot knows (${latestVersion("sqlite")})`;
    }
    const tables = db
      .prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .pluck()
      .all();
    if (!tables.includes("purchase_intents")) return "not a giftbot database";
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    db?.close();
  }
}

/** The file name of a backup taken at `at`: `giftbot-20261125T013000Z.sqlite`. */
function backupName(at: number): string {
  const stamp = new Date(at)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `${PREFIX}${stamp}${SUFFIX}`;
}

/** The backups in `dir`, oldest first. */
export function listBackups(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.startsWith(PREFIX) && name.endsWith(SUFFIX))
    .sort()
    .map((name) => join(dir, name));
}

/**
 * Takes one backup of `db` into `dir` and keeps the newest `keep`. Throws (and removes its
 * temporary file) when the copy cannot be written or does not check out; older backups are
 * then left as they are.
 */
export async function backupDatabase(
  db: Db,
  dir: string,
  options: { keep: number; now: number },
): Promise<BackupResult> {
  ensureOwnerOnlyFolder(dir);
  const path = join(dir, backupName(options.now));
  const temporary = `${path}.partial`;
  try {
    removeWithCompanions(temporary);
    createOwnerOnly(temporary);
    await db.backup(temporary);
    useRollbackJournal(temporary);
    const problem = backupProblem(temporary);
    if (problem !== undefined) throw new Error(`the backup does not check out: ${problem}`);
    renameSync(temporary, path);
  } catch (error) {
    removeWithCompanions(temporary);
    throw error;
  }
  for (const old of listBackups(dir).slice(0, -Math.max(1, options.keep))) {
    rmSync(old, { force: true });
  }
  removeLeftovers(dir);
  return { path, bytes: statSync(path).size, at: options.now };
}

/** Switches the copy at `path` to a rollback journal: one file, nothing made beside it. */
function useRollbackJournal(path: string): void {
  const copy = new Database(path, { fileMustExist: true });
  try {
    copy.pragma("journal_mode = DELETE");
  } finally {
    copy.close();
  }
}

/** Removes `path` and anything SQLite may have left beside it. */
function removeWithCompanions(path: string): void {
  for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(path + suffix, { force: true });
}

/**
 * Removes what earlier backups left in `dir` (a temporary copy of a backup that was cut short,
 * the -wal and -shm an older bot's check left beside each backup). Only this process backs up
 * into `dir` (the sender lease's holder, one backup at a time), so none of these is in use.
 */
function removeLeftovers(dir: string): void {
  for (const name of readdirSync(dir)) {
    if (LEFTOVER.test(name)) rmSync(join(dir, name), { force: true });
  }
}

/** `giftbot-<time>.sqlite` followed by `.partial`, `-wal`, `-shm` or `-journal` (or both). */
const LEFTOVER =
  /^giftbot-\d{8}T\d{6}Z\.sqlite(?:\.partial(?:-wal|-shm|-journal)?|-wal|-shm|-journal)$/;
