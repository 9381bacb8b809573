import { describe, expect, it } from "vitest";
import { buttonsOf, chatPerson } from "../../tools/testing/chat-person.js";
import { testUser } from "../../tools/testing/updates.js";
import { harness } from "../helpers/bot.js";

describe("stars flow against the sandbox", () => {
  it("in English: greeting, recipient, amount, summary, confirm, delivered", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(101, { first_name: "Alice", language_code: "en-GB" }));

    await alice.command("start");
    expect(alice.lastMessage().text).toBe(
      "Hi, Alice! I can gift Telegram Stars or Telegram Premium to anyone with a @username. What would you like to do?",
    );
    expect(buttonsOf(alice.lastMessage())).toEqual([["⭐ Gift stars", "💎 Gift premium"]]);

    await alice.pressButton("⭐ Gift stars");
    const ask = alice.lastMessage();
    expect(ask.text).toBe("Who should get the stars? Send their @username or a t.me link.");
    expect(buttonsOf(ask)).toEqual([["✖️ Cancel"]]);

    await alice.say("not a name!");
    expect(alice.lastMessage().text).toMatch(/^That does not look like a username\./);
    await alice.say("nobody_here");
    expect(alice.lastMessage().text).toBe(
      "I could not find @nobody_here. Check the spelling and send the username again, or /cancel.",
    );

    await alice.say("https://t.me/bob_gifts");
    expect(buttonsOf(h.telegram.message(alice.chatId, ask.message_id))).toEqual([]);
    const amount = alice.lastMessage();
    expect(amount.text).toBe("How many stars for @bob_gifts? Up to 10,000 in one gift.");
    expect(buttonsOf(amount)).toEqual([
      ["⭐ 50", "⭐ 100", "⭐ 250"],
      ["⭐ 500", "⭐ 1,000", "⭐ 2,500"],
      ["Another amount"],
      ["✖️ Cancel"],
    ]);

    await alice.pressButton("Another amount");
    expect(buttonsOf(h.telegram.message(alice.chatId, amount.message_id))).toEqual([]);
    expect(alice.lastMessage().text).toBe(
      "Send the number of stars: a whole number from 50 to 10,000.",
    );
    await alice.say("49");
    expect(alice.lastMessage().text).toBe(
      "That is not a whole number from 50 to 10,000. Please send the number of stars again.",
    );
    await alice.say("12.5");
    expect(alice.lastMessage().text).toMatch(/^That is not a whole number/);
    await alice.say("1,500");

    const summary = alice.lastMessage();
    expect(summary.text).toBe(
      [
        "Please check your gift:",
        "",
        "Recipient: @bob_gifts",
        "Gift: 1,500 Telegram Stars",
        "Payment: USDT on TON",
        "",
        "Nothing is bought until you press Confirm.",
      ].join("\n"),
    );
    expect(buttonsOf(summary)).toEqual([["✅ Confirm", "✖️ Cancel"], ["Pay with TON"]]);
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);

    await alice.pressButton("Pay with TON");
    expect(h.telegram.message(alice.chatId, summary.message_id)?.text).toContain("Payment: TON");
    expect(buttonsOf(h.telegram.message(alice.chatId, summary.message_id))).toEqual([
      ["✅ Confirm", "✖️ Cancel"],
      ["Pay with USDT on TON"],
    ]);

    const before = h.telegram.mark();
    await alice.pressButton("✅ Confirm");
    const purchases = h.sandbox.purchaseRequests();
    expect(purchases).toHaveLength(1);
    expect(purchases[0]?.form).toMatchObject({
      username: "bob_gifts",
      amount: "1500",
      payment_method: "ton",
    });
    const calls = alice.callsSince(before);
    // The receipt goes at once, final: purchases are public in the harness, so what the gift
    // cost is the operator's (SHOW_BALANCE_TO unset), and no edit adds it.
    expect(calls.map((c) => c.method)).toEqual([
      "answerCallbackQuery",
      "editMessageText",
      "editMessageText",
    ]);
    expect(calls[0]?.payload.text).toBe("⏳ Sending your gift…");
    // Purchases are public in the harness: no balance line for a buyer.
    expect(calls[1]?.payload.text).toMatch(/Payment: TON\n\n⏳ Sending your gift…$/);
    expect(calls[1]?.payload.reply_markup).toBeUndefined();
    expect(calls[2]?.payload.text).toMatch(
      /^✅ Delivered: 1,500 Telegram Stars to @bob_gifts\.\nTransaction: /,
    );
    const outcome = h.telegram.message(alice.chatId, summary.message_id);
    expect(outcome?.text).toMatch(
      /^✅ Delivered: 1,500 Telegram Stars to @bob_gifts\.\nTransaction: https:\/\/tonviewer\.com\/transaction\/\S+$/,
    );
    // Measured all the same, for the admins and the accounts.
    await h.desk.settled();
    expect((await h.records.recent({ limit: 1 }))[0]?.cost).toMatchObject({ amount: "5.625" });
    expect(buttonsOf(outcome)).toEqual([]);

    await alice.command("history");
    expect(alice.lastMessage().text).toMatch(
      /^Your recent gifts:\n\n.+: 1,500 Telegram Stars to @bob_gifts: delivered$/,
    );
  });

  it("in Russian, with the amount from a button", async () => {
    const h = await harness();
    const boris = chatPerson(h, testUser(102, { first_name: "Борис", language_code: "ru" }));

    await boris.command("stars");
    expect(boris.lastMessage().text).toBe(
      "Кому подарить звёзды? Отправьте @username или ссылку t.me.",
    );
    expect(buttonsOf(boris.lastMessage())).toEqual([["✖️ Отмена"]]);
    await boris.say("@anna_ru");
    expect(boris.lastMessage().text).toBe(
      "Сколько звёзд подарить @anna_ru? Не больше 10\u00a0000 за один подарок.",
    );
    expect(buttonsOf(boris.lastMessage())).toEqual([
      ["⭐ 50", "⭐ 100", "⭐ 250"],
      ["⭐ 500", "⭐ 1\u00a0000", "⭐ 2\u00a0500"],
      ["Другое количество"],
      ["✖️ Отмена"],
    ]);
    await boris.pressButton("⭐ 1\u00a0000");
    const summary = boris.lastMessage();
    expect(summary.text).toBe(
      [
        "Проверьте подарок:",
        "",
        "Получатель: @anna_ru",
        "Подарок: 1\u00a0000 Telegram Stars",
        "Оплата: USDT в сети TON",
        "",
        "Ничего не будет куплено, пока вы не нажмёте «Подтвердить».",
      ].join("\n"),
    );
    expect(buttonsOf(summary)).toEqual([
      ["✅ Подтвердить", "✖️ Отмена"],
      ["Сменить оплату на TON"],
    ]);

    await boris.pressButton("✅ Подтвердить");
    expect(h.sandbox.purchaseRequests()).toHaveLength(1);
    expect(h.telegram.message(boris.chatId, summary.message_id)?.text).toMatch(
      /^✅ Доставлено: 1\u00a0000 Telegram Stars для @anna_ru\.\nТранзакция: https:\/\/tonviewer\.com\/transaction\/\S+$/,
    );
    await boris.command("history");
    expect(boris.lastMessage().text).toMatch(/1\u00a0000 Telegram Stars для @anna_ru: доставлен$/);
  });
});
