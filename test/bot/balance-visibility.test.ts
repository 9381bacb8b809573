/**
 * The operator's wallet balance on a summary: admins always see it, buyers as SHOW_BALANCE_TO
 * says (unset: while purchases are not public). A buyer who does not see the figure still
 * learns, before Confirm, that the wallet cannot pay for the gift.
 */
import { describe, expect, it } from "vitest";
import { chatPerson } from "../../tools/testing/chat-person.js";
import { testUser } from "../../tools/testing/updates.js";
import { ADMIN, adminWorld, BUYER } from "../helpers/admin-bot.js";
import { harness } from "../helpers/bot.js";

/** Anything that gives the balance away: the line, or the sandbox's figures. */
const BALANCE_FIGURES = /Wallet balance|Баланс кошелька|100 TON|1,000 USDT|1\u00a0000 USDT/;

describe("who sees the wallet's balance", () => {
  it("purchases public, the setting unset: the buyer does not see it, the admin does", async () => {
    const { h } = await adminWorld({ access: { publicPurchases: true } });
    const stranger = chatPerson(h, testUser(4501));
    const summary = await stranger.starsSummary("bob_gifts", "⭐ 100");
    expect(summary.text).toContain("Gift: 100 Telegram Stars");
    expect(summary.text).not.toMatch(BALANCE_FIGURES);
    await stranger.pressButton("✅ Confirm");
    for (const message of stranger.messages()) expect(message.text).not.toMatch(BALANCE_FIGURES);

    const admin = chatPerson(h, ADMIN);
    const own = await admin.starsSummary("bob_gifts", "⭐ 50");
    expect(own.text).toContain("Wallet balance: 100 TON, 99");
  });

  it("purchases not public, the setting unset: an allowed buyer sees it", async () => {
    const { h } = await adminWorld();
    const buyer = chatPerson(h, BUYER);
    const summary = await buyer.starsSummary("bob_gifts", "⭐ 100");
    expect(summary.text).toContain("Wallet balance: 100 TON, 1,000 USDT");
  });

  it("SHOW_BALANCE_TO=admins hides it from allowed buyers; =buyers shows it on a public bot", async () => {
    const hidden = await adminWorld({ access: { showBalanceTo: "admins" } });
    const buyer = chatPerson(hidden.h, BUYER);
    expect((await buyer.starsSummary("bob_gifts", "⭐ 100")).text).not.toMatch(BALANCE_FIGURES);

    const shown = await harness({ access: { publicPurchases: true, showBalanceTo: "buyers" } });
    const anyone = chatPerson(shown, testUser(4502));
    expect((await anyone.starsSummary("bob_gifts", "⭐ 100")).text).toContain(
      "Wallet balance: 100 TON, 1,000 USDT",
    );
  });

  it.each([
    { lang: "en", short: "The shop's wallet cannot pay for this gift right now" },
    { lang: "ru", short: "Сейчас в кошельке магазина не хватает средств на этот подарок" },
  ])(
    "in $lang: a buyer who cannot see it still learns before Confirm that the wallet cannot pay",
    async (c) => {
      const h = await harness();
      const buyer = chatPerson(h, testUser(4503, { language_code: c.lang }));
      const covered = await buyer.starsSummary("bob_gifts", "⭐ 100");
      expect(covered.text).not.toContain(c.short);
      h.sandbox.drainWallet();
      // The balance is remembered for a while; a later summary reads it again.
      h.clock.advance(60_000);
      const summary = await buyer.starsSummary("carol_gifts", "⭐ 100");
      expect(summary.text).toContain(c.short);
      expect(summary.text).not.toMatch(BALANCE_FIGURES);
      expect(summary.text).not.toMatch(/\b0 (TON|USDT)\b/);
    },
  );
});
