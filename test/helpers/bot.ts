import { onTestFinished } from "vitest";
import {
  type BotHarness,
  type BotHarnessOptions,
  createBotHarness,
} from "../../tools/testing/bot-harness.js";
import { freshMigratedPostgresDatabase } from "./postgres.js";
import { tempDir } from "./temp-dir.js";

/**
 * Which store the bot tests run on: SQLite, or PostgreSQL when GIFTBOT_TEST_STORE=postgres
 * (`npm test` runs test/bot a second time so: `npm run test:postgres`, see package.json).
 */
export const TEST_STORE = process.env.GIFTBOT_TEST_STORE === "postgres" ? "postgres" : "sqlite";

/** A harness on a fresh temp dir (and database, on PostgreSQL), closed when the test finishes. */
export async function harness(options: Omit<BotHarnessOptions, "dir"> = {}): Promise<BotHarness> {
  const databaseUrl =
    TEST_STORE === "postgres"
      ? await freshMigratedPostgresDatabase({ copyNextAhead: true })
      : undefined;
  const h = await createBotHarness({
    dir: tempDir("giftbot-bot-"),
    ...(databaseUrl === undefined ? {} : { databaseUrl }),
    ...options,
  });
  onTestFinished(() => h.close());
  return h;
}

/** Telegram's answer to every button press, by callback query id order. */
export function answersSince(h: BotHarness, since: number): (string | undefined)[] {
  return h.telegram
    .callsSince(since)
    .filter((c) => c.method === "answerCallbackQuery")
    .map((c) => c.payload.text as string | undefined);
}
