import { onTestFinished } from "vitest";
import {
  type BotHarness,
  type BotHarnessOptions,
  createBotHarness,
} from "../../tools/testing/bot-harness.js";
import { tempDir } from "./temp-dir.js";

/** A harness on a fresh temp dir, closed when the test finishes. */
export async function harness(options: Omit<BotHarnessOptions, "dir"> = {}): Promise<BotHarness> {
  const h = await createBotHarness({ dir: tempDir("giftbot-bot-"), ...options });
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
