import { describe, expect, it } from "vitest";
import { chatPerson } from "../../../tools/testing/chat-person.js";
import { testUser } from "../../../tools/testing/updates.js";
import { encodeMenu } from "../../../src/bot/callback-data/menu.js";
import { ADMIN, adminWorld, BUYER, STRANGER } from "../../helpers/admin-bot.js";
import { answersSince } from "../../helpers/bot.js";

const STARS_PROMPT = "Who should get the stars? Send their @username or a t.me link.";

describe("who may buy in a private chat", () => {
  it("a stranger is told purchases are not open and whom to ask, with zero requests to the service", async () => {
    const { h } = await adminWorld();
    const sam = chatPerson(h, STRANGER);
    await sam.command("stars");
    const denied = `Purchases are not open to you. To get access, ask the bot's admins and give them your user id: ${STRANGER.id}.`;
    expect(sam.lastMessage().text).toBe(denied);
    await sam.command("premium");
    expect(sam.lastMessage().text).toBe(denied);
    await sam.command("start");
    expect(sam.lastMessage().text).toBe(denied);
    await sam.press(encodeMenu("stars"), sam.lastMessage().message_id);
    expect(sam.lastMessage().text).toBe(denied);
    // Nothing typed afterwards reaches the service either: no flow was entered.
    await sam.say("@bob_gifts");
    expect(h.sandbox.requests).toHaveLength(0);
  });

  it("names the admins' contact when one is configured (ADMIN_CONTACT)", async () => {
    const { h } = await adminWorld({ contact: "@shop_support" });
    const sam = chatPerson(h, STRANGER);
    await sam.command("stars");
    expect(sam.lastMessage().text).toBe(
      `Purchases are not open to you. To get access, ask @shop_support and give them your user id: ${STRANGER.id}.`,
    );
    const ivan = chatPerson(h, testUser(3002, { language_code: "ru" }));
    await ivan.command("premium");
    expect(ivan.lastMessage().text).toBe(
      "Покупки для вас закрыты. Чтобы получить доступ, напишите @shop_support и сообщите ваш id: 3002.",
    );
    expect(h.sandbox.requests).toHaveLength(0);
  });

  it("tells a stranger in their own language", async () => {
    const { h } = await adminWorld();
    const ivan = chatPerson(h, testUser(3002, { language_code: "ru" }));
    await ivan.command("premium");
    expect(ivan.lastMessage().text).toBe(
      "Покупки для вас закрыты. Чтобы получить доступ, напишите администраторам бота и сообщите им ваш id: 3002.",
    );
    expect(h.sandbox.requests).toHaveLength(0);
  });

  it("an allowed buyer (ALLOWED_USER_IDS) and an admin buy", async () => {
    const { h } = await adminWorld();
    for (const user of [BUYER, ADMIN]) {
      const person = chatPerson(h, user);
      await person.command("stars");
      expect(person.lastMessage().text).toBe(STARS_PROMPT);
      await person.say("@bob_gifts");
      await person.pressButton("⭐ 100");
      await person.pressButton("✅ Confirm");
      expect(person.lastMessage().text).toMatch(
        /^✅ Delivered: 100 Telegram Stars to @bob_gifts\./,
      );
    }
    expect(h.sandbox.purchaseRequests()).toHaveLength(2);
  });

  it("PUBLIC_PURCHASES lets anyone buy", async () => {
    const { h } = await adminWorld({ access: { publicPurchases: true } });
    const sam = chatPerson(h, STRANGER);
    await sam.command("stars");
    expect(sam.lastMessage().text).toBe(STARS_PROMPT);
    await sam.say("bob_gifts");
    await sam.pressButton("⭐ 50");
    await sam.pressButton("✅ Confirm");
    expect(h.sandbox.purchaseRequests()).toHaveLength(1);
  });

  it("a buyer an admin allowed in the bot buys; once denied, even an open summary buys nothing", async () => {
    const { h, access } = await adminWorld();
    const carol = chatPerson(h, testUser(2002));
    await access.allowUser(carol.user.id, ADMIN.id);
    await carol.starsSummary("bob_gifts", "⭐ 50");
    const summary = carol.findButton("✅ Confirm");

    await access.denyUser(carol.user.id);
    const before = h.telegram.mark();
    await carol.press(summary.data, summary.messageId);
    expect(answersSince(h, before)).toEqual([
      `Purchases are not open to you. To get access, ask the bot's admins and give them your user id: ${carol.user.id}.`,
    ]);
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);
  });
});
