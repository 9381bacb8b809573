/**
 * Premium through Telegram in a private chat (issue #39): the bot gifts it from its own Stars
 * with one `giftPremiumSubscription` at Telegram's price, the service is never asked, and the
 * summary says how it is paid.
 */
import { describe, expect, it } from "vitest";
import { chatPerson } from "../../../tools/testing/chat-person.js";
import { testUser } from "../../../tools/testing/updates.js";
import { harness } from "../../helpers/bot.js";

const CAROL = testUser(301, { first_name: "Carol", username: "carol_p" });

describe("Premium through Telegram, in a private chat", () => {
  it("a recipient the bot has seen gets Premium from the bot's Stars, one call, the right price", async () => {
    const h = await harness({ premiumVia: "telegram", stars: { balance: 5000 } });
    const carol = chatPerson(h, CAROL);
    await carol.command("start");
    const alice = chatPerson(h, testUser(201, { first_name: "Alice" }));
    await alice.command("premium");
    await alice.say("@carol_p");
    await alice.pressButton("6 months");
    const summary = alice.lastMessage();
    expect(summary.text).toContain(
      "Payment: 1,500 Telegram Stars from the bot's own balance (through Telegram, no wallet)",
    );
    await alice.pressButton("✅ Confirm");
    const gifts = h.telegram.callsOf("giftPremiumSubscription");
    expect(gifts.map((c) => c.payload)).toEqual([
      { user_id: CAROL.id, month_count: 6, star_count: 1500 },
    ]);
    expect(h.sandbox.requests).toHaveLength(0);
    expect(h.stars?.model.balance).toBe(3500);
    expect(h.telegram.message(alice.chatId, summary.message_id)?.text).toMatch(
      /^✅ Delivered: Telegram Premium for 6 months to @carol_p\./,
    );
  });
});
