/**
 * Funding the bot's own Stars (issue #39): an admin's /topup sends an invoice in Stars (XTR);
 * Telegram asks before charging (only the bot's own top-up, paid by that admin, is accepted);
 * the paid message raises the balance and is kept in the ledger's books once; /refund gives a
 * top-up made by mistake back. /balance shows the bot's Stars beside the wallet.
 */
import { describe, expect, it } from "vitest";
import { chatPerson } from "../../../tools/testing/chat-person.js";
import { ADMIN, ADMIN2, adminWorld, BUYER, sentTexts } from "../../helpers/admin-bot.js";

describe("topping up the bot's Stars", () => {
  it("an admin's invoice, paid, is in the books and raises the balance; /refund gives it back", async () => {
    const { h, features } = await adminWorld({ premiumVia: "telegram", stars: { balance: 200 } });
    const ada = chatPerson(h, ADMIN);
    await ada.command("topup", "abc");
    expect(ada.lastMessage().text).toMatch(/^Send \/topup and a number of Stars from 1 to 10,000/);
    expect(h.telegram.callsOf("sendInvoice")).toHaveLength(0);

    await ada.command("topup", "1000");
    const [invoice] = h.telegram.callsOf("sendInvoice");
    expect(invoice?.payload).toMatchObject({
      chat_id: ADMIN.id,
      currency: "XTR",
      prices: [{ label: "1,000 Telegram Stars", amount: 1000 }],
      payload: `topup:1000:${ADMIN.id}`,
    });
    expect(invoice?.payload.provider_token).toBeUndefined();
    const stars = h.stars;
    if (stars === undefined || invoice === undefined) throw new Error("no Stars on the fake");

    // Someone else paying the admin's invoice (a forwarded one) is refused before any charge.
    await h.send(stars.preCheckout(BUYER, invoice));
    expect(h.telegram.callsOf("answerPreCheckoutQuery").at(-1)?.payload).toMatchObject({
      ok: false,
      error_message: "This invoice is not one the bot sent for its balance.",
    });
    await h.send(stars.preCheckout(ADMIN, invoice));
    expect(h.telegram.callsOf("answerPreCheckoutQuery").at(-1)?.payload).toMatchObject({
      ok: true,
    });
    const paid = stars.paid(ADMIN, invoice);
    await h.send(paid);
    await features.idle();
    expect(stars.model.balance).toBe(1200);
    const books = await h.app.storage.starTopUps.recentTopUps(5);
    expect(books).toEqual([
      expect.objectContaining({ userId: ADMIN.id, stars: 1000, refundedAt: undefined }),
    ]);
    const chargeId = books[0]?.chargeId ?? "";
    expect(ada.lastMessage().text).toBe(
      `⭐ Thank you: 1,000 Telegram Stars were added to the bot's balance (charge ${chargeId}). The bot now holds 1,200 Stars.`,
    );
    expect(sentTexts(h, ADMIN2.id).at(-1)).toBe(
      `⭐ @ada_admin (1001) topped the bot up with 1,000 Telegram Stars (charge ${chargeId}).`,
    );
    // Telegram telling it twice keeps it once.
    await h.send(paid);
    expect(await h.app.storage.starTopUps.recentTopUps(5)).toHaveLength(1);

    await ada.command("balance");
    expect(ada.lastMessage().text).toContain(
      "Telegram Stars (the bot's own, for Premium through Telegram): 1,200",
    );

    await ada.command("refund");
    expect(ada.lastMessage().text).toContain(
      `1,000 Stars from @ada_admin (1001), charge ${chargeId}`,
    );
    await ada.command("refund", chargeId);
    expect(h.telegram.callsOf("refundStarPayment").map((c) => c.payload)).toEqual([
      { user_id: ADMIN.id, telegram_payment_charge_id: chargeId },
    ]);
    expect(ada.lastMessage().text).toBe(
      `↩️ Refunded: 1,000 Telegram Stars went back to @ada_admin (1001) (charge ${chargeId}).`,
    );
    expect(stars.model.balance).toBe(200);
    await ada.command("refund", chargeId);
    expect(ada.lastMessage().text).toBe("That top-up was refunded already.");
    expect(h.telegram.callsOf("refundStarPayment")).toHaveLength(1);
  });

  it("the low-balance alert and the daily report show the bot's Stars", async () => {
    const { h, features } = await adminWorld({
      premiumVia: "telegram",
      stars: { balance: 2000 },
      alerts: { lowBalanceStars: 1000 },
      reports: { reportHourUtc: 7 },
    });
    const ada = chatPerson(h, ADMIN);
    // Bea has written to the bot: her id is known.
    await chatPerson(h, BUYER).command("start");
    await ada.command("premium");
    await ada.say("@bea_buyer");
    await ada.pressButton("6 months");
    await ada.pressButton("✅ Confirm");
    await features.idle();
    expect(h.telegram.callsOf("giftPremiumSubscription")).toHaveLength(1);
    const alerts = sentTexts(h, ADMIN2.id).filter((t) =>
      t.includes("running low on Telegram Stars"),
    );
    expect(alerts).toEqual([
      "⚠️ The bot is running low on Telegram Stars: 500 (alert below 1,000). Premium through Telegram is refused once a gift costs more than the balance; /topup adds Stars.",
    ]);

    const DAY = 86_400_000;
    const tomorrow = Math.floor(h.clock() / DAY) * DAY + DAY;
    h.clock.advance(tomorrow + 7 * 3_600_000 - h.clock());
    expect(await h.app.sendDueReports()).toBeGreaterThan(0);
    expect(sentTexts(h, ADMIN.id).at(-1)).toContain(
      "The bot's Telegram Stars now: 500; topped up that day: 0 in 0 payment(s).",
    );
  });

  it("with PREMIUM_VIA=service there is nothing to top up, and a buyer's /topup is not an admin's", async () => {
    const { h } = await adminWorld();
    const ada = chatPerson(h, ADMIN);
    await ada.command("topup", "100");
    expect(ada.lastMessage().text).toMatch(/^Premium through Telegram is off/);
    const bea = chatPerson(h, BUYER);
    await bea.command("topup", "100");
    expect(h.telegram.callsOf("sendInvoice")).toHaveLength(0);
  });
});
