/**
 * The process entry point: configuration → app → run until a signal. It stays small on purpose:
 * everything is built in the composition root (src/app), and this file only decides what the
 * process does with errors and signals.
 */
import { ConfigError, type LoadedSettings, loadSettings } from "./config/index.js";
import { scrubTokens } from "./shared/logger.js";
import { reloadOnSignalAndSecretFiles, SettingsReloader } from "./run/reload.js";
import { TelegramTokenRejectedError } from "./run/connect.js";
import { exitAfterLogs, handleShutdownSignals, stopWithinGrace } from "./run/shutdown.js";

/** `ENV_FILE` picks another dotenv file; `ENV_FILE=none` reads none (tests, containers). */
function envFileOption(value: string | undefined): string | false | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  return value.trim() === "none" ? false : value.trim();
}

/** Resolves once the bot takes updates, or with an exit code when it cannot start. */
async function main(): Promise<number | undefined> {
  const sources = { envFile: envFileOption(process.env.ENV_FILE) };
  let settings: LoadedSettings;
  const loading = loadSettings(process.env, sources);
  // The app's modules load while the wallet key is derived (a key derivation that runs off the
  // main thread): start-up takes the longer of the two instead of their sum.
  const appModule = import("./app/index.js");
  appModule.catch(() => undefined);
  try {
    settings = await loading;
  } catch (error) {
    // The operator needs the list, not a stack trace; the list never holds a secret's value.
    if (error instanceof ConfigError) {
      process.stderr.write(`giftbot cannot start:\n${error.message}\n`);
      return 1;
    }
    throw error;
  }
  const { config } = settings;
  const appParts = await appModule;
  // Every stop first ends the reloads: a SIGHUP must not apply settings to closed parts.
  let stopReloads = (): void => undefined;
  const stop = (): Promise<void> => {
    stopReloads();
    return app.stop();
  };
  const graceMs = config.run.shutdownGraceSeconds * 1000;
  let app: Awaited<ReturnType<typeof appParts.openApp>>;
  try {
    app = await appParts.openApp(config, {
      onFatal: () => {
        // No updates any more (Telegram refused), the lease lost, or the database file replaced
        // under the process: let a supervisor restart it. Within the grace, as after a signal:
        // a lease lost to a network cut leaves the database's last queries unanswered.
        const exit = () => exitAfterLogs(app.logger, 1, (code) => process.exit(code));
        void stopWithinGrace({ stop, graceMs, logger: app.logger }).then(exit);
      },
    });
  } catch (error) {
    const code = storeRefusal(error, appParts);
    if (code !== undefined) return code;
    throw error;
  }
  // Installed before start: a signal while connecting still closes the database cleanly.
  handleShutdownSignals({ stop, graceMs, logger: app.logger });
  // SIGHUP (and a replaced NAME_FILE secret) re-reads the settings; see src/run/reload.ts.
  const reloader = new SettingsReloader({
    initial: settings,
    options: sources,
    logger: app.logger,
    apply: (next) => app.applySettings(next),
    onRefused: (refused) => app.notifier.reloadRefused(refused.map((problem) => problem.variable)),
  });
  stopReloads = reloadOnSignalAndSecretFiles(reloader, {
    logger: app.logger,
    pollMs: app.config.run.secretPollSeconds * 1000,
  });
  try {
    await app.start();
  } catch (error) {
    // Waiting cannot mend a rejected token: one line saying so, no stack trace, exit 1.
    if (error instanceof TelegramTokenRejectedError) {
      app.logger.fatal({ cause: error.reason }, `giftbot cannot start: ${error.message}`);
      await stop().catch(() => undefined);
      exitAfterLogs(app.logger, 1, (code) => process.exit(code));
      return undefined;
    }
    // The logger's `err` serializer keeps name, message and stack only, tokens scrubbed.
    app.logger.fatal({ err: error }, "giftbot could not start");
    await stop().catch(() => undefined);
    exitAfterLogs(app.logger, 1, (code) => process.exit(code));
    return undefined;
  }
  return undefined;
}

/**
 * A store that cannot be opened: one line saying why and what to do, and the exit code of that
 * reason (docs/operations.md); undefined for any other error.
 */
function storeRefusal(error: unknown, errors: typeof import("./app/index.js")): number | undefined {
  // A damaged or too-new database: one line naming the file and what to do, its own code.
  if (error instanceof errors.DatabaseDamagedError || error instanceof errors.DatabaseTooNewError) {
    process.stderr.write(
      `giftbot cannot start: ${error.message}. To restore a backup: npm run restore -- <backup file>\n`,
    );
    return error instanceof errors.DatabaseDamagedError
      ? errors.DatabaseDamagedError.exitCode
      : errors.DatabaseTooNewError.exitCode;
  }
  // A restore replacing the file now: one line, its code; a restart after it opens the new file.
  if (error instanceof errors.DatabaseLockedError) {
    process.stderr.write(`giftbot cannot start: ${error.message}\n`);
    return errors.DatabaseLockedError.exitCode;
  }
  // PostgreSQL down or refusing: one line saying where (never the URL's password), its code.
  if (error instanceof errors.DatabaseUnreachableError) {
    process.stderr.write(`giftbot cannot start: ${scrubTokens(error.message)}\n`);
    return errors.DatabaseUnreachableError.exitCode;
  }
  return undefined;
}

/**
 * A crash before (or outside) the logger goes to stderr: only the name and message, since a grammY
 * error can carry a context whose API holds the bot token, and scrubbed of anything token-shaped.
 */
function describe(error: unknown): string {
  return scrubTokens(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
}

main().then(
  (code) => {
    if (code !== undefined) process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(`giftbot crashed: ${describe(error)}\n`);
    process.exit(1);
  },
);
