/**
 * A person who pressed Confirm always learns the final outcome: when an unknown outcome is
 * settled, by an admin (Delivered / Not delivered) or by the service's own answer arriving
 * after another process had recovered the purchase as interrupted, its requester is told in
 * the chat they asked in, in their language, in the buyer's words; the admins' alerts turn
 * into their settled state; and a late answer that contradicts an admin's settlement is an
 * alarm to every admin at once. Through the real bot, the sandbox and the store (SQLite, or
 * PostgreSQL with GIFTBOT_TEST_STORE=postgres).
 */
import { describe, expect, it } from "vitest";
import { buttonsOf, chatPerson } from "../../tools/testing/chat-person.js";
import { testUser } from "../../tools/testing/updates.js";
import { ADMIN, ADMIN2, adminWorld, BUYER, GROUP_ID, sentTexts } from "../helpers/admin-bot.js";
import { GINA, groupWorld, MIA } from "../helpers/group-bot.js";

const OLGA = testUser(2002, { first_name: "Olga", language_code: "ru" });

/** The texts of the bot's messages to `chatId` since `since` that start with `prefix`. */
function told(h: Parameters<typeof sentTexts>[0], chatId: number, prefix: string, since = 0) {
  return sentTexts(h, chatId, since).filter((text) => text.startsWith(prefix));
}

describe("an admin settles an unknown outcome", () => {
  it("the buyer is told in English when it is settled as delivered, in Russian when not", async () => {
    const { h, features } = await adminWorld({
      access: { allowedUserIds: [BUYER.id, OLGA.id] },
    });
    const bea = chatPerson(h, BUYER);
    const olga = chatPerson(h, OLGA);
    const ada = chatPerson(h, ADMIN);

    h.sandbox.injectFault({ type: "unconfirmed" }, { path: "/buy-stars/" });
    await bea.giftStars("bob_gifts", "⭐ 100");
    await features.idle();
    expect(bea.lastMessage().text).toMatch(/⚠️ The outcome is unknown/);
    const before = h.telegram.mark();
    await ada.pressButton("✅ Delivered");
    await features.idle();
    expect(sentTexts(h, BUYER.id, before)).toEqual([
      [
        "🔔 News about your gift whose outcome was unknown:",
        "",
        "✅ Delivered: 100 Telegram Stars to @bob_gifts. The admins checked it.",
      ].join("\n"),
    ]);

    h.sandbox.injectFault({ type: "unconfirmed" }, { path: "/buy-stars/" });
    await olga.starsSummary("carl_gifts", "⭐ 50");
    await olga.pressButton("✅ Подтвердить");
    await features.idle();
    const later = h.telegram.mark();
    await ada.pressButton("❌ Not delivered");
    await features.idle();
    expect(sentTexts(h, OLGA.id, later)).toEqual([
      [
        "🔔 Новости о вашем подарке, исход которого был неизвестен:",
        "",
        "❌ Не доставлено: 50 Telegram Stars для @carl_gifts. Администраторы это проверили; подарок можно отправить снова.",
      ].join("\n"),
    ]);
    // Nothing of the service's or the operator's: no answer, no id, no admin.
    for (const text of [...sentTexts(h, BUYER.id), ...sentTexts(h, OLGA.id)]) {
      expect(text).not.toMatch(/unconfirmed|HTTP|transient|Purchase id|1001|ada_admin/i);
    }
  });

  it("a group administrator's gift: the group where it was asked learns it", async () => {
    const g = await groupWorld();
    const { h, features } = g;
    await chatPerson(h, ADMIN2).command("start");
    const hello = await g.say(MIA, "hi all");
    await g.say(GINA, "/premium", hello);
    await g.press(GINA, "6 months");
    h.sandbox.injectFault({ type: "unconfirmed" }, { path: "/buy-premium/" });
    await g.press(GINA, "✅ Confirm");
    await features.idle();
    expect(g.last()?.text).toMatch(/⚠️ The outcome is unknown/);

    const before = h.telegram.mark();
    await chatPerson(h, ADMIN2).pressButton("✅ Доставлено");
    await features.idle();
    expect(sentTexts(h, GROUP_ID, before)).toEqual([
      [
        "🔔 News about your gift whose outcome was unknown:",
        "",
        "✅ Delivered: Telegram Premium for 6 months to @mia_member. The admins checked it.",
      ].join("\n"),
    ]);
    // Told where it was asked, not in the administrator's private chat.
    expect(sentTexts(h, GINA.id, before)).toEqual([]);
  });

  it("every alert and /pending message turns into its settled state, its buttons gone, admins named", async () => {
    const { h, features } = await adminWorld();
    const ada = chatPerson(h, ADMIN);
    const boris = chatPerson(h, ADMIN2);
    // Boris's Telegram app is in Russian: the bot learns it from his first message.
    await boris.command("start");
    h.sandbox.injectFault({ type: "unconfirmed" }, { path: "/buy-stars/" });
    await chatPerson(h, BUYER).giftStars("bob_gifts", "⭐ 100");
    await features.idle();
    const adaAlert = ada.findButton("✅ Delivered");
    const borisAlert = boris.findButton("❌ Не доставлено");
    await ada.command("pending");
    const pending = ada.findButton("❌ Not delivered");
    expect(pending.messageId).not.toBe(adaAlert.messageId);

    await ada.press(pending.data, pending.messageId);
    await features.idle();
    const settledEn = (messageId: number) => h.telegram.message(ADMIN.id, messageId);
    for (const messageId of [adaAlert.messageId, pending.messageId]) {
      const text = settledEn(messageId)?.text ?? "";
      expect(text.split("\n")[0]).toBe(
        "❌ Settled as not delivered: 100 Telegram Stars to @bob_gifts.",
      );
      expect(text).toContain(`Asked by @bea_buyer (${BUYER.id}) in a private chat`);
      expect(text).toContain("Balance before: 100 TON, 1,000 USDT");
      expect(text).not.toContain("Purchases stay on hold");
      expect(text).not.toContain("Unknown outcome");
      expect(text.split("\n").at(-1)).toBe("Settled as not delivered by @ada_admin (1001).");
      expect(buttonsOf(settledEn(messageId))).toEqual([]);
    }
    const borisText = h.telegram.message(ADMIN2.id, borisAlert.messageId)?.text ?? "";
    expect(borisText.split("\n")[0]).toBe(
      "❌ Отмечено как недоставленное: 100 Telegram Stars для @bob_gifts.",
    );
    expect(borisText.split("\n").at(-1)).toBe(
      "Отмечено как недоставленное администратором @ada_admin (1001).",
    );
    expect(buttonsOf(h.telegram.message(ADMIN2.id, borisAlert.messageId))).toEqual([]);

    // A press of the old buttons (a client that still shows them) says so and changes nothing.
    const mark = h.telegram.mark();
    await boris.press(borisAlert.data, borisAlert.messageId);
    expect(
      h.telegram
        .callsSince(mark)
        .filter((c) => c.method === "answerCallbackQuery")
        .map((c) => c.payload.text),
    ).toEqual(["Уже решено: не доставлен (проверено администраторами)."]);
    expect((await h.records.unconfirmed()).length).toBe(0);
    // /purchases <id> names the admin too.
    const [intent] = await h.records.recent({ limit: 1 });
    await ada.command("purchases", intent?.id);
    expect(ada.lastMessage().text).toMatch(/\nSettled by @ada_admin \(1001\) on /);
  });
});

describe("the service's answer arrives after another process recovered the purchase", () => {
  /**
   * Bea confirms; while the service holds its answer, the purchase is recovered as interrupted
   * (what a process taking over does at its start), so the admins are alerted and purchases
   * wait. `meanwhile` runs then; the answer is released afterwards.
   */
  async function lateAnswer(
    meanwhile: (world: Awaited<ReturnType<typeof adminWorld>>) => Promise<void>,
  ) {
    const world = await adminWorld();
    const { h, features } = world;
    await chatPerson(h, ADMIN2).command("start");
    const bea = chatPerson(h, BUYER);
    await bea.starsSummary("bob_gifts", "⭐ 100");
    h.sandbox.injectFault({ type: "hold" }, { path: "/buy-stars/" });
    const pressing = bea.pressButton("✅ Confirm");
    await h.sandbox.waitForRequests(1, "/buy-stars/");
    await h.desk.recoverInterrupted();
    await features.idle();
    expect((await h.records.status()).unconfirmed).toBe(1);
    await meanwhile(world);
    const before = h.telegram.mark();
    expect(h.sandbox.releaseHeld()).toBe(1);
    await pressing;
    await features.idle();
    await h.app.services.background.idle();
    await h.app.services.pauseWaiters.idle();
    return { ...world, bea, before };
  }

  it("settles it: the buyer and the admins are told, the alerts turn settled, purchases reopen", async () => {
    const { h, bea, before } = await lateAnswer(async () => {});
    const [intent] = await h.records.recent({ limit: 1 });
    expect(intent).toMatchObject({ status: "succeeded", resolvedBy: undefined });
    expect((await h.records.status()).unconfirmed).toBe(0);

    const notice = told(h, BUYER.id, "🔔", before);
    expect(notice).toHaveLength(1);
    expect(notice[0]).toMatch(
      /^🔔 News about your gift whose outcome was unknown:\n\n✅ Delivered: 100 Telegram Stars to @bob_gifts\.\nTransaction: /,
    );
    expect(notice[0]).not.toMatch(/service|answer|late|HTTP \d/i);

    const adaNews = told(h, ADMIN.id, "📬", before);
    expect(adaNews).toHaveLength(1);
    expect(adaNews[0]).toContain(
      "📬 The service's answer came late and settled an unknown outcome: 100 Telegram Stars to @bob_gifts was delivered.",
    );
    expect(adaNews[0]).toContain(`Purchase id: ${intent?.id}`);
    expect(adaNews[0]).toContain("The service answered: delivered.");
    expect(told(h, ADMIN2.id, "📬", before)[0]).toMatch(
      /^📬 Запоздавший ответ сервиса решил неизвестный исход: 100 Telegram Stars для @bob_gifts доставлено\./,
    );
    const alert = h.telegram
      .messagesIn(ADMIN.id)
      .find((m) => m.text?.includes(`Purchase id: ${intent?.id}`) && !m.text.startsWith("📬"));
    expect(alert?.text?.split("\n")[0]).toBe(
      "✅ Delivered, as the service's late answer says: 100 Telegram Stars to @bob_gifts.",
    );
    expect(buttonsOf(alert)).toEqual([]);

    // Purchases are open again.
    await bea.giftStars("carl_gifts", "⭐ 50");
    expect(bea.lastMessage().text).toMatch(/^✅ Delivered: 50 Telegram Stars to @carl_gifts\./);
  });

  it("contradicts an admin's settlement: every admin is alarmed at once, with the evidence", async () => {
    const { h, before } = await lateAnswer(async ({ h: world }) => {
      await chatPerson(world, ADMIN).pressButton("❌ Not delivered");
    });
    const [intent] = await h.records.recent({ limit: 1 });
    // The settlement stands; the service's answer is kept beside it.
    expect(intent).toMatchObject({ status: "not_delivered", resolvedBy: ADMIN.id });
    expect(intent?.txHash).toBeDefined();

    const alarm = told(h, ADMIN.id, "🚨", before);
    expect(alarm).toHaveLength(1);
    expect(alarm[0]?.split("\n")).toEqual(
      expect.arrayContaining([
        "🚨 A late answer contradicts a settlement: 100 Telegram Stars to @bob_gifts.",
        `Purchase id: ${intent?.id}`,
        `Asked by @bea_buyer (${BUYER.id}) in a private chat`,
        "The service answered: delivered.",
        `Transaction: https://tonviewer.com/transaction/${intent?.txHash}`,
        expect.stringMatching(/^@ada_admin \(1001\) settled it as not delivered \(.+\)\.$/),
        expect.stringMatching(/^It was delivered after all\./),
      ]),
    );
    const russian = told(h, ADMIN2.id, "🚨", before);
    expect(russian).toHaveLength(1);
    expect(russian[0]).toMatch(
      /^🚨 Запоздавший ответ противоречит решению: 100 Telegram Stars для @bob_gifts\./,
    );
    expect(russian[0]).toContain("Подарок всё же доставлен.");
    // The buyer was told "not delivered" by the settlement, and nothing more by the late answer.
    expect(told(h, BUYER.id, "🔔", before)).toEqual([]);
  });
});
