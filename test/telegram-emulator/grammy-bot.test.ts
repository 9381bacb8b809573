import { Bot, GrammyError, InlineKeyboard } from "grammy";
import { afterEach, describe, expect, it } from "vitest";
import type { TelegramEmulator } from "../../src/telegram-emulator/emulator.js";
import { startTelegramEmulator } from "../../src/telegram-emulator/server.js";

const ALICE = { id: 501, first_name: "Alice", username: "alice", language_code: "en" };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function emulator(): Promise<TelegramEmulator> {
  const started = await startTelegramEmulator({ botUsername: "gift_test_bot" });
  cleanups.push(() => started.close());
  return started;
}

function botFor(emu: TelegramEmulator, token = emu.token): Bot {
  return new Bot(token, { client: { apiRoot: emu.apiRoot } });
}

/** Starts long polling with a short timeout and stops the bot after the test. */
async function run(bot: Bot): Promise<void> {
  let started!: () => void;
  const ready = new Promise<void>((resolve) => {
    started = resolve;
  });
  const done = bot.start({ timeout: 1, onStart: () => started() });
  cleanups.push(async () => {
    await bot.stop();
    await done;
  });
  await ready;
}

describe("Telegram emulator with the real grammY bot", () => {
  it("delivers /start through long polling and shows the reply in the chat", async () => {
    const emu = await emulator();
    emu.addUser(ALICE);
    const bot = botFor(emu);
    bot.command("start", (ctx) => ctx.reply(`Hello, ${ctx.from?.first_name}! ${ctx.match}`));
    await run(bot);

    const sent = emu.sendText(ALICE.id, ALICE.id, "/start@gift_test_bot gift");
    expect(sent.updateId).toBeTypeOf("number");
    const reply = await emu.nextBotMessage(ALICE.id, { after: sent.messageId });
    expect(reply.text).toBe("Hello, Alice! gift");
    expect(reply.fromBot).toBe(true);
    expect(bot.botInfo.username).toBe("gift_test_bot");
    expect(emu.chat(ALICE.id).map((message) => message.text)).toEqual([
      "/start@gift_test_bot gift",
      "Hello, Alice! gift",
    ]);
    const getMe = emu.calls.find((call) => call.method === "getMe");
    expect(getMe?.ok).toBe(true);
  });
});
