/**
 * What a gift cost is the operator's figure, shown as the wallet's balance is
 * (SHOW_BALANCE_TO): admins always; buyers, and the groups where group administrators gift,
 * only when the setting says so. Through the real bot, the sandbox and the store.
 */
import { describe, expect, it } from "vitest";
import { chatPerson } from "../../tools/testing/chat-person.js";
import { ADMIN, adminWorld, BUYER, GROUP_ID } from "../helpers/admin-bot.js";
import { GINA, groupWorld } from "../helpers/group-bot.js";

/** Any cost figure or the line that promises one. */
const COST = /Cost|cost|стоимость|Стоимость|\d USDT|\d TON/;

/** Every text the bot sent or edited into chat `chatId`. */
function everythingIn(h: Awaited<ReturnType<typeof adminWorld>>["h"], chatId: number): string[] {
  return h.telegram
    .callsSince(0)
    .filter(
      (c) =>
        (c.method === "sendMessage" || c.method === "editMessageText") &&
        Number(c.payload.chat_id) === chatId,
    )
    .map((c) => String(c.payload.text));
}

describe("who sees what a gift cost", () => {
  it("in a group: a group administrator's Premium gift shows no cost unless buyers may see it", async () => {
    const g = await groupWorld({ access: { showBalanceTo: "admins" } });
    await g.say(GINA, "/premium @mia_member");
    await g.press(GINA, "6 months");
    await g.press(GINA, "✅ Confirm");
    await g.h.desk.settled();
    const [bought] = await g.h.records.recent({ limit: 1 });
    // Measured, and kept for the admins: only the group does not see it.
    expect(bought?.cost).toMatchObject({ measured: true, currency: "usdt" });
    expect(g.last()?.text).toMatch(/^✅ Delivered: Telegram Premium for 6 months to @mia_member\./);
    for (const text of everythingIn(g.h, GROUP_ID)) expect(text).not.toMatch(COST);

    const shown = await groupWorld({ access: { showBalanceTo: "buyers" } });
    await shown.say(GINA, "/premium @mia_member");
    await shown.press(GINA, "6 months");
    await shown.press(GINA, "✅ Confirm");
    expect(shown.last()?.text).toMatch(/\nCost: [\d.]+ USDT\n/);
  });

  it("in a private chat: a buyer sees no cost when SHOW_BALANCE_TO=admins; an admin does", async () => {
    const { h } = await adminWorld({ access: { showBalanceTo: "admins" } });
    const bea = chatPerson(h, BUYER);
    await bea.giftStars("bob_gifts", "⭐ 50");
    h.clock.advance(60_000);
    // A second summary: an estimate exists now (from the first purchase's cost).
    await bea.starsSummary("carl_gifts", "⭐ 50");
    await bea.command("history");
    const bought = (await h.records.recent({ limit: 5 })).find((i) => i.recipient === "bob_gifts");
    expect(bought?.cost).toMatchObject({ measured: true, amount: "0.75" });
    for (const text of everythingIn(h, BUYER.id)) expect(text).not.toMatch(COST);

    const ada = chatPerson(h, ADMIN);
    await ada.command("purchases", bought?.id);
    expect(ada.lastMessage().text).toContain("Cost: 0.75 USDT");

    // An admin's own receipt shows it (a world of its own: the first purchase of the day is
    // the one whose balance readings are its own).
    const own = await adminWorld({ access: { showBalanceTo: "admins" } });
    const admin = chatPerson(own.h, ADMIN);
    await admin.giftStars("dana_gifts", "⭐ 50");
    expect(admin.lastMessage().text).toMatch(/\nCost: 0\.75 USDT\n/);
  });
});
