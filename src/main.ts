/**
 * The process entry point. It only loads the configuration and reports; building the bot's
 * parts from the configuration belongs in its own module, so this file stays small.
 */
import { ConfigError, configSummary, loadConfig } from "./config/index.js";
import { createLogger } from "./logger.js";

/** `ENV_FILE` picks another dotenv file; `ENV_FILE=none` reads none (tests, containers). */
function envFileOption(value: string | undefined): string | false | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  return value.trim() === "none" ? false : value.trim();
}

async function main(): Promise<number> {
  let config: Awaited<ReturnType<typeof loadConfig>>;
  try {
    config = await loadConfig(process.env, { envFile: envFileOption(process.env.ENV_FILE) });
  } catch (error) {
    // The operator needs the list, not a stack trace; the list never holds a secret's value.
    if (error instanceof ConfigError) {
      process.stderr.write(`giftbot cannot start:\n${error.message}\n`);
      return 1;
    }
    throw error;
  }
  const logger = createLogger({ level: config.log.level, pretty: config.log.pretty });
  logger.info(configSummary(config), "giftbot starting");
  logger.warn("the bot is not wired yet: configuration is valid, nothing else to run");
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `giftbot crashed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
