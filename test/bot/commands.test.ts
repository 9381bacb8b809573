import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buttonsOf, chatPerson } from "../../tools/testing/chat-person.js";
import { testUser } from "../../tools/testing/updates.js";
import { encodeMenu } from "../../src/bot/callback-data/menu.js";
import { PRIVATE_COMMANDS } from "../../src/bot/commands.js";
import { ADMIN_COMMANDS } from "../../src/bot/features/admin/command-menu.js";
import { answersSince, harness } from "../helpers/bot.js";

describe("commands", () => {
  it("/start and /help follow the Telegram language; unknown languages get English", async () => {
    const h = await harness();
    const ru = chatPerson(h, testUser(801, { first_name: "Ира", language_code: "ru-RU" }));
    const de = chatPerson(h, testUser(802, { first_name: "Jan", language_code: "de" }));
    await ru.command("start");
    expect(ru.lastMessage().text).toBe(
      "Здравствуйте, Ира! Я дарю Telegram Stars и Telegram Premium любому, у кого есть @username. Что вы хотите сделать?",
    );
    expect(buttonsOf(ru.lastMessage())).toEqual([["⭐ Подарить звёзды", "💎 Подарить Premium"]]);
    await ru.command("help");
    expect(ru.lastMessage().text).toMatch(
      /^Я дарю Telegram Stars и Telegram Premium по @username\./,
    );
    await de.command("start");
    expect(de.lastMessage().text).toMatch(/^Hi, Jan!/);
    await de.command("help");
    expect(de.lastMessage().text).toContain("/cancel: stop at any step");
  });

  it("/language overrides the Telegram language and is remembered", async () => {
    const h = await harness();
    const ira = chatPerson(h, testUser(803, { language_code: "ru" }));
    await ira.command("language");
    expect(ira.lastMessage().text).toBe("Выберите язык:");
    const before = h.telegram.mark();
    await ira.pressButton("English");
    expect(answersSince(h, before)).toEqual(["From now on I will speak English."]);
    expect(ira.lastMessage().text).toBe("From now on I will speak English.");
    expect(buttonsOf(ira.lastMessage())).toEqual([]);
    await ira.command("history");
    expect(ira.lastMessage().text).toBe("You have not sent any gifts yet. Try /stars or /premium.");
  });

  it("/help, /language and /history answer mid-flow and the flow goes on", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(804));
    await alice.command("stars");
    await alice.command("help");
    expect(alice.lastMessage().text).toMatch(/^I gift Telegram Stars/);
    await alice.command("language");
    await alice.pressButton("Русский");
    await alice.command("history");
    expect(alice.lastMessage().text).toBe(
      "Вы ещё не отправляли подарков. Попробуйте /stars или /premium.",
    );
    await alice.say("bob_gifts");
    expect(alice.lastMessage().text).toBe(
      "Сколько звёзд подарить @bob_gifts? Не больше 10\u00a0000 за один подарок.",
    );
  });

  it("/start mid-flow leaves the flow; /stars or /premium mid-flow starts afresh", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(805));
    await alice.command("stars");
    const first = alice.lastMessage();
    await alice.command("start");
    expect(alice.lastMessage().text).toMatch(/^Hi, /);
    expect(buttonsOf(h.telegram.message(alice.chatId, first.message_id))).toEqual([]);
    // The flow is over: the username is not taken as a step, only the fallback answers.
    await alice.say("bob_gifts");
    expect(alice.lastMessage().text).toBe(
      "I did not understand: start with /stars or /premium, or see /help.",
    );
    expect(h.sandbox.requests).toHaveLength(0);

    await alice.command("stars");
    await alice.say("bob_gifts");
    await alice.command("premium");
    expect(alice.lastMessage().text).toBe(
      "Who should get Telegram Premium? Send their @username or a t.me link.",
    );
    await alice.say("bob_gifts");
    expect(alice.lastMessage().text).toBe("How long should @bob_gifts get Telegram Premium?");
    await alice.pressButton("💎 Gift premium");
    expect(alice.lastMessage().text).toBe(
      "Who should get Telegram Premium? Send their @username or a t.me link.",
    );
  });

  it("non-text messages in a flow get a hint; /history lists only the person's own gifts", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(806));
    const bob = chatPerson(h, testUser(807));
    await alice.command("stars");
    const sticker = h.updates.text(alice.user, "x");
    if (sticker.message) {
      // A sticker has no text: the same update shape Telegram sends, minus `text`.
      const { text: _text, ...rest } = sticker.message;
      await h.send({ ...sticker, message: { ...rest, sticker: { file_id: "s" } } as never });
    }
    expect(alice.lastMessage().text).toBe(
      "Please send the username as a text message, or /cancel.",
    );
    await alice.say("bob_gifts");
    await alice.pressButton("⭐ 50");
    await alice.pressButton("✅ Confirm");
    await bob.command("history");
    expect(bob.lastMessage().text).toBe("You have not sent any gifts yet. Try /stars or /premium.");
    await alice.command("history");
    expect(alice.lastMessage().text).toMatch(/50 Telegram Stars to @bob_gifts: delivered$/);
  });

  it("the access check refuses before anything is asked upstream", async () => {
    const h = await harness({
      canBuy: (ctx, request) =>
        ctx.from?.id === 809 && request.stage === "start" ? { allowed: true } : { allowed: false },
    });
    const stranger = chatPerson(h, testUser(808));
    await stranger.command("stars");
    expect(stranger.lastMessage().text).toBe(
      "Purchases are not open to you. Please ask the bot's admins for access.",
    );
    await stranger.command("start");
    expect(stranger.lastMessage().text).toMatch(/^Purchases are not open to you/);
    await stranger.press(encodeMenu("premium"), stranger.lastMessage().message_id);
    expect(stranger.lastMessage().text).toMatch(/^Purchases are not open to you/);
    expect(h.sandbox.requests).toHaveLength(0);

    // Allowed to start, refused at confirmation (e.g. access revoked meanwhile).
    const buyer = chatPerson(h, testUser(809));
    await buyer.starsSummary("bob_gifts", "⭐ 50");
    const before = h.telegram.mark();
    await buyer.pressButton("✅ Confirm");
    expect(answersSince(h, before)).toEqual([
      "Purchases are not open to you. Please ask the bot's admins for access.",
    ]);
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);
  });
});

describe("the README", () => {
  it("lists every command, for buyers and for admins", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const section = readme.slice(readme.indexOf("## Commands"), readme.indexOf("## How money"));
    for (const command of [...PRIVATE_COMMANDS, ...ADMIN_COMMANDS, "allowchat", "denychat"]) {
      expect(section).toContain(`\`/${command}`);
    }
  });
});
