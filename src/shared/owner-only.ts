/**
 * The database, its -wal and -shm, its lock file and its backups hold people's ids, names and
 * what they bought: readable by their owner only (0600), in folders the bot makes 0700. SQLite
 * makes a database's -wal and -shm with the database file's own mode, so creating the file
 * owner-only before SQLite opens it keeps them owner-only too; a file an older bot left
 * readable by everyone is made owner-only when opened.
 */
import { chmodSync, closeSync, mkdirSync, openSync } from "node:fs";

/** Makes the folder `dir` (and any folder above it that is missing) 0700, when missing. */
export function ensureOwnerOnlyFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** Creates `path` empty and owner-only when missing, or makes it owner-only when it is there. */
export function createOwnerOnly(path: string): void {
  closeSync(openSync(path, "a", 0o600));
  makeOwnerOnly([path]);
}

/**
 * Makes each of `paths` that exists owner-only. One that is missing, or that belongs to another
 * user (who alone may change its mode), is left as it is: its owner decided.
 */
export function makeOwnerOnly(paths: readonly string[]): void {
  for (const path of paths) {
    try {
      chmodSync(path, 0o600);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "EPERM") throw error;
    }
  }
}
