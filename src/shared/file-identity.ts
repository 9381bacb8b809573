/**
 * Which file a path names, by device and inode: a file moved aside and another put in its place
 * (a restore under a running bot) has the same path but another identity.
 */
import { statSync } from "node:fs";

/** Which file `path` names now, or undefined when none does (or for SQLite's `:memory:`). */
export function fileIdentity(path: string): string | undefined {
  if (path === ":memory:") return undefined;
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat === undefined ? undefined : `${stat.dev}:${stat.ino}`;
}

/** How the file at `path` is no longer the one opened (`opened`), or undefined when it still is. */
export function fileChange(path: string, opened: string | undefined): string | undefined {
  if (opened === undefined) return undefined;
  const now = fileIdentity(path);
  if (now === opened) return undefined;
  return now === undefined ? `${path} was removed` : `${path} was replaced by another file`;
}
