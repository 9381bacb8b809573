import { describe, expect, it } from "vitest";
import { chatPerson } from "../../tools/testing/chat-person.js";
import { testUser } from "../../tools/testing/updates.js";
import { harness } from "../helpers/bot.js";

describe("one slow purchase does not hold up anyone else", () => {
  it("answers another person's /start while a purchase response is held for 5 s", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(501));
    const carol = chatPerson(h, testUser(502, { first_name: "Carol" }));
    const summary = await alice.starsSummary("bob_gifts", "⭐ 100");
    const confirm = alice.findButton("✅ Confirm");

    h.sandbox.injectFault({ type: "delay", ms: 5_000 }, { path: "/buy-stars/" });
    let purchaseFinished = false;
    const purchase = alice.press(confirm.data, confirm.messageId).then(() => {
      purchaseFinished = true;
    });
    // The purchase request has reached the service and its answer is being held.
    await h.sandbox.waitForRequests(1, "/buy-stars/");

    await carol.command("start");
    expect(carol.lastMessage().text).toMatch(/^Hi, Carol!/);
    expect(purchaseFinished).toBe(false);

    await purchase;
    expect(h.telegram.message(alice.chatId, summary.message_id)?.text).toMatch(/^✅ Delivered/);
    // Carol's answer was recorded before Alice's outcome.
    const carolReply = h.telegram
      .callsOf("sendMessage")
      .find((c) => c.payload.chat_id === carol.chatId);
    const aliceOutcome = h.telegram
      .callsOf("editMessageText")
      .find((c) => String(c.payload.text).startsWith("✅ Delivered"));
    expect(carolReply?.seq).toBeLessThan(aliceOutcome?.seq ?? 0);
    expect(h.sandbox.purchaseRequests()).toHaveLength(1);
  });

  it("shows the person that the purchase waits for the service's quota, and for how long", async () => {
    // Two requests per 1.5 s: the recipient check and the balance read use them up, so the
    // purchase has to wait for the window to move on.
    const h = await harness({ clientQuota: { limit: 2, windowMs: 1_500 } });
    const alice = chatPerson(h, testUser(503));
    const summary = await alice.starsSummary("bob_gifts", "⭐ 100");
    const before = h.telegram.mark();
    await alice.pressButton("✅ Confirm");
    const calls = alice.callsSince(before);
    // Queued (not yet claimed) while it waits for its slot, then "sending" once claimed.
    expect(calls.map((c) => c.method)).toEqual([
      "answerCallbackQuery",
      "sendChatAction",
      "editMessageText",
      "editMessageText",
      "editMessageText",
    ]);
    expect(calls[2]?.payload.text).toMatch(
      /\n\n⏳ The service is busy: your gift is queued and will be sent in about [12] s\.$/,
    );
    expect(calls[3]?.payload.text).toMatch(/Sending/);
    expect(h.telegram.message(alice.chatId, summary.message_id)?.text).toMatch(/^✅ Delivered/);
  });

  it("shows the person that a recipient check and a balance read wait for the quota", async () => {
    // One request per 1.5 s: Bob's recipient check takes the window, so Alice's check waits,
    // and then her balance read waits for the window after it.
    const h = await harness({ clientQuota: { limit: 1, windowMs: 1_500 } });
    const bob = chatPerson(h, testUser(505));
    await bob.command("stars");
    await bob.say("carl_gifts");
    const alice = chatPerson(h, testUser(504));
    await alice.command("stars");
    const before = h.telegram.mark();
    await alice.say("bob_gifts");
    const texts = alice
      .callsSince(before)
      .filter((c) => c.method === "sendMessage")
      .map((c) => String(c.payload.text));
    expect(texts[0]).toMatch(/^⏳ The service is busy right now: I will answer in about [12] s\.$/);
    expect(texts[1]).toBe("How many stars for @bob_gifts? Up to 10,000 in one gift.");
    await alice.pressButton("⭐ 100");
    const waits = alice
      .callsSince(before)
      .filter((c) => c.method === "sendMessage" && String(c.payload.text).startsWith("⏳"));
    expect(waits).toHaveLength(2);
    expect(alice.lastMessage().text).toMatch(/^Please check your gift:\n\nRecipient: @bob_gifts/);
  });
});
