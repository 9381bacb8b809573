import { autoRetry } from "@grammyjs/auto-retry";
import { Api, InlineKeyboard } from "grammy";
import { describe, expect, it } from "vitest";
import { TelegramEmulatorClient } from "../../../tools/telegram-emulator/client.js";
import {
  EmulatorControlError,
  EmulatorTimeoutError,
} from "../../../tools/telegram-emulator/errors.js";
import { ALICE, BOB, botFor, GROUP, runBot, startEmulator } from "./harness.js";

describe("Telegram emulator over HTTP", () => {
  it("drives people and watches chats through the /__emulator/ control API", async () => {
    const emu = await startEmulator();
    const remote = new TelegramEmulatorClient(`${emu.url}/`);
    const bot = botFor(emu);
    bot.command("start", (ctx) =>
      ctx.reply("Menu", { reply_markup: new InlineKeyboard().text("Go", "go") }),
    );
    bot.callbackQuery("go", async (ctx) => {
      await ctx.answerCallbackQuery({ text: "Going", show_alert: true });
      await ctx.deleteMessage();
    });
    await runBot(bot);

    await remote.waitForPolling({ timeoutMs: 5_000 });
    expect((await remote.waitForCall("getMe", { timeoutMs: 5_000 })).ok).toBe(true);
    expect(await remote.info()).toMatchObject({ botId: 7000000001, botUsername: "gift_test_bot" });
    await remote.addUser(ALICE);
    await remote.addUser(BOB);
    await remote.addGroup(GROUP);
    await remote.setChatMember(GROUP.id, ALICE.id, "creator");
    const { lastEventSeq } = await remote.chat(ALICE.id);

    const sent = await remote.sendText(ALICE.id, ALICE.id, "/start");
    const menu = await remote.nextBotMessage(ALICE.id, { after: sent.messageId, timeoutMs: 5_000 });
    expect(menu).toMatchObject({ text: "Menu", fromBot: true, edited: false });
    await remote.pressButtonAt(ALICE.id, ALICE.id, menu.id, 0, 0);
    const seen: string[] = [];
    let after = lastEventSeq;
    while (!seen.includes("deleted")) {
      const { events } = await remote.events(after, { chatId: ALICE.id, timeoutMs: 5_000 });
      expect(events.length).toBeGreaterThan(0);
      for (const event of events) {
        seen.push(event.type);
        after = event.seq;
      }
    }
    expect(seen).toEqual(["message", "message", "callback_answer", "deleted"]);
    expect((await remote.chat(ALICE.id)).messages.map((message) => message.text)).toEqual([
      "/start",
    ]);
    expect(await remote.callbackAnswers()).toMatchObject([
      { text: "Going", showAlert: true, data: "go" },
    ]);
    expect((await remote.calls({ method: "deleteMessage" })).map((call) => call.payload)).toEqual([
      { chat_id: ALICE.id, message_id: menu.id },
    ]);

    // A held wait with nothing happening ends empty; bad requests are refused with reasons.
    expect((await remote.events(after, { chatId: ALICE.id, timeoutMs: 50 })).events).toEqual([]);
    await expect(remote.nextBotMessage(ALICE.id, { timeoutMs: 50 })).rejects.toBeInstanceOf(
      EmulatorTimeoutError,
    );
    await expect(remote.sendText(BOB.id, GROUP.id, "hi")).rejects.toMatchObject({ status: 403 });
    await expect(remote.pressButtonAt(ALICE.id, ALICE.id, 1, 0, 0)).rejects.toBeInstanceOf(
      EmulatorControlError,
    );
  });

  it("takes Bot API parameters as a form, as a query string, and case-insensitive method names", async () => {
    const emu = await startEmulator();
    emu.addUser({ ...ALICE, startedBot: true });
    const base = `${emu.apiRoot}/bot${emu.token}`;

    const form = new URLSearchParams({
      chat_id: String(ALICE.id),
      text: "from a form",
      reply_markup: JSON.stringify({ inline_keyboard: [[{ text: "A", callback_data: "a" }]] }),
    });
    const viaForm = await fetch(`${base}/sendMessage`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form,
    });
    expect(await viaForm.json()).toMatchObject({
      ok: true,
      result: {
        message_id: 1,
        text: "from a form",
        reply_markup: { inline_keyboard: [[{ text: "A" }]] },
      },
    });
    const viaQuery = await fetch(`${base}/SENDMESSAGE?chat_id=${ALICE.id}&text=from%20a%20query`);
    expect(await viaQuery.json()).toMatchObject({ ok: true, result: { message_id: 2 } });
    const bad = await fetch(
      `${base}/editMessageText?chat_id=${ALICE.id}&message_id=2&text=from%20a%20query`,
    );
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      ok: false,
      description: /^Bad Request: message is not modified/,
    });
    expect(emu.calls.map((call) => call.method)).toEqual([
      "sendMessage",
      "sendMessage",
      "editMessageText",
    ]);
  });

  it("answers injected errors such as 429 with retry_after, which auto-retry waits out", async () => {
    const emu = await startEmulator();
    emu.addUser({ ...ALICE, startedBot: true });
    const api = new Api(emu.token, { apiRoot: emu.apiRoot });
    api.config.use(autoRetry({ maxRetryAttempts: 1, maxDelaySeconds: 1 }));
    emu.injectApiError("sendMessage", {
      errorCode: 429,
      description: "Too Many Requests: retry after 0",
      retryAfter: 0,
    });
    const message = await api.sendMessage(ALICE.id, "eventually");
    expect(message.text).toBe("eventually");
    expect(emu.calls.map((call) => [call.method, call.error?.error_code])).toEqual([
      ["sendMessage", 429],
      ["sendMessage", undefined],
    ]);
  });
});
