import { describe, expect, it } from "vitest";
import { buttonsOf, chatPerson } from "../../tools/testing/chat-person.js";
import { testUser } from "../../tools/testing/updates.js";
import { answersSince, harness } from "../helpers/bot.js";

describe("premium flow against the sandbox", () => {
  it("in English: recipient, duration buttons, summary, confirm, delivered", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(201, { first_name: "Alice" }));

    await alice.command("start");
    await alice.pressButton("💎 Gift premium");
    expect(alice.lastMessage().text).toBe(
      "Who should get Telegram Premium? Send their @username or a t.me link.",
    );
    await alice.say("t.me/carol_p");
    const duration = alice.lastMessage();
    expect(duration.text).toBe("How long should @carol_p get Telegram Premium?");
    expect(buttonsOf(duration)).toEqual([["3 months", "6 months", "12 months"], ["✖️ Cancel"]]);
    await alice.say("6");
    expect(alice.lastMessage().text).toBe("Please choose with the buttons above, or /cancel.");

    await alice.pressButton("6 months");
    expect(buttonsOf(h.telegram.message(alice.chatId, duration.message_id))).toEqual([]);
    const summary = alice.lastMessage();
    expect(summary.text).toBe(
      [
        "Please check your gift:",
        "",
        "Recipient: @carol_p",
        "Gift: Telegram Premium for 6 months",
        "Payment: USDT on TON",
        "",
        "Nothing is bought until you press Confirm.",
      ].join("\n"),
    );
    expect(buttonsOf(summary)).toEqual([["✅ Confirm", "✖️ Cancel"], ["Pay with TON"]]);

    await alice.pressButton("✅ Confirm");
    const purchases = h.sandbox.purchaseRequests();
    expect(purchases).toHaveLength(1);
    expect(purchases[0]?.path).toBe("/buy-premium/");
    expect(purchases[0]?.form).toMatchObject({
      username: "carol_p",
      duration: "6",
      payment_method: "usdt_ton",
    });
    expect(h.telegram.message(alice.chatId, summary.message_id)?.text).toMatch(
      /^✅ Delivered: Telegram Premium for 6 months to @carol_p\.\nTransaction: https:\/\/tonviewer\.com\/transaction\/\S+$/,
    );
    await alice.command("history");
    expect(alice.lastMessage().text).toMatch(
      /: Telegram Premium for 6 months to @carol_p: delivered$/,
    );
  });

  it("in Russian, with month plurals", async () => {
    const h = await harness();
    const boris = chatPerson(h, testUser(202, { first_name: "Борис", language_code: "ru" }));
    await boris.command("premium");
    expect(boris.lastMessage().text).toBe(
      "Кому подарить Telegram Premium? Отправьте @username или ссылку t.me.",
    );
    await boris.say("@dasha_p");
    expect(boris.lastMessage().text).toBe("На какой срок подарить Telegram Premium для @dasha_p?");
    expect(buttonsOf(boris.lastMessage())).toEqual([
      ["3 месяца", "6 месяцев", "12 месяцев"],
      ["✖️ Отмена"],
    ]);
    await boris.pressButton("3 месяца");
    const summary = boris.lastMessage();
    expect(summary.text).toContain("Подарок: Telegram Premium на 3 месяца");
    await boris.pressButton("✅ Подтвердить");
    expect(h.sandbox.purchaseRequests()).toHaveLength(1);
    expect(h.telegram.message(boris.chatId, summary.message_id)?.text).toMatch(
      /^✅ Доставлено: Telegram Premium на 3 месяца для @dasha_p\./,
    );
  });

  it("refuses a recipient who already has premium before any summary, with zero purchases", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(203));
    await alice.command("premium");
    await alice.say("@premium_eve");
    expect(alice.lastMessage().text).toBe(
      "@premium_eve already has Telegram Premium, so it cannot be gifted to them now. Send another username, or /cancel.",
    );
    h.sandbox.setUser("frank_x", { isPremium: true });
    await alice.say("frank_x");
    expect(alice.lastMessage().text).toMatch(/^@frank_x already has Telegram Premium/);
    expect(alice.messages().some((m) => m.text?.startsWith("Please check your gift"))).toBe(false);
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);

    // The person can still pick someone else.
    await alice.say("grace_y");
    expect(alice.lastMessage().text).toBe("How long should @grace_y get Telegram Premium?");
  });

  it("refuses at confirmation when the recipient got premium since an old summary", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(204));
    await alice.command("premium");
    await alice.say("henry_z");
    await alice.pressButton("12 months");
    const summary = alice.lastMessage();
    h.sandbox.setUser("henry_z", { isPremium: true });
    h.clock.advance(2 * 60_000);
    const before = h.telegram.mark();
    await alice.pressButton("✅ Confirm");
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);
    expect(answersSince(h, before)).toHaveLength(1);
    expect(h.telegram.message(alice.chatId, summary.message_id)?.text).toBe(
      [
        "Recipient: @henry_z",
        "Gift: Telegram Premium for 12 months",
        "",
        "@henry_z already has Telegram Premium. Nothing was bought.",
      ].join("\n"),
    );
  });

  it("/premium @name and /stars @name in a private chat take the name, as a group does", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(205));
    await alice.command("premium", "@carol_p");
    expect(alice.lastMessage().text).toBe("How long should @carol_p get Telegram Premium?");
    await alice.pressButton("6 months");
    expect(alice.lastMessage().text).toContain("Gift: Telegram Premium for 6 months");

    await alice.command("stars", "t.me/bob_gifts");
    expect(alice.lastMessage().text).toBe(
      "How many stars for @bob_gifts? Up to 10,000 in one gift.",
    );
  });

  it("/premium @name with a name that will not do: says why, with Cancel, then asks on", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(206));
    await alice.command("premium", "@nobody_here");
    const problem = alice.lastMessage();
    expect(problem.text).toBe(
      "I could not find @nobody_here. Check the spelling and send the username again, or /cancel.",
    );
    expect(buttonsOf(problem)).toEqual([["✖️ Cancel"]]);
    await alice.say("carol_p");
    expect(alice.lastMessage().text).toBe("How long should @carol_p get Telegram Premium?");
    expect(buttonsOf(h.telegram.message(alice.chatId, problem.message_id))).toEqual([]);
  });
});
