import { describe, expect, it } from "vitest";
import { buttonsOf, type ChatPerson, chatPerson } from "../../tools/testing/chat-person.js";
import { testUser } from "../../tools/testing/updates.js";
import { answersSince, harness } from "../helpers/bot.js";

function toSummary(person: ChatPerson, amountLabel = "⭐ 100") {
  return person.starsSummary("bob_gifts", amountLabel);
}

describe("what a person sees for each outcome", () => {
  it("refused by the service: the buyer's sentence for the wallet, and that nothing was spent", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(601));
    const summary = await toSummary(alice);
    h.sandbox.injectFault(
      { type: "status", status: 400, body: { ok: false, error: "Not enough funds on the wallet" } },
      { path: "/buy-stars/" },
    );
    await alice.pressButton("✅ Confirm");
    expect(h.telegram.message(alice.chatId, summary.message_id)?.text).toBe(
      [
        "Recipient: @bob_gifts",
        "Gift: 100 Telegram Stars",
        "",
        "❌ The shop cannot buy gifts right now, and the admins have been told. Nothing was spent. Please try again later.",
      ].join("\n"),
    );
    expect(h.sandbox.purchaseRequests()).toHaveLength(1);
  });

  it("unconfirmed: do not try again, the admins are checking; a second press buys nothing", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(602, { language_code: "ru" }));
    // Someone else reached a summary before purchases froze.
    const zoe = chatPerson(h, testUser(612, { language_code: "ru" }));
    const second = await toSummary(zoe);
    const summary = await toSummary(alice);
    const confirm = alice.findButton("✅ Подтвердить");
    h.sandbox.injectFault({ type: "unconfirmed" }, { path: "/buy-stars/" });
    await alice.press(confirm.data, confirm.messageId);
    expect(h.telegram.message(alice.chatId, summary.message_id)?.text).toBe(
      [
        "Получатель: @bob_gifts",
        "Подарок: 100 Telegram Stars",
        "",
        "⚠️ Результат неизвестен. Не пытайтесь повторить: администраторы проверяют и всё уладят.",
      ].join("\n"),
    );
    const before = h.telegram.mark();
    await alice.press(confirm.data, confirm.messageId);
    expect(answersSince(h, before)).toEqual(["Этот подарок уже обработан."]);
    expect(h.sandbox.purchaseRequests()).toHaveLength(1);

    // Purchases are now frozen for everyone until an admin settles it.
    const after = h.telegram.mark();
    await zoe.pressButton("✅ Подтвердить");
    expect(answersSince(h, after)).toEqual([
      "Покупки приостановлены, пока администраторы проверяют предыдущий подарок.",
    ]);
    expect(buttonsOf(h.telegram.message(zoe.chatId, second.message_id))[0]).toEqual([
      "✅ Подтвердить",
      "✖️ Отмена",
    ]);
    expect(h.sandbox.purchaseRequests()).toHaveLength(1);
  });

  it("a purchase answered 429: outcome unknown, with how long the service asked to wait", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(603));
    const summary = await toSummary(alice);
    h.sandbox.injectFault(
      {
        type: "status",
        status: 429,
        body: { ok: false, error: "FLOOD_WAIT", retry_after: 30 },
        headers: { "Retry-After": "30" },
      },
      { path: "/buy-stars/" },
    );
    await alice.pressButton("✅ Confirm");
    expect(h.telegram.message(alice.chatId, summary.message_id)?.text).toMatch(
      /⚠️ The outcome is unknown\. Do not try again: the admins are checking and will settle it\.\nThe service also asked to wait 30 s before any new request\.$/,
    );
    expect(h.sandbox.purchaseRequests()).toHaveLength(1);
  });

  it("the bot stopping before the purchase had its quota slot: nothing claimed, the summary says so and keeps its buttons", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(605, { language_code: "ru" }));
    const summary = await toSummary(alice);
    h.client.stopPurchases();
    await alice.pressButton("✅ Подтвердить");
    const shown = h.telegram.message(alice.chatId, summary.message_id);
    expect(shown?.text).toContain(
      "Ничего не куплено: бот перезапускается; нажмите «Подтвердить» ещё раз через минуту.",
    );
    expect(buttonsOf(shown)[0]).toEqual(["✅ Подтвердить", "✖️ Отмена"]);
    const intent = (await h.records.recent({ limit: 1 }))[0];
    expect(intent?.status).toBe("draft");
    expect((await h.records.history(intent?.id ?? "")).map((change) => change.to)).toEqual([
      "draft",
    ]);
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);
  });

  it("paused by the admins: answered, the summary keeps its buttons, nothing sent", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(604));
    const summary = await toSummary(alice);
    await h.desk.admin.pause(1);
    const before = h.telegram.mark();
    await alice.pressButton("✅ Confirm");
    expect(answersSince(h, before)).toEqual(["Purchases are paused by the admins for now."]);
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);
    await h.desk.admin.resume(1);
    await alice.press(alice.findButton("✅ Confirm").data, summary.message_id);
    expect(h.sandbox.purchaseRequests()).toHaveLength(1);
  });

  it("a spending limit: which one, and when it resets", async () => {
    const h = await harness({ limits: { starsPerBotDay: 150 } });
    const alice = chatPerson(h, testUser(605));
    const carl = chatPerson(h, testUser(615));
    const first = await toSummary(alice);
    // Both summaries were within the limit when they were shown.
    const second = await toSummary(carl);
    await alice.pressButton("✅ Confirm");
    expect(h.telegram.message(alice.chatId, first.message_id)?.text).toMatch(/^✅ Delivered/);
    await carl.pressButton("✅ Confirm");
    expect(h.telegram.message(carl.chatId, second.message_id)?.text).toMatch(
      /\n\nNothing was bought: this gift is more than is left today under the limit "stars per day for everyone": 50 of 150 left\. It resets on .+ UTC\.$/,
    );
    expect(buttonsOf(h.telegram.message(carl.chatId, second.message_id))[0]).toEqual([
      "✅ Confirm",
      "✖️ Cancel",
    ]);
    expect(h.sandbox.purchaseRequests()).toHaveLength(1);
  });

  it("the amount buttons and the typed amount stay within the per-purchase limit", async () => {
    const h = await harness({ limits: { starsPerPurchase: 300 } });
    const alice = chatPerson(h, testUser(606));
    await alice.command("stars");
    await alice.say("bob_gifts");
    expect(buttonsOf(alice.lastMessage())).toEqual([
      ["⭐ 50", "⭐ 100", "⭐ 250"],
      ["Another amount"],
      ["✖️ Cancel"],
    ]);
    await alice.say("500");
    expect(alice.lastMessage().text).toBe(
      "That is not a whole number from 50 to 300. Please send the number of stars again.",
    );
  });

  it("recipient checks that fail are explained and the person can retry", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(607));
    await alice.command("stars");
    h.sandbox.injectFault(
      { type: "status", status: 400, body: { ok: false, error: "USERNAME_CHECK_FAILED" } },
      { path: "/get-user-info/" },
    );
    await alice.say("bob_gifts");
    expect(alice.lastMessage().text).toBe(
      "I could not check @bob_gifts just now. Send the username again, or try another one (/cancel stops).",
    );
    h.sandbox.injectFault({ type: "malformed" }, { path: "/get-user-info/" });
    await alice.say("bob_gifts");
    expect(alice.lastMessage().text).toBe(
      "The service is not answering right now. Please send the username again in a minute.",
    );
    await alice.say("bob_gifts");
    expect(alice.lastMessage().text).toBe(
      "How many stars for @bob_gifts? Up to 10,000 in one gift.",
    );
  });

  it("a rate-limited recipient check says how long to wait", async () => {
    // Without read retries the client reports the 429 instead of waiting it out.
    const h = await harness({ clientReadRetries: 0 });
    const alice = chatPerson(h, testUser(608, { language_code: "ru" }));
    await alice.command("stars");
    h.sandbox.injectFault(
      {
        type: "status",
        status: 429,
        body: { ok: false, error: "FLOOD_WAIT", retry_after: 20 },
        headers: { "Retry-After": "20" },
      },
      { path: "/get-user-info/" },
    );
    await alice.say("bob_gifts");
    expect(alice.lastMessage().text).toBe(
      "Сервис перегружен. Подождите 20 с и отправьте имя ещё раз.",
    );
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);
  });
});
