import { describe, expect, it } from "vitest";
import { encodeSummary } from "../../src/bot/callback-data/index.js";
import type { BotHarness } from "../../tools/testing/bot-harness.js";
import { buttonsOf, type ChatPerson, chatPerson } from "../../tools/testing/chat-person.js";
import { testUser } from "../../tools/testing/updates.js";
import { answersSince, harness } from "../helpers/bot.js";

/** Runs a stars flow up to the summary; returns the summary's message id and intent id. */
async function toSummary(person: ChatPerson, recipient = "bob_gifts") {
  const summary = await person.starsSummary(recipient, "⭐ 100");
  const { data } = person.findButton("✅ Confirm");
  return { messageId: summary.message_id, intentId: data.split(":")[2] ?? "", confirm: data };
}

function textOf(h: BotHarness, person: ChatPerson, messageId: number): string | undefined {
  return h.telegram.message(person.chatId, messageId)?.text;
}

describe("buttons that must not buy (again)", () => {
  it("double click, one after the other: one purchase, the second press is answered", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(301));
    const summary = await toSummary(alice);
    await alice.press(summary.confirm, summary.messageId);
    const before = h.telegram.mark();
    await alice.press(summary.confirm, summary.messageId);
    expect(h.sandbox.purchaseRequests()).toHaveLength(1);
    expect(answersSince(h, before)).toEqual(["This gift has already been handled."]);
    expect(textOf(h, alice, summary.messageId)).toMatch(/^✅ Delivered/);
  });

  it("double click, concurrently: one purchase, both presses answered", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(302));
    const summary = await toSummary(alice);
    const before = h.telegram.mark();
    await Promise.all([
      alice.press(summary.confirm, summary.messageId),
      alice.press(summary.confirm, summary.messageId),
    ]);
    expect(h.sandbox.purchaseRequests()).toHaveLength(1);
    expect(answersSince(h, before)).toEqual([
      "⏳ Sending your gift…",
      "This gift has already been handled.",
    ]);
    expect(textOf(h, alice, summary.messageId)).toMatch(/^✅ Delivered/);
  });

  it("a Confirm that Telegram no longer lets the bot answer still buys, once", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(310));
    const summary = await toSummary(alice);
    h.telegram.answer("answerCallbackQuery", () => ({
      ok: false,
      error_code: 400,
      description: "Bad Request: query is too old and response timeout expired",
    }));
    await alice.press(summary.confirm, summary.messageId);
    expect(h.sandbox.purchaseRequests()).toHaveLength(1);
    expect(textOf(h, alice, summary.messageId)).toMatch(/^✅ Delivered/);
  });

  it("a summary's button pressed in another chat is refused and buys nothing", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(309));
    const summary = await toSummary(alice);
    const before = h.telegram.mark();
    // The same person presses forged data carrying the summary's id in a group.
    await h.send(h.updates.callback(testUser(309), summary.confirm, summary.messageId, -100_500));
    expect(answersSince(h, before)).toEqual(["This summary is not yours."]);
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);
    expect((await h.records.getIntent(summary.intentId))?.status).toBe("draft");
  });

  it("a stale summary (a new flow has begun) is cancelled and cannot buy", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(303));
    const old = await toSummary(alice, "first_one");
    await alice.command("stars");
    expect(textOf(h, alice, old.messageId)).toBe(
      "Recipient: @first_one\nGift: 100 Telegram Stars\n\nCancelled. Nothing was bought.",
    );
    expect(buttonsOf(h.telegram.message(alice.chatId, old.messageId))).toEqual([]);
    const before = h.telegram.mark();
    await alice.press(old.confirm, old.messageId);
    expect(answersSince(h, before)).toEqual(["This summary was cancelled."]);
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);
    // The new flow is untouched by the stale press.
    await alice.say("second_one");
    expect(alice.lastMessage().text).toBe(
      "How many stars for @second_one? Up to 10,000 in one gift.",
    );
  });

  it("a confirmed summary pressed again later from an old message does nothing", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(304));
    const first = await toSummary(alice, "first_one");
    await alice.press(first.confirm, first.messageId);
    await toSummary(alice, "second_one");
    const before = h.telegram.mark();
    await alice.press(first.confirm, first.messageId);
    expect(answersSince(h, before)).toEqual(["This gift has already been handled."]);
    expect(h.sandbox.purchaseRequests()).toHaveLength(1);
  });

  it("forged callback data is answered and buys nothing", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(305));
    const summary = await toSummary(alice);
    const before = h.telegram.mark();
    for (const data of [
      "buy:confirm:",
      "buy:confirm:../../etc",
      `buy:confirm:${summary.intentId}:extra`,
      "buy:confirm:AAAAAAAAAAAAAAAAAAAAAA",
      `buy:method:${summary.intentId}:btc`,
      "flow:amount:999",
      "something-else",
    ]) {
      await alice.press(data, summary.messageId);
    }
    expect(answersSince(h, before)).toEqual([
      "This button is not valid.",
      "This button is not valid.",
      "This button is not valid.",
      "This summary is unknown.",
      "This button is not valid.",
      "This button is no longer active.",
      "This button is not valid.",
    ]);
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);
    expect(buttonsOf(h.telegram.message(alice.chatId, summary.messageId))[0]).toEqual([
      "✅ Confirm",
      "✖️ Cancel",
    ]);
  });

  it("another person's press on someone's summary buys nothing", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(306));
    const mallory = chatPerson(h, testUser(307));
    const summary = await toSummary(alice);
    const before = h.telegram.mark();
    // A forged press from another account, with the intent id of Alice's summary.
    await h.send(
      h.updates.callback(mallory.user, summary.confirm, summary.messageId, alice.chatId),
    );
    await h.send(
      h.updates.callback(
        mallory.user,
        encodeSummary({ type: "cancel", intentId: summary.intentId }),
        summary.messageId,
        alice.chatId,
      ),
    );
    expect(answersSince(h, before)).toEqual([
      "This summary is not yours.",
      "This summary is not yours.",
    ]);
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);
    await alice.press(summary.confirm, summary.messageId);
    expect(h.sandbox.purchaseRequests()).toHaveLength(1);
  });

  it("/cancel at the summary, then Confirm: nothing is bought", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(308));
    const summary = await toSummary(alice);
    await alice.command("cancel");
    expect(alice.lastMessage().text).toBe("Cancelled. Nothing was bought.");
    expect(buttonsOf(h.telegram.message(alice.chatId, summary.messageId))).toEqual([]);
    const before = h.telegram.mark();
    await alice.press(summary.confirm, summary.messageId);
    expect(answersSince(h, before)).toEqual(["This summary was cancelled."]);
    expect(textOf(h, alice, summary.messageId)).toBe(
      "Recipient: @bob_gifts\nGift: 100 Telegram Stars\n\nCancelled. Nothing was bought.",
    );
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);
    await alice.command("cancel");
    expect(alice.lastMessage().text).toBe("There is nothing to cancel.");
  });

  it("the summary's Cancel button, then Confirm: nothing is bought", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(309));
    const summary = await toSummary(alice);
    let before = h.telegram.mark();
    await alice.pressButton("✖️ Cancel");
    // Said once, on the summary; the press is answered without a toast saying it again.
    expect(answersSince(h, before)).toEqual([undefined]);
    expect(textOf(h, alice, summary.messageId)).toBe(
      "Recipient: @bob_gifts\nGift: 100 Telegram Stars\n\nCancelled. Nothing was bought.",
    );
    before = h.telegram.mark();
    await alice.press(summary.confirm, summary.messageId);
    expect(answersSince(h, before)).toEqual(["This summary was cancelled."]);
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);
  });

  it("/cancel and the Cancel button leave the flow at every step", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(310));
    await alice.command("stars");
    const ask = alice.lastMessage();
    await alice.command("cancel");
    expect(alice.lastMessage().text).toBe("Cancelled. Nothing was bought.");
    expect(buttonsOf(h.telegram.message(alice.chatId, ask.message_id))).toEqual([]);
    // The flow is over: the username is not taken as a step, only the fallback answers.
    await alice.say("bob_gifts");
    expect(alice.lastMessage().text).toBe(
      "I did not understand: start with /stars or /premium, or see /help.",
    );
    expect(h.sandbox.requests).toHaveLength(0);

    await alice.command("stars");
    await alice.say("bob_gifts");
    const amount = alice.lastMessage();
    await alice.pressButton("✖️ Cancel");
    expect(alice.lastMessage().text).toBe("Cancelled. Nothing was bought.");
    expect(buttonsOf(h.telegram.message(alice.chatId, amount.message_id))).toEqual([]);
    // A button of the left flow is answered and buys nothing.
    const before = h.telegram.mark();
    await alice.press("flow:amount:100", amount.message_id);
    expect(answersSince(h, before)).toEqual(["This button is no longer active."]);

    await alice.command("premium");
    await alice.say("bob_gifts");
    await alice.command("cancel");
    expect(alice.lastMessage().text).toBe("Cancelled. Nothing was bought.");
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);
  });

  it("Confirm after the summary expired: answered, the summary says so, nothing bought", async () => {
    const h = await harness({ draftTtlMs: 60_000 });
    const alice = chatPerson(h, testUser(311));
    const summary = await toSummary(alice);
    h.clock.advance(61_000);
    const before = h.telegram.mark();
    await alice.press(summary.confirm, summary.messageId);
    expect(answersSince(h, before)).toEqual([
      "This summary has expired. Start again with /stars or /premium.",
    ]);
    expect(textOf(h, alice, summary.messageId)).toMatch(
      /\n\nNothing was bought: this summary has expired\. Start again with \/stars or \/premium\.$/,
    );
    expect(buttonsOf(h.telegram.message(alice.chatId, summary.messageId))).toEqual([]);
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);
  });

  it("an old flow prompt's button after the flow moved on is answered as inactive", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(312));
    await alice.command("stars");
    await alice.say("bob_gifts");
    const amount = alice.lastMessage();
    await alice.pressButton("Another amount");
    const before = h.telegram.mark();
    await alice.press("flow:amount:100", amount.message_id);
    expect(answersSince(h, before)).toEqual(["This button is no longer active."]);
    await alice.say("75");
    expect(alice.lastMessage().text).toContain("Gift: 75 Telegram Stars");
  });
});
