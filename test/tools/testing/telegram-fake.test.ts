import { Api } from "grammy";
import { describe, expect, it } from "vitest";
import { createTelegramFake, keyboardOf } from "../../../tools/testing/telegram-fake.js";
import { createUpdateFactory, testUser } from "../../../tools/testing/updates.js";

describe("the Telegram fake", () => {
  it("records every call in order and answers like Telegram", async () => {
    const telegram = createTelegramFake();
    const api = new Api("123:TEST", { fetch: telegram.fetch });
    const first = await api.sendMessage(42, "one", {
      reply_markup: { inline_keyboard: [[{ text: "A", callback_data: "a" }]] },
    });
    const second = await api.sendMessage(42, "two");
    const elsewhere = await api.sendMessage(43, "three");
    expect(second.message_id).toBe(first.message_id + 1);
    expect(elsewhere.message_id).toBe(first.message_id);
    expect(first.chat.id).toBe(42);

    await api.editMessageText(42, first.message_id, "one, edited");
    expect(telegram.message(42, first.message_id)?.text).toBe("one, edited");
    // Editing the text without a keyboard removes it, as Telegram does.
    expect(telegram.message(42, first.message_id)?.reply_markup).toBeUndefined();
    await expect(api.editMessageText(42, 9999, "x")).rejects.toThrow(/message to edit not found/);

    expect(await api.answerCallbackQuery("q1", { text: "ok" })).toBe(true);
    expect(telegram.calls.map((c) => c.method)).toEqual([
      "sendMessage",
      "sendMessage",
      "sendMessage",
      "editMessageText",
      "editMessageText",
      "answerCallbackQuery",
    ]);
    expect(keyboardOf(telegram.calls[0])).toEqual([[["A", "a"]]]);
    expect(telegram.messagesIn(42).map((m) => m.text)).toEqual(["one, edited", "two"]);
  });

  it("gives canned answers (getChatMember) and waits for calls by event", async () => {
    const telegram = createTelegramFake({
      answers: {
        getChatMember: (payload) => ({
          ok: true,
          result: {
            status: "administrator",
            user: { id: payload.user_id, is_bot: false, first_name: "A" },
          },
        }),
      },
    });
    const api = new Api("123:TEST", { fetch: telegram.fetch });
    const waiting = telegram.waitForCall((c) => c.method === "sendChatAction");
    const member = await api.getChatMember(-100, 7);
    expect(member.status).toBe("administrator");
    await api.sendChatAction(1, "typing");
    expect((await waiting).payload).toEqual({ chat_id: 1, action: "typing" });
    const mark = telegram.mark();
    await api.sendMessage(1, "later");
    expect(telegram.callsSince(mark).map((c) => c.method)).toEqual(["sendMessage"]);
    telegram.answer("sendMessage", () => ({
      ok: false,
      error_code: 403,
      description: "Forbidden: bot was blocked by the user",
    }));
    await expect(api.sendMessage(1, "x")).rejects.toThrow(/blocked/);
  });
});

describe("update factories", () => {
  it("build commands with bot_command entities and callback queries with their message", () => {
    const updates = createUpdateFactory(10);
    const alice = testUser(5, { language_code: "ru" });
    const command = updates.command(alice, "stars", "now");
    expect(command.update_id).toBe(10);
    expect(command.message?.text).toBe("/stars now");
    expect(command.message?.entities).toEqual([{ type: "bot_command", offset: 0, length: 6 }]);
    expect(command.message?.chat).toMatchObject({ id: 5, type: "private" });
    expect(updates.text(alice, "hello").message?.entities).toBeUndefined();
    const press = updates.callback(alice, "menu:stars", 1001);
    expect(press.update_id).toBe(12);
    expect(press.callback_query).toMatchObject({
      from: alice,
      data: "menu:stars",
      message: { message_id: 1001, chat: { id: 5 } },
    });
    expect(press.callback_query?.chat_instance).toBeTruthy();
  });
});

describe("group updates", () => {
  it("carry the group chat, the command entity and the replied-to member", () => {
    const updates = createUpdateFactory();
    const admin = testUser(1);
    const member = testUser(2, { username: "member_two" });
    const update = updates.groupText(admin, -1001, "/premium", { from: member, text: "hi" });
    expect(update.message?.chat).toMatchObject({ id: -1001, type: "supergroup" });
    expect(update.message?.entities).toEqual([{ type: "bot_command", offset: 0, length: 8 }]);
    expect(update.message?.reply_to_message?.from).toEqual(member);
  });
});
