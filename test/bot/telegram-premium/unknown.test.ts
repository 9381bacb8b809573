/**
 * A gift through Telegram whose answer says nothing (issue #39): never sent again, and settled
 * from Telegram's own books. A lost answer of a gift Telegram made is proved by the bot's Star
 * transactions and settled as delivered at once (the requester and the admins told, the
 * transaction kept); one Telegram did not make waits for an admin, with what was looked at.
 */
import { describe, expect, it } from "vitest";
import { chatPerson } from "../../../tools/testing/chat-person.js";
import { ADMIN, adminWorld, BUYER, sentTexts } from "../../helpers/admin-bot.js";
import { testUser } from "../../../tools/testing/updates.js";

const CAROL = testUser(301, { first_name: "Carol", username: "carol_p" });

async function world(fault: "lost" | "lost_timeout" | "error" | "timeout") {
  const w = await adminWorld({
    premiumVia: "telegram",
    stars: { balance: 4000 },
    giftTimeoutMs: 300,
    // Carol may use the bot, so it keeps who she is when she writes (strangers are not kept).
    access: { allowedUserIds: [BUYER.id, CAROL.id] },
  });
  await chatPerson(w.h, CAROL).command("start");
  w.h.stars?.model.fault(fault);
  const bea = chatPerson(w.h, BUYER);
  await bea.command("premium");
  await bea.say("@carol_p");
  await bea.pressButton("6 months");
  const summary = bea.lastMessage();
  await bea.pressButton("✅ Confirm");
  await w.features.idle();
  return { ...w, bea, summary };
}

describe("an unknown answer of a gift through Telegram", () => {
  for (const fault of ["lost", "lost_timeout"] as const) {
    it(`made but its answer lost (${fault}): proved by the Star transactions, delivered with no admin`, async () => {
      const { h, bea, summary, features } = await world(fault);
      expect(h.telegram.callsOf("giftPremiumSubscription")).toHaveLength(1);
      expect(h.telegram.callsOf("getStarTransactions").length).toBeGreaterThan(0);
      const intent = (await h.records.recent({ limit: 1 }))[0];
      expect(intent).toMatchObject({ status: "delivered", paidVia: "telegram" });
      expect(intent?.resolvedBy).toBeUndefined();
      const proof = (intent?.response as { proof?: { transaction: { id: string } } }).proof;
      const made = h.stars?.model.transactions.at(-1);
      expect(proof?.transaction.id).toBe(made?.id);
      expect(await h.records.unconfirmed()).toEqual([]);
      expect(h.telegram.message(bea.chatId, summary.message_id)?.text).toMatch(
        /^✅ Delivered: Telegram Premium for 6 months to @carol_p\.\nTelegram's answer was lost, but the bot's Telegram Star transactions show the gift was made\./,
      );
      await features.idle();
      const news = sentTexts(h, ADMIN.id).find((t) => t.startsWith("📒")) ?? "";
      expect(news).toContain("settled as delivered");
      expect(news).toContain(
        `Transaction ${made?.id}: 1,500 Stars to user ${CAROL.id}, Premium duration in months: 6`,
      );
      expect(news).toContain("The bot's Stars before the gift and after: 4,000 → 2,500.");

      // Never sent again: a restart recovers nothing, purchases are open.
      await h.restart();
      expect(h.telegram.callsOf("giftPremiumSubscription")).toHaveLength(1);
      expect(h.stars?.model.balance).toBe(2500);
    });
  }

  for (const fault of ["error", "timeout"] as const) {
    it(`not made (${fault}): unknown, waits for an admin with what was looked at, never resent`, async () => {
      const { h, bea, summary, features } = await world(fault);
      expect(h.telegram.callsOf("giftPremiumSubscription")).toHaveLength(1);
      const [intent] = await h.records.unconfirmed();
      expect(intent).toMatchObject({ paidVia: "telegram", recipientUserId: CAROL.id });
      expect(h.telegram.message(bea.chatId, summary.message_id)?.text).not.toMatch(/Delivered/);
      await features.idle();
      const alert = sentTexts(h, ADMIN.id).find((t) => t.startsWith("⚠️")) ?? "";
      expect(alert).toContain(
        "Paid through Telegram from the bot's Telegram Stars: 1,500 Stars (the wallet is not involved).",
      );
      expect(alert).toContain(`Recipient's Telegram user id: ${CAROL.id}`);
      expect(alert).toMatch(
        /The bot's Star transactions were read on .* \(\d+ entries, the whole list\): 0 Premium gift\(s\)/,
      );
      expect(alert).not.toMatch(/Balance before|Balance now/);

      // New purchases wait; a restart sends nothing again; the next look still finds nothing.
      await h.restart();
      await features.idle();
      expect(h.telegram.callsOf("giftPremiumSubscription")).toHaveLength(1);
      expect(await h.records.unconfirmed()).toHaveLength(1);
      expect(h.stars?.model.balance).toBe(4000);
      expect(h.sandbox.requests).toHaveLength(0);
    });
  }

  it("found later: the admin's evidence reads the books again and settles it itself", async () => {
    const { h, features } = await world("error");
    const [intent] = await h.records.unconfirmed();
    // Telegram made it after all (its books say so now): what the admin opens settles it.
    const model = h.stars?.model;
    model?.fault();
    if (model !== undefined) {
      model.balance -= 1500;
      model.transactions.push({
        id: "stx-late",
        amount: 1500,
        date: Math.floor(Date.now() / 1000),
        receiver: {
          type: "user",
          transaction_type: "premium_purchase",
          user: { id: CAROL.id, is_bot: false, first_name: "Carol" },
          premium_subscription_duration: 6,
        },
      });
    }
    await h.desk.admin.evidence(intent?.id ?? "");
    await features.idle();
    expect(await h.records.unconfirmed()).toEqual([]);
    expect((await h.records.recent({ limit: 1 }))[0]?.status).toBe("delivered");
    expect(sentTexts(h, BUYER.id).at(-1)).toMatch(
      /^🔔 News about your gift whose outcome was unknown:\n\n✅ Delivered: Telegram Premium for 6 months to @carol_p\. Telegram's answer was lost/,
    );
  });
});
