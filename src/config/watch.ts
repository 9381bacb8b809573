/**
 * Notices when a `NAME_FILE` secret file changes, so a rotated cookie is taken on without a
 * signal. Container runtimes replace mounted secrets atomically: Docker/compose and most tools
 * write a new file and rename it over the old one, Kubernetes swaps a `..data` symlink in the
 * same folder. A watch on the file itself would keep watching the old, unlinked inode and miss
 * every later change, so the folder is watched instead (inotify on Linux), and any event in it
 * (debounced) asks for a reload. A reload that finds nothing changed does nothing, so a
 * spurious event costs one re-read of the settings.
 */
import { type FSWatcher, watch } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Logger } from "../logger.js";
import { SECRET_VARIABLES } from "./schema.js";

export interface SecretFileWatch {
  /** Stops watching; idempotent. */
  close(): void;
}

export interface WatchOptions {
  /** Quiet time after the last event before `onChange` runs; default 200 ms. */
  debounceMs?: number;
  logger?: Logger;
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
  return {
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    },
  };
}
