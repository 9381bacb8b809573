import { describe, expect, it } from "vitest";
import { buttonsOf, chatPerson } from "../../../tools/testing/chat-person.js";
import { answersSince } from "../../helpers/bot.js";
import { ADMIN, ADMIN2, adminWorld, BUYER, sentTexts } from "../../helpers/admin-bot.js";
import { username } from "../../helpers/username.js";
import { runSql } from "../../helpers/store-sql.js";

describe("unconfirmed purchases", () => {
  it("every admin is told once, with the evidence and working resolve buttons; settling resumes purchases", async () => {
    const { h, features } = await adminWorld();
    // Admin notifications follow the language an admin picked with /language.
    const boris = chatPerson(h, ADMIN2);
    await boris.command("language");
    await boris.pressButton("Русский");
    const bea = chatPerson(h, BUYER);
    h.sandbox.injectFault({ type: "unconfirmed" }, { path: "/buy-stars/" });
    await bea.giftStars("bob_gifts", "⭐ 100");
    await features.idle();
    expect((await h.records.status()).unconfirmed).toBe(1);

    const ada = chatPerson(h, ADMIN);
    const adaTexts = sentTexts(h, ADMIN.id);
    expect(adaTexts).toHaveLength(1);
    const text = adaTexts[0] ?? "";
    const id = (await h.records.unconfirmed())[0]?.id ?? "";
    expect(text.split("\n").slice(0, 4)).toEqual([
      "⚠️ A purchase ended with an unknown outcome: 100 Telegram Stars to @bob_gifts.",
      "",
      `Purchase id: ${id}`,
      `Asked by @bea_buyer (${BUYER.id}) in a private chat`,
    ]);
    expect(text).toContain("Balance before: 100 TON, 1,000 USDT");
    // The sandbox's "unconfirmed" fault spends nothing: the balance now is the same.
    expect(text).toContain("Balance now: 100 TON, 1,000 USDT");
    expect(text).toContain("On-chain check: not configured (TON_API_ENDPOINT).");
    expect(buttonsOf(ada.lastMessage())).toEqual([["✅ Delivered", "❌ Not delivered"]]);
    // The second admin reads it in Russian, once too.
    const borisTexts = sentTexts(h, ADMIN2.id).filter((t) => t.startsWith("⚠️"));
    expect(borisTexts).toHaveLength(1);
    expect(borisTexts[0]).toMatch(
      /^⚠️ Исход покупки неизвестен: 100 Telegram Stars для @bob_gifts\./,
    );

    // A second unconfirmed purchase cannot happen while frozen; the first is not re-announced
    // by anything the bot does later.
    await bea.giftStars("carl_gifts", "⭐ 100");
    await features.idle();
    expect(sentTexts(h, ADMIN.id)).toHaveLength(1);

    // Someone who is not an admin presses a real resolve button: nothing is settled.
    const notification = ada.findButton("✅ Delivered");
    const forged = h.telegram.mark();
    await chatPerson(h, BUYER).press(notification.data, notification.messageId);
    expect(answersSince(h, forged)).toEqual(["This button is not valid."]);
    expect((await h.records.getIntent(id))?.status).toBe("unconfirmed");

    const borisButton = boris.findButton("✅ Доставлено");
    await ada.pressButton("✅ Delivered");
    await features.idle();
    expect((await h.records.getIntent(id))?.status).toBe("delivered");
    expect(h.telegram.message(ADMIN.id, notification.messageId)?.text).toMatch(
      new RegExp(`\\n\\nSettled as delivered by @ada_admin \\(${ADMIN.id}\\)\\.$`),
    );
    expect(buttonsOf(h.telegram.message(ADMIN.id, notification.messageId))).toEqual([]);
    expect(ada.lastMessage().text).toBe("Every unknown outcome is settled: purchases resumed.");

    // The other admin's alert is settled too, its buttons gone; a stale press only says so.
    expect(buttonsOf(h.telegram.message(ADMIN2.id, borisButton.messageId))).toEqual([]);
    const before = h.telegram.mark();
    await boris.press(borisButton.data, borisButton.messageId);
    expect(answersSince(h, before)).toEqual([
      "Уже решено: доставлен (проверено администраторами).",
    ]);

    // Purchases are open again.
    const purchases = h.sandbox.purchaseRequests().length;
    await bea.giftStars("dana_gifts", "⭐ 100");
    expect(h.sandbox.purchaseRequests()).toHaveLength(purchases + 1);
    expect(bea.lastMessage().text).toMatch(/^✅ Delivered: 100 Telegram Stars to @dana_gifts\./);
  });

  it("an unconfirmed purchase no admin could be told about is announced at the next start", async () => {
    const world = await adminWorld();
    const { h } = world;
    // What reached Ada: the sends Telegram accepted.
    const toldAda = () =>
      h.telegram
        .callsOf("sendMessage")
        .filter((c) => Number(c.payload.chat_id) === ADMIN.id && c.result !== undefined)
        .map((c) => String(c.payload.text))
        .filter((text) => text.startsWith("⚠️"));
    const admins = new Set([ADMIN.id, ADMIN2.id]);
    let telegramDown = true;
    h.telegram.answer("sendMessage", (payload, _call, fallback) =>
      telegramDown && admins.has(Number(payload.chat_id))
        ? { ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" }
        : fallback(),
    );
    h.sandbox.injectFault({ type: "unconfirmed" }, { path: "/buy-stars/" });
    await chatPerson(h, BUYER).giftStars("bob_gifts", "⭐ 100");
    await world.features.idle();
    expect((await h.records.status()).unconfirmed).toBe(1);
    expect(sentTexts(h, ADMIN.id)).toHaveLength(1);
    expect(toldAda()).toEqual([]);

    telegramDown = false;
    await h.restart();
    await world.features.idle();
    expect(toldAda()).toHaveLength(1);
    // Once told, a further restart does not repeat it.
    await h.restart();
    await world.features.idle();
    expect(toldAda()).toHaveLength(1);
  });

  it("/pending lists each unconfirmed intent with evidence; resolving the last says purchases resumed", async () => {
    const { h, features } = await adminWorld();
    const ada = chatPerson(h, ADMIN);
    await ada.command("pending");
    expect(ada.lastMessage().text).toBe("No purchases are waiting for a check.");

    // Two unconfirmed intents: one from a purchase whose outcome is unknown, and one left
    // "sending" by a crash mid-send (recovered at the next start). The ledger lets only one
    // purchase be in flight, so the second state is written directly, as a database from an
    // earlier version (which let several be in flight) could hold it.
    const bea = chatPerson(h, BUYER);
    h.sandbox.injectFault({ type: "unconfirmed" }, { path: "/buy-stars/" });
    await bea.giftStars("bob_gifts", "⭐ 100");
    const draft = await h.ledger.createDraft({
      kind: "premium",
      recipient: username("carol_p"),
      quantity: 3,
      paymentMethod: "ton",
      requester: { userId: BUYER.id, chatId: BUYER.id, chatType: "private" },
      balanceBefore: undefined,
    });
    await runSql(h, "UPDATE purchase_intents SET status = 'sending', sent_at = ? WHERE id = ?", [
      h.clock(),
      draft.id,
    ]);
    await h.desk.recoverInterrupted();
    await features.idle();
    expect((await h.records.status()).unconfirmed).toBe(2);
    expect(sentTexts(h, ADMIN.id).filter((t) => t.startsWith("⚠️"))).toHaveLength(2);

    const before = h.telegram.mark();
    await ada.command("pending");
    const shown = sentTexts(h, ADMIN.id, before);
    expect(shown[0]).toBe("2 purchases are waiting for a check:");
    expect(shown[1]).toMatch(/^⏳ Unknown outcome: 100 Telegram Stars to @bob_gifts\./);
    expect(shown[2]).toMatch(/^⏳ Unknown outcome: Telegram Premium for 3 months to @carol_p\./);
    expect(shown[2]).toContain(
      "Detail: interrupted: the process stopped while the purchase request was in flight",
    );
    expect(shown[2]).toContain("The recipient has Premium now: no");

    const bobMessage = ada.messages().find((m) => m.text === shown[1]);
    const notDelivered = (bobMessage?.reply_markup?.inline_keyboard[0] ?? [])[1];
    await ada.press(
      notDelivered && "callback_data" in notDelivered ? notDelivered.callback_data : "",
      bobMessage?.message_id ?? 0,
    );
    expect(ada.lastMessage().text).toBe(
      "One unknown outcome is still waiting (/pending): purchases stay on hold.",
    );
    await ada.command("pause");
    await ada.pressButton("✅ Delivered");
    expect(ada.lastMessage().text).toBe(
      "Every unknown outcome is settled, but purchases are paused: /resume to reopen them.",
    );
    expect(await h.records.status()).toEqual({ paused: true, pausedBy: "admin", unconfirmed: 0 });
    await ada.command("resume");
    expect(ada.lastMessage().text).toBe("▶ Purchases are open again.");
  });
});

describe("the language of admin notifications", () => {
  it("follows an admin's Telegram language when they never chose one, and /language over it", async () => {
    const world = await adminWorld();
    const { h } = world;
    // Boris's Telegram app is in Russian; he only ever sent /start. Ada's is in English.
    await chatPerson(h, ADMIN2).command("start");
    await chatPerson(h, ADMIN).command("start");
    const bea = chatPerson(h, BUYER);
    h.sandbox.injectFault({ type: "unconfirmed" }, { path: "/buy-stars/" });
    await bea.giftStars("bob_gifts", "⭐ 100");
    await world.features.idle();
    expect(sentTexts(h, ADMIN2.id).filter((t) => t.startsWith("⚠️"))).toEqual([
      expect.stringMatching(/^⚠️ Исход покупки неизвестен: 100 Telegram Stars для @bob_gifts\./),
    ]);
    expect(sentTexts(h, ADMIN.id).filter((t) => t.startsWith("⚠️"))).toEqual([
      expect.stringMatching(/^⚠️ A purchase ended with an unknown outcome/),
    ]);

    // A choice made with /language wins over the Telegram language, also after a restart.
    const boris = chatPerson(h, ADMIN2);
    await boris.command("language");
    await boris.pressButton("English");
    await h.restart();
    const ada = chatPerson(h, ADMIN);
    await ada.pressButton("✅ Delivered");
    h.sandbox.injectFault({ type: "unconfirmed" }, { path: "/buy-stars/" });
    await bea.giftStars("carl_gifts", "⭐ 100");
    await world.features.idle();
    expect(
      sentTexts(h, ADMIN2.id)
        .filter((t) => t.startsWith("⚠️"))
        .at(-1),
    ).toMatch(/^⚠️ A purchase ended with an unknown outcome: 100 Telegram Stars to @carl_gifts\./);
  });
});

describe("low balance", () => {
  it("tells every admin once per crossing, after a purchase and on /balance, comparing decimals exactly", async () => {
    const { h, features } = await adminWorld({
      alerts: { lowBalanceUsdt: "998.5", lowBalanceTon: "10" },
    });
    const ada = chatPerson(h, ADMIN);
    const boris = chatPerson(h, ADMIN2);
    await boris.command("language");
    await boris.pressButton("Русский");
    const lowTexts = () => sentTexts(h, ADMIN.id).filter((t) => t.startsWith("⚠️ The wallet"));

    await ada.command("balance");
    expect(lowTexts()).toHaveLength(0);

    // 1,000 − 1.5 = 998.5: not below 998.5. One more purchase crosses it.
    const bea = chatPerson(h, BUYER);
    await bea.giftStars("bob_gifts", "⭐ 100");
    await features.idle();
    expect(lowTexts()).toHaveLength(0);
    await bea.giftStars("carl_gifts", "⭐ 100");
    await features.idle();
    expect(lowTexts()).toEqual([
      "⚠️ The wallet is running low on USDT: 997 USDT (alert below 998.5 USDT).",
    ]);
    expect(sentTexts(h, ADMIN2.id).filter((t) => t.startsWith("⚠️"))).toEqual([
      "⚠️ На кошельке заканчиваются USDT: 997 USDT (порог 998,5 USDT).",
    ]);

    // Still low: no repeat, on /balance or after another purchase.
    await ada.command("balance");
    await bea.giftStars("dana_gifts", "⭐ 100");
    await features.idle();
    expect(lowTexts()).toHaveLength(1);

    // Recovered, then low again: a new crossing (TON as well, this time).
    h.sandbox.setBalance({ ton: "50", usdt: "2000" });
    h.clock.advance(60_000);
    await ada.command("balance");
    expect(lowTexts()).toHaveLength(1);
    h.sandbox.setBalance({ ton: "9.999999999", usdt: "5" });
    h.clock.advance(60_000);
    await ada.command("balance");
    await features.idle();
    expect(lowTexts().slice(1)).toEqual([
      [
        "⚠️ The wallet is running low on TON: 9.999999999 TON (alert below 10 TON).",
        "⚠️ The wallet is running low on USDT: 5 USDT (alert below 998.5 USDT).",
      ].join("\n"),
    ]);
  });

  it("costs no request while the quota is in demand: the next summary's balance read finds the low balance", async () => {
    // 6 a minute: the recipient check, the summary's balance and the purchase use half of it,
    // so the quota is not idle after the purchase and nothing is read for the check alone.
    const { h, features } = await adminWorld({
      alerts: { lowBalanceUsdt: "999" },
      clientQuota: { limit: 6, windowMs: 60_000 },
    });
    const balanceReads = () => h.sandbox.requests.filter((r) => r.path === "/wallet-balance/");
    const lowTexts = () => sentTexts(h, ADMIN.id).filter((t) => t.startsWith("⚠️ The wallet"));
    const bea = chatPerson(h, BUYER);
    await bea.giftStars("bob_gifts", "⭐ 100");
    await features.idle();
    expect(bea.lastMessage().text).toMatch(/^✅/);
    expect(balanceReads()).toHaveLength(1);
    expect(lowTexts()).toEqual([]);

    // The next summary reads the balance anyway (the purchase made the cached one stale).
    await bea.starsSummary("carl_gifts", "⭐ 100");
    await features.idle();
    expect(balanceReads()).toHaveLength(2);
    expect(lowTexts()).toEqual([
      "⚠️ The wallet is running low on USDT: 998.5 USDT (alert below 999 USDT).",
    ]);
  });

  it("checks nothing after purchases without thresholds, and starts when a reload sets them", async () => {
    const { h, features } = await adminWorld();
    const balanceReads = () => h.sandbox.requests.filter((r) => r.path === "/wallet-balance/");
    const lowTexts = () => sentTexts(h, ADMIN.id).filter((t) => t.startsWith("⚠️ The wallet"));
    const bea = chatPerson(h, BUYER);
    await bea.giftStars("bob_gifts", "⭐ 100");
    await features.idle();
    // The summary's read, and the desk's one read after the purchase, which the cost of what
    // was bought listens to (the quota is idle): the check adds none, and says nothing.
    expect(balanceReads()).toHaveLength(2);
    expect(lowTexts()).toEqual([]);

    h.app.notifier.setAlerts({ lowBalanceUsdt: "998" });
    await bea.giftStars("carl_gifts", "⭐ 100");
    await features.idle();
    // The summary reuses that read after the last purchase; then the one read after this
    // purchase, shared by the check and the cost: still one per purchase, never two.
    expect(balanceReads()).toHaveLength(3);
    expect(lowTexts()).toEqual([
      "⚠️ The wallet is running low on USDT: 997 USDT (alert below 998 USDT).",
    ]);
  });

  it("a purchase that was not sent (stopped at shutdown, never claimed) spent nothing: no balance check", async () => {
    const { h, features } = await adminWorld({ alerts: { lowBalanceUsdt: "998.5" } });
    const bea = chatPerson(h, BUYER);
    await bea.starsSummary("bob_gifts", "⭐ 100");
    // Low already, and the cached balance is stale: a check after the purchase would read it.
    h.sandbox.setBalance({ ton: "0", usdt: "5" });
    h.clock.advance(20_000);
    const balanceReads = () => h.sandbox.requests.filter((r) => r.path === "/wallet-balance/");
    const readsBefore = balanceReads().length;
    h.client.stopPurchases();
    await bea.pressButton("✅ Confirm");
    await features.idle();
    expect(bea.lastMessage().text).toMatch(/Nothing was bought: the bot is restarting/);
    expect(balanceReads()).toHaveLength(readsBefore);
    expect(sentTexts(h, ADMIN.id).filter((t) => t.startsWith("⚠️ The wallet"))).toEqual([]);
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);
  });
});
