/**
 * Notices when a `NAME_FILE` secret file changes, so a rotated cookie is taken on without a
 * signal. Secrets reach the bot in three ways, and one mechanism does not see them all:
 * - a new file renamed over the old one (most secret tools): a watch on the file itself would
 *   keep watching the old, unlinked inode, so the folder is watched (inotify on Linux);
 * - Kubernetes swaps a `..data` symlink in the same folder: the folder watch sees it too;
 * - compose's file secrets bind-mount the host's file onto `/run/secrets/NAME`: the operator
 *   overwrites the host file in place, the container's path keeps the same inode, and inotify
 *   reports that write to the host's folder only, never to the container's. So each file's
 *   status (through symlinks) is also read every `pollMs` (SECRET_POLL_SECONDS), which sees a
 *   change of content, size or inode however it was made.
 * Either asks for a reload (debounced). A reload that finds nothing changed does nothing, so a
 * spurious event costs one re-read of the settings.
 */
import { type FSWatcher, statSync, watch } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Logger } from "../shared/logger.js";
import { SECRET_VARIABLES } from "./schema.js";

export interface SecretFileWatch {
  /** Stops watching; idempotent. */
  close(): void;
}

export interface WatchOptions {
  /** Quiet time after the last event before `onChange` runs; default 200 ms. */
  debounceMs?: number;
  logger?: Logger;
  /** The secret files themselves, whose status is read every `pollMs` (see above). */
  files?: readonly string[];
  /** How often each file's status is read; 0 or unset: never. */
  pollMs?: number;
}

/** The `NAME_FILE` secret files set in `env`, each once, as absolute paths. */
export function secretFilePaths(env: NodeJS.ProcessEnv): string[] {
  const files = new Set<string>();
  for (const name of SECRET_VARIABLES) {
    const path = env[`${name}_FILE`]?.trim();
    if (path) files.add(resolve(path));
  }
  return [...files];
}

/** The folders holding the `NAME_FILE` secrets set in `env`, each once. */
export function secretFileFolders(env: NodeJS.ProcessEnv): string[] {
  const folders = new Set<string>();
  for (const name of SECRET_VARIABLES) {
    const path = env[`${name}_FILE`]?.trim();
    if (path) folders.add(dirname(resolve(path)));
  }
  return [...folders];
}

/**
 * Watches `folders` and calls `onChange` once things have been quiet for `debounceMs` after
 * an event. A folder that cannot be watched is logged and skipped: SIGHUP still works.
 */
export function watchSecretFiles(
  folders: readonly string[],
  onChange: () => void,
  options: WatchOptions = {},
): SecretFileWatch {
  const debounceMs = options.debounceMs ?? 200;
  const watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const fire = (): void => {
    if (closed) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (!closed) onChange();
    }, debounceMs);
    timer.unref();
  };
  for (const folder of folders) {
    try {
      const watcher = watch(folder, { persistent: false }, fire);
      watcher.on("error", (error) => {
        options.logger?.warn({ err: error, folder }, "stopped watching a secret file folder");
        watcher.close();
      });
      watchers.push(watcher);
    } catch (error) {
      options.logger?.warn({ err: error, folder }, "cannot watch a secret file folder");
    }
  }
  const polled = pollFiles(options.files ?? [], options.pollMs ?? 0, fire);
  return {
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
      polled.close();
    },
  };
}

/**
 * Reads each file's status every `pollMs` and calls `onChange` when one differs from the last
 * reading. The first reading is taken now, so a change made right after the watch starts counts.
 */
function pollFiles(
  files: readonly string[],
  pollMs: number,
  onChange: () => void,
): SecretFileWatch {
  if (pollMs <= 0 || files.length === 0) return { close: () => undefined };
  const last = new Map(files.map((file) => [file, fileSignature(file)]));
  const timer = setInterval(() => {
    for (const file of files) {
      const now = fileSignature(file);
      if (now === last.get(file)) continue;
      last.set(file, now);
      onChange();
    }
  }, pollMs);
  timer.unref();
  return { close: () => clearInterval(timer) };
}

/** What changes when a file's content is replaced or rewritten, through symlinks. */
function fileSignature(file: string): string {
  try {
    const stats = statSync(file);
    return `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
  } catch {
    return "missing";
  }
}
