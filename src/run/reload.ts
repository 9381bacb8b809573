/**
 * Reloading the settings while running: on SIGHUP, and when a `NAME_FILE` secret's folder
 * changes. The reloader re-reads the sources (src/config/reload.ts), hands the settings that
 * may change to whoever applies them, and logs one line naming what changed, what needs a
 * restart and what was refused: names only, never a value.
 *
 * Reloads run one at a time: a SIGHUP arriving while the secret-file watch is reloading waits
 * for it and then reads the sources again, so the last change always wins.
 */
import type { Config, ConfigProblem, LoadConfigOptions, LoadedSettings } from "../config/index.js";
import { reloadSettings } from "../config/index.js";
import {
  type SecretFileWatch,
  secretFileFolders,
  secretFilePaths,
  watchSecretFiles,
} from "../config/watch.js";
import type { Logger } from "../shared/logger.js";

export interface ReloadOutcome {
  applied: string[];
  needsRestart: string[];
  refused: ConfigProblem[];
}

export interface ReloaderOptions {
  /** The settings the bot started with. */
  initial: LoadedSettings;
  env?: NodeJS.ProcessEnv;
  options?: LoadConfigOptions;
  logger: Logger;
  /**
   * Takes the new configuration on (credentials, allow lists, limits...). Called only when
   * something reloadable changed; `applied` names the variables.
   */
  apply: (config: Config, applied: readonly string[]) => void;
  /** Told when new values were refused (to tell the admins); names in `refused`. */
  onRefused?: (refused: readonly ConfigProblem[]) => void;
}

export class SettingsReloader {
  readonly #options: ReloaderOptions;
  #current: LoadedSettings;
  #running: Promise<ReloadOutcome> | undefined;
  /** The one reload queued behind the running one; later requests share it. */
  #queued: Promise<ReloadOutcome> | undefined;

  constructor(options: ReloaderOptions) {
    this.#options = options;
    this.#current = options.initial;
  }

  /** The configuration in force now. */
  get config(): Config {
    return this.#current.config;
  }

  /**
   * Re-reads the sources and applies what may change. Never rejects: a failure is logged and
   * the running settings stay. Requests made while one runs share one later run, which reads
   * the sources again, so the newest change is never missed.
   */
  reload(reason: string): Promise<ReloadOutcome> {
    if (this.#running === undefined) return this.#start(reason);
    this.#queued ??= this.#running.then(() => {
      this.#queued = undefined;
      return this.#start(reason);
    });
    return this.#queued;
  }

  #start(reason: string): Promise<ReloadOutcome> {
    const run = this.#reloadOnce(reason).finally(() => {
      if (this.#running === run) this.#running = undefined;
    });
    this.#running = run;
    return run;
  }

  async #reloadOnce(reason: string): Promise<ReloadOutcome> {
    const { logger } = this.#options;
    try {
      const result = await reloadSettings(
        this.#current,
        this.#options.env ?? process.env,
        this.#options.options ?? {},
      );
      if (result.applied.length > 0) {
        this.#options.apply(result.settings.config, result.applied);
      }
      this.#current = result.settings;
      const outcome = {
        applied: result.applied,
        needsRestart: result.needsRestart,
        refused: result.refused,
      };
      const nothing =
        outcome.applied.length + outcome.needsRestart.length + outcome.refused.length === 0;
      const fields = {
        reason,
        changed: outcome.applied,
        needsRestart: outcome.needsRestart,
        refused: outcome.refused.map((problem) => `${problem.variable}: ${problem.reason}`),
      };
      if (outcome.refused.length > 0) {
        logger.warn(fields, "settings reloaded; some new values were refused, the old ones stay");
        this.#options.onRefused?.(outcome.refused);
      } else {
        logger[nothing ? "debug" : "info"](fields, "settings reloaded");
      }
      return outcome;
    } catch (error) {
      logger.error({ err: error, reason }, "settings reload failed; the running settings stay");
      return { applied: [], needsRestart: [], refused: [] };
    }
  }
}

/**
 * Reloads on SIGHUP and, when `NAME_FILE` secrets are set, when their folders change.
 * Returns a function that removes the handler and stops watching.
 */
export function reloadOnSignalAndSecretFiles(
  reloader: SettingsReloader,
  options: {
    env?: NodeJS.ProcessEnv;
    logger: Logger;
    watchFiles?: boolean;
    debounceMs?: number;
    /** How often each secret file's status is read (SECRET_POLL_SECONDS); 0: never. */
    pollMs?: number;
  },
): () => void {
  const onSignal = (): void => {
    void reloader.reload("SIGHUP");
  };
  process.on("SIGHUP", onSignal);
  let watch: SecretFileWatch | undefined;
  const env = options.env ?? process.env;
  const folders = secretFileFolders(env);
  if (options.watchFiles !== false && folders.length > 0) {
    watch = watchSecretFiles(folders, () => void reloader.reload("secret file changed"), {
      logger: options.logger,
      files: secretFilePaths(env),
      ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
      ...(options.debounceMs === undefined ? {} : { debounceMs: options.debounceMs }),
    });
  }
  return () => {
    process.off("SIGHUP", onSignal);
    watch?.close();
  };
}
