/**
 * A group administrator's Premium gift through Telegram (issue #39): the member named by a reply
 * or a text mention (the update carries their id), paid from the bot's Stars with one
 * `giftPremiumSubscription`; `telegram-first` falls back to the service for a username the bot
 * has never seen, `telegram` refuses it (never guessed); not enough Stars is refused before any
 * call. Nothing of the wallet leaves: the service is never asked, and no call carries a secret.
 */
import { describe, expect, it } from "vitest";
import { TEST_CREDENTIALS } from "../../../tools/testing/test-config.js";
import { GROUP_ID, groupMessage } from "../../helpers/admin-bot.js";
import { GINA, groupWorld, MIA } from "../../helpers/group-bot.js";

/** No Telegram call of the bot carries the wallet's phrase or the marketplace cookie. */
function expectNoSecretSent(calls: readonly { payload: unknown }[]): void {
  const wire = JSON.stringify(calls.map((call) => call.payload));
  expect(wire).not.toContain(TEST_CREDENTIALS.cookie);
  expect(wire).not.toContain("stel_ssid");
  expect(wire).not.toContain(TEST_CREDENTIALS.mnemonic.split(" ").slice(0, 3).join(" "));
}

describe("a group administrator's Premium gift through Telegram", () => {
  it("by a reply: one call with the right star_count, the service never asked", async () => {
    const g = await groupWorld({ premiumVia: "telegram", stars: { balance: 3000 } });
    const { h } = g;
    const hello = await g.say(MIA, "hi all");
    await g.say(GINA, "/premium", hello);
    await g.press(GINA, "12 months");
    const summary = g.last();
    expect(summary?.text).toContain(
      "Payment: 2,500 Telegram Stars from the bot's own balance (through Telegram, no wallet)",
    );
    // A group never reads the bot's balance, only how it is paid.
    expect(summary?.text).not.toMatch(/3,000|3000/);
    await g.press(GINA, "✅ Confirm");
    expect(h.telegram.callsOf("giftPremiumSubscription").map((c) => c.payload)).toEqual([
      { user_id: MIA.id, month_count: 12, star_count: 2500 },
    ]);
    expect(h.stars?.model.balance).toBe(500);
    expect(h.telegram.message(GROUP_ID, summary?.message_id ?? 0)?.text).toMatch(
      /^✅ Delivered: Telegram Premium for 12 months to @mia_member\./,
    );
    const row = (await h.records.recent({ limit: 5 })).find(
      (intent) => intent.recipient === "mia_member",
    );
    expect(row).toMatchObject({
      status: "succeeded",
      paidVia: "telegram",
      recipientUserId: MIA.id,
    });
    expect(h.sandbox.requests).toHaveLength(0);
    expectNoSecretSent(h.telegram.calls);
  });

  it("by a text mention: the member's account names them", async () => {
    const g = await groupWorld({ premiumVia: "telegram", stars: { balance: 3000 } });
    const { h } = g;
    const sent = groupMessage(GINA, GROUP_ID, "/premium Mia");
    sent.message.entities = [
      ...(sent.message.entities ?? []),
      { type: "text_mention", offset: 9, length: 3, user: MIA },
    ];
    await h.send(sent.update);
    expect(g.last()?.text).toBe("Telegram Premium for @mia_member: for how long?");
    await g.press(GINA, "3 months");
    await g.press(GINA, "✅ Confirm");
    expect(h.telegram.callsOf("giftPremiumSubscription").map((c) => c.payload)).toEqual([
      { user_id: MIA.id, month_count: 3, star_count: 1000 },
    ]);
    expect(h.sandbox.requests).toHaveLength(0);
  });

  it("telegram-first: a seen member through Telegram, an unseen username through the service", async () => {
    const g = await groupWorld({ premiumVia: "telegram-first", stars: { balance: 3000 } });
    const { h } = g;
    await g.say(MIA, "hello");
    await g.say(GINA, "/premium @mia_member");
    await g.press(GINA, "3 months");
    await g.press(GINA, "✅ Confirm");
    expect(h.telegram.callsOf("giftPremiumSubscription")).toHaveLength(1);
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);

    await g.say(GINA, "/premium @nora_n");
    await g.press(GINA, "6 months");
    expect(g.last()?.text).toContain("Payment: USDT on TON");
    await g.press(GINA, "✅ Confirm");
    expect(h.sandbox.purchaseRequests().map((r) => r.form)).toEqual([
      expect.objectContaining({ username: "nora_n", duration: "6" }),
    ]);
    expect(h.telegram.callsOf("giftPremiumSubscription")).toHaveLength(1);
  });

  it("telegram only: a username the bot has never seen is refused, never guessed", async () => {
    const g = await groupWorld({ premiumVia: "telegram", stars: { balance: 3000 } });
    const { h } = g;
    await g.say(GINA, "/premium @nora_n");
    expect(g.last()?.text).toMatch(/^I can gift Premium only to people whose Telegram account/);
    expect(h.sandbox.requests).toHaveLength(0);
    expect(h.telegram.callsOf("giftPremiumSubscription")).toHaveLength(0);
  });

  it("not enough Stars: a clear refusal at Confirm, before any call, nothing claimed", async () => {
    const g = await groupWorld({ premiumVia: "telegram", stars: { balance: 1200 } });
    const { h } = g;
    const hello = await g.say(MIA, "hi");
    await g.say(GINA, "/premium", hello);
    await g.press(GINA, "6 months");
    const summary = g.last();
    expect(summary?.text).toContain("fewer Telegram Stars than this gift costs");
    await g.press(GINA, "✅ Confirm");
    expect(h.telegram.message(GROUP_ID, summary?.message_id ?? 0)?.text).toContain(
      "the bot does not hold enough Telegram Stars for this gift right now.",
    );
    expect(h.telegram.callsOf("giftPremiumSubscription")).toHaveLength(0);
    expect(h.stars?.model.balance).toBe(1200);
    const row = (await h.records.recent({ limit: 5 }))[0];
    expect(row?.sentAt).toBeUndefined();
    expect(row?.status).not.toBe("sending");
  });
});
