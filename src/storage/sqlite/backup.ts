/**
 * Online backups of the SQLite file while the bot runs. better-sqlite3's backup API copies the
 * database page by page through SQLite itself, consistent however the live connection writes
 * meanwhile (a file copy of a live WAL database is not: the WAL holds the recent commits). Each
 * copy is written under a temporary name, checked (`PRAGMA integrity_check`, and that it is a
 * giftbot database this build can read), made readable by its owner only (it holds people's
 * ids and names) and only then renamed into place; older backups are removed only after that,
 * keeping the newest `keep`.
 */
import { chmodSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { Db } from "./driver.js";
import { latestVersion } from "../migrations.js";
import type { BackupResult } from "../types.js";

/** Backup files are named so that their names sort by time. */
const PREFIX = "giftbot-";
const SUFFIX = ".sqlite";

/** Why a file cannot serve as a backup, or undefined when it can. */
export function backupProblem(path: string): string | undefined {
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
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, backupName(options.now));
  const temporary = `${path}.partial`;
  try {
    await db.backup(temporary);
    const problem = backupProblem(temporary);
    if (problem !== undefined) throw new Error(`the backup does not check out: ${problem}`);
    chmodSync(temporary, 0o600);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  for (const old of listBackups(dir).slice(0, -Math.max(1, options.keep))) {
    rmSync(old, { force: true });
  }
  return { path, bytes: statSync(path).size, at: options.now };
}
