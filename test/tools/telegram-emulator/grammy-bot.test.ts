import { run, sequentialize } from "@grammyjs/runner";
import { Api, GrammyError, InlineKeyboard, InputFile } from "grammy";
import { downloadListFile } from "../../../src/bot/features/giveaway/download.js";
import { formatMessage } from "../../../tools/telegram-emulator/terminal-chat.js";
import { describe, expect, it } from "vitest";
import { ALICE, BOB, botFor, GROUP, runBot, startEmulator } from "./harness.js";

describe("Telegram emulator with the real grammY bot", () => {
  it("delivers /start through long polling and shows the reply in the chat", async () => {
    const emu = await startEmulator();
    emu.addUser(ALICE);
    const bot = botFor(emu);
    bot.command("start", (ctx) => ctx.reply(`Hello, ${ctx.from?.first_name}! ${ctx.match}`));
    await runBot(bot);

    const sent = emu.sendText(ALICE.id, ALICE.id, "/start@gift_test_bot gift");
    expect(sent.updateId).toBeTypeOf("number");
    const reply = await emu.nextBotMessage(ALICE.id, { after: sent.messageId });
    expect(reply.text).toBe("Hello, Alice! gift");
    expect(reply.fromBot).toBe(true);
    expect(bot.botInfo.username).toBe("gift_test_bot");
    expect(
      emu.chat(ALICE.id).map((message) => [message.id, message.fromBot, message.text]),
    ).toEqual([
      [1, false, "/start@gift_test_bot gift"],
      [2, true, "Hello, Alice! gift"],
    ]);
    const delivered = emu.calls.find((call) => call.method === "sendMessage");
    expect(delivered?.payload).toMatchObject({ chat_id: ALICE.id, text: "Hello, Alice! gift" });
  });

  it("takes a document the bot uploads (an /export) and shows its name and size in the chat", async () => {
    const emu = await startEmulator();
    emu.addUser(ALICE);
    const bot = botFor(emu);
    const csv = "id,status\nA1,delivered\n";
    bot.command("export", (ctx) =>
      ctx.replyWithDocument(new InputFile(Buffer.from(csv), "purchases.csv"), {
        caption: "Purchases",
      }),
    );
    await runBot(bot);

    const sent = emu.sendText(ALICE.id, ALICE.id, "/export");
    const reply = await emu.nextBotMessage(ALICE.id, { after: sent.messageId });
    expect(reply.message.document).toMatchObject({
      file_name: "purchases.csv",
      file_size: Buffer.byteLength(csv),
    });
    expect(reply.text).toBe("Purchases");
    const view = { botUsername: "gift_test_bot", where: "", mine: false, note: "" };
    expect(formatMessage(reply, view)).toEqual([
      `#${reply.id} @gift_test_bot: 📎 purchases.csv (${Buffer.byteLength(csv)} bytes) Purchases`,
    ]);
  });

  it("gives the bot a file a person sent: getFile, then the bytes from /file/bot<token>/<file_path>", async () => {
    const emu = await startEmulator();
    emu.addUser(ALICE);
    const bot = botFor(emu);
    const texts: string[] = [];
    bot.on("message:text", (ctx) => texts.push(ctx.message.text));
    // The giveaway's own download (src/bot/features/giveaway/download.ts), through grammY's getFile.
    bot.on("message:document", async (ctx) => {
      const file = await downloadListFile(
        { getFile: (id) => ctx.api.getFile(id), token: ctx.api.token },
        ctx.message.document,
        { apiRoot: emu.apiRoot },
      );
      await ctx.reply(file.kind === "ok" ? `${file.fileName}: ${file.text}` : file.kind);
    });
    await runBot(bot);

    const list = "username\nalice_friend\nбоб_gifts\n";
    const sent = emu.sendDocument(ALICE.id, ALICE.id, {
      fileName: "winners.csv",
      content: Buffer.from(list),
    });
    const reply = await emu.nextBotMessage(ALICE.id, { after: sent.messageId });
    expect(reply.text).toBe(`winners.csv: ${list}`);
    // As on Telegram, a document's message has no text (a bot that reads text first sees none).
    expect(texts).toEqual([]);
    const document = emu.chat(ALICE.id)[0]?.message.document;
    expect(document).toMatchObject({
      file_name: "winners.csv",
      mime_type: "text/csv",
      file_size: Buffer.byteLength(list),
    });
    const getFile = emu.calls.find((call) => call.method === "getFile");
    expect(getFile?.result).toMatchObject({
      file_id: document?.file_id,
      file_size: Buffer.byteLength(list),
      file_path: "documents/file_1.csv",
    });

    // As Telegram: an unknown file_id is refused, and the download needs the bot's token.
    await expect(bot.api.getFile("no-such-file")).rejects.toThrow(/invalid file_id/);
    const path = "file/bot7000000001:wrong-token/documents/file_1.csv";
    expect((await fetch(`${emu.apiRoot}/${path}`)).status).toBe(404);
    expect((await fetch(`${emu.apiRoot}/file/bot${emu.token}/documents/file_9.csv`)).status).toBe(
      404,
    );
    expect(() =>
      emu.sendDocument(ALICE.id, ALICE.id, { fileName: "a/b.txt", content: Buffer.from("x") }),
    ).toThrow(/without a folder/);
  });

  it("turns a button press into a callback query the bot answers and edits after", async () => {
    const emu = await startEmulator();
    emu.addUser(ALICE);
    const bot = botFor(emu);
    bot.command("start", (ctx) =>
      ctx.reply("<b>Pick</b> a gift", {
        parse_mode: "HTML",
        reply_markup: new InlineKeyboard()
          .text("Stars", "gift:stars")
          .text("Premium", "gift:premium"),
      }),
    );
    bot.callbackQuery(/^gift:(.+)$/, async (ctx) => {
      await ctx.answerCallbackQuery({ text: `You chose ${ctx.match[1]}` });
      await ctx.editMessageText(`Chosen: ${ctx.match[1]}`, {
        reply_markup: new InlineKeyboard().text("Back", "back"),
      });
    });
    bot.callbackQuery("back", async (ctx) => {
      await ctx.answerCallbackQuery();
      // The same markup again: Telegram refuses with "message is not modified".
      await ctx.editMessageReplyMarkup({ reply_markup: new InlineKeyboard().text("Back", "back") });
    });
    let failed!: (description: string) => void;
    const failure = new Promise<string>((resolve) => {
      failed = resolve;
    });
    bot.catch((error) => {
      failed(error.error instanceof GrammyError ? error.error.description : String(error.error));
    });
    await runBot(bot);

    emu.sendText(ALICE.id, ALICE.id, "/start");
    const menu = await emu.nextBotMessage(ALICE.id);
    expect(menu.text).toBe("Pick a gift");
    expect(menu.message.entities).toEqual([{ type: "bold", offset: 0, length: 4 }]);
    expect(menu.replyMarkup?.inline_keyboard[0]?.map((button) => button.text)).toEqual([
      "Stars",
      "Premium",
    ]);

    const press = emu.pressButtonAt(ALICE.id, ALICE.id, menu.id, 0, 1);
    const edited = await emu.waitFor((e) =>
      e.chat(ALICE.id).find((m) => m.id === menu.id && m.edited),
    );
    expect(edited.text).toBe("Chosen: premium");
    expect(edited.replyMarkup?.inline_keyboard).toEqual([
      [{ text: "Back", callback_data: "back" }],
    ]);
    expect(emu.callbackAnswers[0]).toMatchObject({
      callbackQueryId: press.callbackQueryId,
      text: "You chose premium",
      showAlert: false,
      data: "gift:premium",
    });

    emu.pressButtonAt(ALICE.id, ALICE.id, menu.id, 0, 0);
    expect(await failure).toMatch(/^Bad Request: message is not modified/);
    expect(emu.callbackAnswers).toHaveLength(2);
  });

  it("keeps an update until an offset confirms it, and long polls until one arrives", async () => {
    const emu = await startEmulator();
    emu.addUser(ALICE);
    const api = new Api(emu.token, { apiRoot: emu.apiRoot });

    const waiting = api.getUpdates({ timeout: 50 });
    await emu.waitFor((e) => e.pollPending);
    const { updateId } = emu.sendText(ALICE.id, ALICE.id, "hello");
    const first = await waiting;
    expect(first.map((update) => update.update_id)).toEqual([updateId]);
    expect(first[0]?.message?.text).toBe("hello");

    // Not confirmed yet: delivered again.
    expect((await api.getUpdates({ timeout: 0 })).map((update) => update.update_id)).toEqual([
      updateId,
    ]);
    // Confirmed by the next offset: gone for good.
    expect(await api.getUpdates({ offset: (updateId ?? 0) + 1, timeout: 0 })).toEqual([]);
    expect(emu.pendingUpdates()).toEqual([]);

    // Nothing arrives: the poll ends empty after its timeout.
    expect(await api.getUpdates({ timeout: 1 })).toEqual([]);
  });

  it("does not redeliver to a restarted bot what the stopped bot confirmed", async () => {
    const emu = await startEmulator();
    emu.addUser(ALICE);
    const seen: string[] = [];
    const first = botFor(emu);
    first.on("message:text", async (ctx) => {
      seen.push(`first:${ctx.message.text}`);
      await ctx.reply("ok");
    });
    await runBot(first);
    emu.sendText(ALICE.id, ALICE.id, "one");
    await emu.nextBotMessage(ALICE.id);
    await first.stop();

    emu.sendText(ALICE.id, ALICE.id, "two");
    const second = botFor(emu);
    second.on("message:text", async (ctx) => {
      seen.push(`second:${ctx.message.text}`);
      await ctx.reply("ok");
    });
    await runBot(second);
    await emu.nextBotMessage(ALICE.id);
    expect(seen).toEqual(["first:one", "second:two"]);
  });

  it("serves the grammY runner (concurrent chats, sequential per chat)", async () => {
    const emu = await startEmulator();
    emu.addUser(ALICE);
    emu.addUser(BOB);
    const bot = botFor(emu);
    bot.use(sequentialize((ctx) => String(ctx.chat?.id)));
    bot.on("message:text", (ctx) => ctx.reply(`echo ${ctx.message.text}`));
    const runner = run(bot, { runner: { fetch: { timeout: 2 } } });
    try {
      emu.sendText(ALICE.id, ALICE.id, "a");
      emu.sendText(BOB.id, BOB.id, "b");
      expect((await emu.nextBotMessage(ALICE.id, { after: 1 })).text).toBe("echo a");
      expect((await emu.nextBotMessage(BOB.id, { after: 1 })).text).toBe("echo b");
    } finally {
      await runner.stop();
    }
  });

  it("ends the older of two pending getUpdates with 409 Conflict", async () => {
    const emu = await startEmulator();
    const api = new Api(emu.token, { apiRoot: emu.apiRoot });
    const older = api.getUpdates({ timeout: 50 });
    await emu.waitFor((e) => e.pollPending);
    expect(await api.getUpdates({ timeout: 0 })).toEqual([]);
    const error = await older.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GrammyError);
    expect((error as GrammyError).error_code).toBe(409);
    expect((error as GrammyError).description).toMatch(/^Conflict: terminated by other getUpdates/);
  });

  it("stores the webhook, refusing getUpdates while it is set, and filters allowed_updates", async () => {
    const emu = await startEmulator();
    emu.addUser(ALICE);
    const api = new Api(emu.token, { apiRoot: emu.apiRoot });
    await api.setWebhook("https://bot.example/hook", { secret_token: "s3cret_Token" });
    expect(emu.webhook).toMatchObject({
      url: "https://bot.example/hook",
      secretToken: "s3cret_Token",
    });
    await expect(api.getUpdates()).rejects.toMatchObject({ error_code: 409 });
    emu.sendText(ALICE.id, ALICE.id, "/start");
    expect(await api.getWebhookInfo()).toMatchObject({
      url: "https://bot.example/hook",
      pending_update_count: 1,
    });
    await api.deleteWebhook({ drop_pending_updates: true });
    expect((await api.getWebhookInfo()).url).toBe("");

    emu.sendText(ALICE.id, ALICE.id, "text");
    const menu = await api.sendMessage(ALICE.id, "menu", {
      reply_markup: new InlineKeyboard().text("x", "x"),
    });
    emu.pressButton(ALICE.id, ALICE.id, menu.message_id, "x");
    const onlyButtons = await api.getUpdates({ allowed_updates: ["callback_query"] });
    expect(onlyButtons.map((update) => Object.keys(update))).toEqual([
      ["update_id", "callback_query"],
    ]);
    expect(onlyButtons[0]?.callback_query?.message?.message_id).toBe(menu.message_id);
  });

  it("answers getChatMember and getChatAdministrators from the statuses set", async () => {
    const emu = await startEmulator();
    emu.addUser(ALICE);
    emu.addUser(BOB);
    emu.addGroup(GROUP);
    emu.setChatMember(GROUP.id, ALICE.id, "administrator");
    emu.setChatMember(GROUP.id, BOB.id, "member");
    const api = new Api(emu.token, { apiRoot: emu.apiRoot });

    expect((await api.getChatMember(GROUP.id, ALICE.id)).status).toBe("administrator");
    expect((await api.getChatMember(GROUP.id, BOB.id)).status).toBe("member");
    emu.setChatMember(GROUP.id, ALICE.id, "left");
    expect((await api.getChatMember(GROUP.id, ALICE.id)).status).toBe("left");
    emu.setChatMember(GROUP.id, BOB.id, "creator");
    const admins = await api.getChatAdministrators(GROUP.id);
    expect(admins.map((member) => [member.user.id, member.status])).toEqual([[BOB.id, "creator"]]);
    await expect(api.getChatMember(-42, ALICE.id)).rejects.toMatchObject({
      error_code: 400,
      description: "Bad Request: chat not found",
    });
    await expect(api.getChatAdministrators(ALICE.id)).rejects.toMatchObject({ error_code: 400 });
  });

  it("keeps commands per scope and language", async () => {
    const emu = await startEmulator();
    const api = new Api(emu.token, { apiRoot: emu.apiRoot });
    await api.setMyCommands([{ command: "start", description: "Start" }]);
    await api.setMyCommands([{ command: "start", description: "Начать" }], { language_code: "ru" });
    await api.setMyCommands([{ command: "balance", description: "Balance" }], {
      scope: { type: "chat", chat_id: ALICE.id },
    });

    expect(emu.commands()).toEqual([{ command: "start", description: "Start" }]);
    expect(emu.commands({ type: "default" }, "ru")).toEqual([
      { command: "start", description: "Начать" },
    ]);
    expect(await api.getMyCommands({ language_code: "ru" })).toEqual([
      { command: "start", description: "Начать" },
    ]);
    expect(await api.getMyCommands({ scope: { type: "chat", chat_id: ALICE.id } })).toEqual([
      { command: "balance", description: "Balance" },
    ]);
    await api.deleteMyCommands({ language_code: "ru" });
    expect(await api.getMyCommands({ language_code: "ru" })).toEqual([]);
    await expect(
      api.setMyCommands([{ command: "Bad-Name", description: "x" }]),
    ).rejects.toMatchObject({
      description: "Bad Request: BOT_COMMAND_INVALID",
    });
    expect(emu.calls.filter((call) => call.method === "setMyCommands")).toHaveLength(4);
  });

  it("refuses a wrong token with 401 and an unknown method with 404", async () => {
    const emu = await startEmulator();
    const bot = botFor(emu, "1:wrong-token");
    await expect(bot.init()).rejects.toMatchObject({
      error_code: 401,
      description: "Unauthorized",
    });
    const response = await fetch(`${emu.apiRoot}/bot${emu.token}/sendTeleportation`, {
      method: "POST",
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ ok: false, error_code: 404, description: "Not Found" });
  });

  it("refuses what Telegram refuses: writing first, blocked people, bad HTML, stale queries", async () => {
    const emu = await startEmulator();
    emu.addUser(ALICE);
    const api = new Api(emu.token, { apiRoot: emu.apiRoot });
    await expect(api.sendMessage(ALICE.id, "hi")).rejects.toMatchObject({
      error_code: 403,
      description: "Forbidden: bot can't initiate conversation with a user",
    });
    emu.sendText(ALICE.id, ALICE.id, "/start");
    await expect(
      api.sendMessage(ALICE.id, "a <b>bold", { parse_mode: "HTML" }),
    ).rejects.toMatchObject({
      description:
        "Bad Request: can't parse entities: Can't find end tag corresponding to start tag \"b\"",
    });
    await expect(
      api.sendMessage(ALICE.id, "1 <x> 2", { parse_mode: "HTML" }),
    ).rejects.toMatchObject({
      error_code: 400,
    });
    const sent = await api.sendMessage(
      ALICE.id,
      '1 &lt; 2 &amp; <a href="https://t.me/x">link</a>',
      {
        parse_mode: "HTML",
      },
    );
    expect(sent.text).toBe("1 < 2 & link");
    expect(sent.entities).toEqual([
      { type: "text_link", offset: 8, length: 4, url: "https://t.me/x" },
    ]);
    await expect(api.answerCallbackQuery("12345")).rejects.toMatchObject({ error_code: 400 });
    await expect(api.deleteMessage(ALICE.id, 999)).rejects.toMatchObject({
      description: "Bad Request: message to delete not found",
    });
    await api.deleteMessage(ALICE.id, sent.message_id);
    expect(emu.chat(ALICE.id).map((message) => message.text)).toEqual(["/start"]);
    emu.blockBot(ALICE.id);
    await expect(api.sendChatAction(ALICE.id, "typing")).rejects.toMatchObject({
      description: "Forbidden: bot was blocked by the user",
    });
  });

  it("follows group privacy mode and fills reply_to_message", async () => {
    const emu = await startEmulator();
    emu.addUser(ALICE);
    emu.addUser(BOB);
    emu.addGroup(GROUP);
    emu.setChatMember(GROUP.id, ALICE.id, "administrator");
    emu.setChatMember(GROUP.id, BOB.id, "member");

    const chatter = emu.sendText(BOB.id, GROUP.id, "hi all");
    expect(chatter.updateId).toBeUndefined();
    const command = emu.sendText(ALICE.id, GROUP.id, "/premium", {
      replyToMessageId: chatter.messageId,
    });
    const [update] = emu.pendingUpdates();
    expect(update?.update_id).toBe(command.updateId);
    expect(update?.message?.entities).toEqual([{ type: "bot_command", offset: 0, length: 8 }]);
    expect(update?.message?.reply_to_message).toMatchObject({
      message_id: chatter.messageId,
      from: { id: BOB.id, username: "bob_b" },
      text: "hi all",
    });
    expect(emu.sendText(BOB.id, GROUP.id, "/start@other_bot").updateId).toBeUndefined();
  });
});
