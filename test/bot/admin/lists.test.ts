/**
 * The admins' two lists read as lists in Telegram: every /purchases line has a numbered button
 * that opens it (no id to retype), and /allowed names groups by their title and says where each
 * entry's access comes from. Through the real bot from openApp, in English and Russian.
 */
import { describe, expect, it } from "vitest";
import { buttonsOf, chatPerson } from "../../../tools/testing/chat-person.js";
import { answersSince } from "../../helpers/bot.js";
import {
  ADMIN,
  ADMIN2,
  adminWorld,
  BUYER,
  GROUP_ID,
  groupMessage,
  OTHER_GROUP_ID,
  STRANGER,
} from "../../helpers/admin-bot.js";

describe("/purchases: a numbered button per line opens that purchase", () => {
  it("numbers the lines and the buttons alike, page after page, and opens each in full", async () => {
    const { h } = await adminWorld();
    const bea = chatPerson(h, BUYER);
    for (let i = 0; i < 6; i++) await bea.giftStars(`bob_gifts${i}`, "⭐ 50");
    const ada = chatPerson(h, ADMIN);

    await ada.command("purchases");
    const list = ada.lastMessage();
    const lines = (list.text ?? "").split("\n");
    expect(lines[2]).toMatch(/^1\. .+: 50 Telegram Stars to @bob_gifts5, delivered, by @bea_buyer/);
    expect(lines[6]).toMatch(/^5\. .+ to @bob_gifts1,/);
    expect(list.text).not.toMatch(/\bid [A-Za-z0-9_-]{6,}/);
    expect(lines.at(-1)).toBe(
      "Press a number to open that purchase. Any purchase by its id: /purchases <id>",
    );
    expect(buttonsOf(list)).toEqual([["1", "2", "3", "4", "5"], ["Older ▶"]]);

    const before = h.telegram.mark();
    await ada.pressButton("2");
    expect(answersSince(h, before)).toEqual([undefined]);
    const opened = ada.lastMessage();
    expect(opened.message_id).not.toBe(list.message_id);
    expect(opened.text).toMatch(
      /^Purchase [A-Za-z0-9_-]+\n\nGift: 50 Telegram Stars to @bob_gifts4\n/,
    );

    await ada.pressButton("Older ▶");
    const older = h.telegram.message(ada.chatId, list.message_id);
    expect(older?.text?.split("\n")[2]).toMatch(/^6\. .+ to @bob_gifts0,/);
    expect(buttonsOf(older)).toEqual([["6"], ["◀ Newer"]]);
    await ada.pressButton("6");
    expect(ada.lastMessage().text).toContain("Gift: 50 Telegram Stars to @bob_gifts0");
  });

  it("an unconfirmed purchase opens with Delivered / Not delivered", async () => {
    const { h } = await adminWorld();
    h.sandbox.injectFault({ type: "unconfirmed" }, { path: "/buy-stars/" });
    await chatPerson(h, BUYER).giftStars("bob_gifts", "⭐ 50");
    const ada = chatPerson(h, ADMIN);
    await ada.command("purchases");
    await ada.pressButton("1");
    expect(ada.lastMessage().text).toContain("Status: outcome unknown, the admins are checking");
    expect(buttonsOf(ada.lastMessage())).toEqual([["✅ Delivered", "❌ Not delivered"]]);
  });

  it("refuses forged, unknown and other people's presses with a localized answer, showing nothing", async () => {
    const { h } = await adminWorld();
    await chatPerson(h, BUYER).giftStars("bob_gifts", "⭐ 50");
    const ada = chatPerson(h, ADMIN);
    const boris = chatPerson(h, ADMIN2);
    await ada.command("purchases");
    const real = ada.findButton("1");

    const before = h.telegram.mark();
    await ada.press("adm:open:no such id!", real.messageId);
    await ada.press("adm:open:AAAAAAAAAAAAAAAAAAAAAA", real.messageId);
    await boris.press("adm:open:AAAAAAAAAAAAAAAAAAAAAA", real.messageId);
    await chatPerson(h, BUYER).press(real.data, real.messageId);
    await chatPerson(h, STRANGER).press(real.data, real.messageId);
    expect(answersSince(h, before)).toEqual([
      "This button is not valid.",
      "There is no purchase with id AAAAAAAAAAAAAAAAAAAAAA.",
      "Покупки с id AAAAAAAAAAAAAAAAAAAAAA нет.",
      "This button is not valid.",
      "This button is not valid.",
    ]);
    expect(h.telegram.callsSince(before).map((c) => c.method)).toEqual(
      Array(5).fill("answerCallbackQuery"),
    );
  });
});

describe("/allowed: group titles and where access comes from", () => {
  it("names groups by title and says 'from the settings' or who added it and when", async () => {
    const { h } = await adminWorld();
    const ada = chatPerson(h, ADMIN);
    // The configured group is named once the bot has seen it; the other is added in the bot.
    await h.send(groupMessage(BUYER, GROUP_ID, "hello", { title: "Family chat" }).update);
    await h.send(groupMessage(ADMIN, OTHER_GROUP_ID, "/allowchat", { title: "Book club" }).update);
    await ada.command("allow", "4242");

    await ada.command("allowed");
    const text = ada.lastMessage().text ?? "";
    expect(text).not.toContain("ALLOWED settings");
    expect(text).toContain("2 buyers:");
    expect(text).toContain(`• @bea_buyer (${BUYER.id}): from the settings`);
    expect(text).toMatch(/• 4242: added by @ada_admin \(1001\) on .+ UTC/);
    expect(text).toContain("2 groups whose administrators may gift Premium:");
    expect(text).toContain(`• Family chat (${GROUP_ID}): from the settings`);
    expect(text).toMatch(
      new RegExp(`• Book club \\(${OTHER_GROUP_ID}\\): added by @ada_admin \\(1001\\) on .+ UTC`),
    );
  });

  it("says it in Russian with Russian plurals, and 'One buyer' in English", async () => {
    const { h } = await adminWorld({ access: { allowedChatIds: [] } });
    await h.send(groupMessage(ADMIN, OTHER_GROUP_ID, "/allowchat", { title: "Клуб" }).update);
    const ada = chatPerson(h, ADMIN);
    const boris = chatPerson(h, ADMIN2);
    await ada.command("allowed");
    expect(ada.lastMessage().text).toContain("One buyer:");
    await boris.command("allowed");
    const ru = boris.lastMessage().text ?? "";
    expect(ru).toContain("1 покупатель:");
    expect(ru).toContain(`• ${BUYER.id}: из настроек`);
    expect(ru).toContain("1 группа, где администраторы могут дарить Premium:");
    expect(ru).toMatch(
      new RegExp(`• Клуб \\(${OTHER_GROUP_ID}\\): добавил @ada_admin \\(1001\\), `),
    );

    for (const id of [4001, 4002]) await ada.command("allow", String(id));
    await boris.command("allowed");
    expect(boris.lastMessage().text).toContain("3 покупателя:");
    for (const id of [4003, 4004]) await ada.command("allow", String(id));
    await boris.command("allowed");
    expect(boris.lastMessage().text).toContain("5 покупателей:");
  });
});
