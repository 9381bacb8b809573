import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { InlineKeyboard } from "grammy";
import { describe, expect, it } from "vitest";
import { downloadListFile } from "../../../src/bot/features/giveaway/download.js";
import { DEMO_USER } from "../../../tools/telegram-emulator/demo-people.js";
import { tempDir } from "../../helpers/temp-dir.js";
import { botFor, chatOnStreams, runBot, startEmulator } from "./harness.js";

describe("terminal chat: numbers, buttons and message numbers", () => {
  it("sends a typed number to a bot that asks for one, presses only with #N (on the latest message with buttons), numbers the person's messages", async () => {
    const emu = await startEmulator();
    const bot = botFor(emu);
    const received: string[] = [];
    bot.command("start", (ctx) =>
      ctx.reply("Gift what?", { reply_markup: new InlineKeyboard().text("Stars", "stars") }),
    );
    bot.callbackQuery("stars", async (ctx) => {
      await ctx.answerCallbackQuery();
      await ctx.reply("Send the number of stars.", {
        reply_markup: new InlineKeyboard().text("Cancel", "cancel"),
      });
    });
    bot.callbackQuery("cancel", async (ctx) => {
      await ctx.answerCallbackQuery();
      await ctx.reply("Cancelled.");
    });
    bot.on("message:text", async (ctx) => {
      received.push(ctx.message.text);
      const quoted = ctx.message.reply_to_message?.message_id;
      await ctx.reply(quoted === undefined ? `Got ${ctx.message.text}` : `Quoted #${quoted}`);
    });
    await runBot(bot);

    const chat = chatOnStreams(emu.url, undefined);
    await chat.waitFor(/Type :help for commands\./);
    chat.type("/start");
    await chat.waitFor(/#1 Uma \(you\): \/start\n#2 @gift_test_bot: Gift what\?\n {4}\[1\] Stars/);
    chat.type("#1");
    await chat.waitFor(/#3 @gift_test_bot: Send the number of stars\.\n {4}\[1\] Cancel/);
    // The latest bot message has one button: 1 is a message all the same (with a hint), and so is 49.
    chat.type("1");
    await chat.waitFor(/\(sent "1" as a message; to press button 1, "Cancel" of #3, type #1\)/);
    await chat.waitFor(/#5 @gift_test_bot: Got 1/);
    chat.type("49");
    await chat.waitFor(/#6 Uma \(you\): 49\n#7 @gift_test_bot: Got 49/);
    expect(received).toEqual(["1", "49"]);
    // The latest bot message ("Got 49") has no buttons: #1 presses the latest one that has, and
    // says which message that is.
    chat.type("#1");
    await chat.waitFor(/\(you pressed "Cancel" on #3\)\n#8 @gift_test_bot: Cancelled\./);
    // A named message's button can be pressed too.
    chat.type(":press 1 #2");
    await chat.waitFor(
      /\(you pressed "Stars" on #2\)\n#9 @gift_test_bot: Send the number of stars\./,
    );
    chat.type(":press 1 #8");
    await chat.waitFor(/\(message #8 has no buttons\)/);
    // The person's own message #4 can be replied to.
    chat.type(":reply 4 again");
    await chat.waitFor(/#10 Uma \(you\) \(reply to #4\): again\n#11 @gift_test_bot: Quoted #4/);
    expect(emu.callbackAnswers.map((answer) => answer.userId)).toEqual([
      DEMO_USER.id,
      DEMO_USER.id,
      DEMO_USER.id,
    ]);
  });

  it(":file sends a file from this computer as a document the bot downloads (getFile, /file/bot...)", async () => {
    const emu = await startEmulator();
    const bot = botFor(emu);
    bot.on("message:document", async (ctx) => {
      const file = await downloadListFile(
        { getFile: (id) => ctx.api.getFile(id), token: ctx.api.token },
        ctx.message.document,
        { apiRoot: emu.apiRoot },
      );
      await ctx.reply(file.kind === "ok" ? `Read: ${file.text.trim()}` : `Not read: ${file.kind}`);
    });
    await runBot(bot);
    const dir = tempDir("giftbot-terminal-file-");
    writeFileSync(join(dir, "winners.txt"), "alice_friend bob_gifts\n");
    writeFileSync(join(dir, "empty.txt"), "");

    const chat = chatOnStreams(emu.url, undefined);
    await chat.waitFor(/Type :help for commands\./);
    chat.type(`:file ${join(dir, "winners.txt")}`);
    await chat.waitFor(
      /#1 Uma \(you\): 📎 winners\.txt \(23 bytes\)\n#2 @gift_test_bot: Read: alice_friend bob_gifts/,
    );
    chat.type(`:file ${join(dir, "missing.txt")}`);
    await chat.waitFor(new RegExp(`\\(no file at ${join(dir, "missing.txt")}\\)`));
    chat.type(`:file ${join(dir, "empty.txt")}`);
    await chat.waitFor(
      /\(empty\.txt has 0 bytes: the terminal chat sends files of 1 byte to 512 KB\)/,
    );
    chat.type(":file");
    await chat.waitFor(/\(use :file <path>/);
    chat.type(":help");
    await chat.waitFor(/:file <path> +send a file from this computer/);
    expect(emu.chat(DEMO_USER.id).map((message) => message.text)).toEqual([
      "",
      "Read: alice_friend bob_gifts",
    ]);
  });
});
