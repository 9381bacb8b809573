/**
 * Limits, pause and access said early and exactly: the amount prompt asks within what this
 * person may still buy today, a paused bot says so when a flow starts and in the summary (in
 * the chat, not only in a toast), a refused claim never shows "sending", and a person without
 * access gets the access message at /start.
 */
import { describe, expect, it } from "vitest";
import { buttonsOf, type ChatPerson, chatPerson } from "../../../tools/testing/chat-person.js";
import { testUser } from "../../../tools/testing/updates.js";
import { ADMIN, ADMIN2, adminWorld, BUYER, STRANGER } from "../../helpers/admin-bot.js";
import type { BotHarness } from "../../../tools/testing/bot-harness.js";
import { answersSince, harness } from "../../helpers/bot.js";

async function buyTyped(person: ChatPerson, recipient: string, amount: number) {
  await person.command("stars");
  await person.say(recipient);
  await person.pressButton("Another amount");
  await person.say(String(amount));
  await person.pressButton("✅ Confirm");
}

describe("the amount is asked within what is left today", () => {
  it("says what is left, offers only presets within it, and refuses more when typed", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(701));
    await buyTyped(alice, "bob_gifts", 235);
    expect(alice.lastMessage().text).toMatch(/^✅ Delivered: 235 Telegram Stars/);

    await alice.command("stars");
    await alice.say("bob_gifts");
    expect(alice.lastMessage().text).toBe("How many stars for @bob_gifts? 9,765 stars left today.");
    await alice.pressButton("Another amount");
    expect(alice.lastMessage().text).toBe(
      "Send the number of stars: a whole number from 50 to 9,765.",
    );
    await alice.say("10000");
    expect(alice.lastMessage().text).toBe(
      "That is not a whole number from 50 to 9,765. Please send the number of stars again.",
    );
    await alice.say("9765");
    expect(alice.lastMessage().text).toContain("Gift: 9,765 Telegram Stars");
    await alice.pressButton("✅ Confirm");
    expect(alice.lastMessage().text).toMatch(/^✅ Delivered: 9,765 Telegram Stars/);

    // Nothing is left: the next flow says so at once, with the reset time, and asks nothing.
    await h.desk.settled();
    const mark = h.sandbox.requests.length;
    await alice.command("stars");
    expect(alice.lastMessage().text).toMatch(
      /^Nothing more can be gifted today under the limit "your stars per day": 0 of 10,000 left, less than the smallest gift\. It resets on .+ UTC\.$/,
    );
    expect(buttonsOf(alice.lastMessage())).toEqual([]);
    expect(h.sandbox.requests.length).toBe(mark);
  });

  it("used up while the recipient was asked: the flow ends saying why, never asking 50 to 20", async () => {
    const h = await harness({ limits: { starsPerBotDay: 120 } });
    const alice = chatPerson(h, testUser(705));
    const carl = chatPerson(h, testUser(706));
    await carl.command("stars");
    await buyTyped(alice, "bob_gifts", 100);
    expect(alice.lastMessage().text).toMatch(/^✅ Delivered: 100 Telegram Stars/);
    await carl.say("bob_gifts");
    expect(carl.lastMessage().text).toMatch(
      /^Nothing more can be gifted today under the limit .+: 20 of 120 left, less than the smallest gift\. It resets on .+ UTC\.$/,
    );
    expect(buttonsOf(carl.lastMessage())).toEqual([]);
    // The flow is over: a number now is not an amount (a live flow would ask again for one).
    await carl.say("50");
    expect(carl.lastMessage().text).toBe(
      "I did not understand: start with /stars or /premium, or see /help.",
    );
    expect(await h.records.recent({ userId: 706, limit: 5 })).toEqual([]);
  });

  it("hides the presets above what is left; in Russian too", async () => {
    const h = await harness({ limits: { starsPerUserDay: 600 } });
    const ira = chatPerson(h, testUser(702, { language_code: "ru" }));
    await ira.command("stars");
    await ira.say("bob_gifts");
    await ira.pressButton("Другое количество");
    await ira.say("235");
    await ira.pressButton("✅ Подтвердить");
    await ira.command("stars");
    await ira.say("bob_gifts");
    expect(ira.lastMessage().text).toBe(
      "Сколько звёзд подарить @bob_gifts? Сегодня можно подарить ещё 365.",
    );
    expect(buttonsOf(ira.lastMessage())).toEqual([
      ["⭐ 50", "⭐ 100", "⭐ 250"],
      ["Другое количество"],
      ["✖️ Отмена"],
    ]);
  });

  it("a claim refused for what changed in between never shows 'sending'", async () => {
    const h = await harness({ limits: { starsPerBotDay: 150 } });
    const alice = chatPerson(h, testUser(703));
    const carl = chatPerson(h, testUser(704));
    for (const person of [alice, carl]) {
      await person.starsSummary("bob_gifts", "⭐ 100");
    }
    await alice.pressButton("✅ Confirm");
    const summary = carl.lastMessage();
    const before = h.telegram.mark();
    await carl.pressButton("✅ Confirm");
    const shown = carl
      .callsSince(before)
      .map((call) => (typeof call.payload.text === "string" ? call.payload.text : ""))
      .join("\n");
    expect(shown).not.toContain("Sending");
    const [toast] = answersSince(h, before);
    expect(toast).toMatch(
      /^This gift is more than is left today under the limit "stars per day for everyone": 50 of 150 left\. It resets on (.+) UTC\.$/,
    );
    // The reset named is the next UTC midnight of the test's clock.
    const named = /resets on (.+) UTC\.$/.exec(toast ?? "")?.[1] ?? "";
    const day = 86_400_000;
    expect(Date.parse(`${named.replace(/, (\d{2}:\d{2})$/, " $1")} UTC`)).toBe(
      Math.floor(h.clock() / day) * day + day,
    );
    expect(h.telegram.message(carl.chatId, summary.message_id)?.text).toMatch(
      /Nothing was bought: this gift is more than is left today/,
    );
    expect(h.sandbox.purchaseRequests()).toHaveLength(1);
  });

  it("an allowed claim says 'sending' once it has won, then the outcome", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(705));
    await alice.starsSummary("bob_gifts", "⭐ 50");
    const before = h.telegram.mark();
    await alice.pressButton("✅ Confirm");
    expect(answersSince(h, before)).toEqual(["⏳ Sending your gift…"]);
    const edits = alice
      .callsSince(before)
      .filter((call) => call.method === "editMessageText")
      .map((call) => String(call.payload.text));
    expect(edits[0]).toMatch(/⏳ Sending your gift…$/);
    expect(edits.at(-1)).toMatch(/^✅ Delivered: 50 Telegram Stars/);
  });
});

describe("paused purchases are said early, in the chat", () => {
  it("at the flow's start, in a summary shown while paused, and at Confirm", async () => {
    const { h } = await adminWorld();
    const ada = chatPerson(h, ADMIN);
    const bea = chatPerson(h, BUYER);
    await ada.command("pause");

    const mark = h.sandbox.requests.length;
    await bea.command("stars");
    expect(bea.lastMessage().text).toBe(
      "⏸ Purchases are paused by the admins for now, so nothing can be bought. Please try again later.",
    );
    await bea.command("premium");
    expect(bea.lastMessage().text).toMatch(/^⏸ Purchases are paused/);
    expect(h.sandbox.requests.length).toBe(mark);

    // Paused while the flow was under way: the summary says so and stays confirmable.
    await ada.command("resume");
    await bea.command("stars");
    await bea.say("bob_gifts");
    await ada.command("pause");
    await bea.pressButton("⭐ 50");
    const summary = bea.lastMessage();
    expect(summary.text).toMatch(
      /\n⏸ Purchases are paused by the admins for now: Confirm works again once they reopen them\.$/,
    );
    expect(buttonsOf(summary)[0]).toEqual(["✅ Confirm", "✖️ Cancel"]);

    // Confirm while paused: the toast and the summary both say it; the buttons stay.
    const before = h.telegram.mark();
    await bea.pressButton("✅ Confirm");
    expect(answersSince(h, before)).toEqual(["Purchases are paused by the admins for now."]);
    const after = h.telegram.message(bea.chatId, summary.message_id);
    expect(after?.text).toMatch(/⏸ Purchases are paused by the admins for now: Confirm works/);
    expect(buttonsOf(after)[0]).toEqual(["✅ Confirm", "✖️ Cancel"]);
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);

    await ada.command("resume");
    await bea.pressButton("✅ Confirm");
    expect(h.telegram.message(bea.chatId, summary.message_id)?.text).toMatch(/^✅ Delivered/);
  });
});

describe("a person without access", () => {
  it("gets the access message and their id at /start, without the gift buttons", async () => {
    const { h } = await adminWorld();
    const sam = chatPerson(h, STRANGER);
    await sam.command("start");
    expect(sam.lastMessage().text).toBe(
      `Purchases are not open to you. To get access, ask the bot's admins and give them your user id: ${STRANGER.id}.`,
    );
    expect(buttonsOf(sam.lastMessage())).toEqual([]);
    const bea = chatPerson(h, BUYER);
    await bea.command("start");
    expect(buttonsOf(bea.lastMessage())).toEqual([["⭐ Gift stars", "💎 Gift premium"]]);
  });
});

/** Three purchases the service refuses for a reason that is not the buyer's: the breaker opens. */
async function tripBreaker(h: BotHarness, buyer: ChatPerson): Promise<void> {
  h.sandbox.injectFault(
    {
      type: "status",
      status: 400,
      body: { ok: false, error: "UPSTREAM_FAILED", reason: "fragment returned an error page" },
    },
    { path: "/buy-stars/", times: 3 },
  );
  for (const recipient of ["alice_friend", "bob_friend", "carol_friend"]) {
    await buyTyped(buyer, recipient, 50);
  }
  expect((await h.records.pauseReason())?.source).toBe("breaker");
}

describe("purchases waiting for the admins are said when a flow starts", () => {
  it("paused by the breaker: the flow starts, its first prompt and the summary say why Confirm waits", async () => {
    const { h } = await adminWorld();
    const bea = chatPerson(h, BUYER);
    await tripBreaker(h, bea);

    await bea.command("stars");
    expect(bea.lastMessage().text).toBe(
      "⏸ Purchases are paused for now: the service refused the last purchases and the admins have been told. You can still prepare a gift; Confirm works again once they reopen purchases.\n\n" +
        "Who should get the stars? Send their @username or a t.me link.",
    );
    await bea.say("dave_friend");
    await bea.pressButton("⭐ 50");
    const summary = bea.lastMessage();
    expect(summary.text).toMatch(
      /\n⏸ Purchases are paused for now \(the service refused the last purchases; the admins have been told\): Confirm works again once they reopen them\.$/,
    );
    expect(buttonsOf(summary)[0]).toEqual(["✅ Confirm", "✖️ Cancel"]);

    const before = h.telegram.mark();
    await bea.pressButton("✅ Confirm");
    expect(answersSince(h, before)).toEqual([
      "Purchases are paused for now: the service refused the last purchases and the admins have been told. Nothing was spent.",
    ]);
    expect(h.sandbox.purchaseRequests()).toHaveLength(3);

    await chatPerson(h, ADMIN).command("resume");
    await bea.pressButton("✅ Confirm");
    expect(h.telegram.message(bea.chatId, summary.message_id)?.text).toMatch(
      /^✅ Delivered: 50 Telegram Stars to @dave_friend/,
    );
  });

  it("on hold for an unknown outcome: the flow starts and says so first, in Russian too", async () => {
    const { h, features } = await adminWorld();
    const bea = chatPerson(h, BUYER);
    h.sandbox.injectFault({ type: "unconfirmed" }, { path: "/buy-stars/" });
    await buyTyped(bea, "bob_gifts", 50);
    await features.idle();
    expect((await h.records.status()).unconfirmed).toBe(1);

    await bea.command("premium");
    expect(bea.lastMessage().text).toBe(
      "⏸ Purchases are on hold while the admins check an earlier gift. You can still prepare a gift; Confirm works again once they are done.\n\n" +
        "Who should get Telegram Premium? Send their @username or a t.me link.",
    );
    const boris = chatPerson(h, ADMIN2);
    await boris.command("stars");
    expect(boris.lastMessage().text).toMatch(
      /^⏸ Покупки приостановлены, пока администраторы проверяют предыдущий подарок\. .+\n\nКому/,
    );
  });
});
