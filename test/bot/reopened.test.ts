/**
 * A buyer who met a pause is told once, in their language, when purchases reopen: they need
 * not come back and try again to find out.
 */
import { describe, expect, it } from "vitest";
import { chatPerson } from "../../tools/testing/chat-person.js";
import { testUser } from "../../tools/testing/updates.js";
import { ADMIN, adminWorld, BUYER } from "../helpers/admin-bot.js";

const REOPENED_EN = "▶ Purchases are open again: you can gift now.";
const REOPENED_EN_KEPT =
  "▶ Purchases are open again: you can gift now. A summary you kept can be confirmed.";
const REOPENED_RU_KEPT =
  "▶ Покупки снова открыты: можно дарить. Сохранённую сводку можно подтвердить.";

function sentTo(h: Awaited<ReturnType<typeof adminWorld>>["h"], chatId: number, since: number) {
  return h.telegram
    .callsSince(since)
    .filter((c) => c.method === "sendMessage" && Number(c.payload.chat_id) === chatId)
    .map((c) => String(c.payload.text));
}

describe("purchases reopen", () => {
  it("those who met an admin's pause are told once, each in their language", async () => {
    const olga = testUser(2002, { first_name: "Olga", language_code: "ru" });
    const { h } = await adminWorld({ access: { allowedUserIds: [BUYER.id, olga.id] } });
    const bea = chatPerson(h, BUYER);
    const ru = chatPerson(h, olga);
    const admin = chatPerson(h, ADMIN);
    // Olga has a summary when the pause comes; Bea meets it at /stars.
    await ru.starsSummary("bob_gifts", "⭐ 100");
    await admin.command("pause");
    await bea.command("stars");
    expect(bea.lastMessage().text).toMatch(/paused by the admins/);
    await ru.pressButton("✅ Подтвердить");
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);

    const before = h.telegram.mark();
    await admin.command("resume");
    await h.app.services.pauseWaiters.idle();
    // Olga kept her summary; Bea has none, and is not told of one.
    expect(sentTo(h, BUYER.id, before)).toEqual([REOPENED_EN]);
    expect(sentTo(h, olga.id, before)).toEqual([REOPENED_RU_KEPT]);
    expect(sentTo(h, ADMIN.id, before)).toEqual(["▶ Purchases are open again."]);

    // Once: a second pause and resume tells nobody who did not meet it again.
    await admin.command("pause");
    const again = h.telegram.mark();
    await admin.command("resume");
    await h.app.services.pauseWaiters.idle();
    expect(sentTo(h, BUYER.id, again)).toEqual([]);
    expect(sentTo(h, olga.id, again)).toEqual([]);
  });

  it("those who met a hold for an unknown outcome are told when the last one is settled", async () => {
    const { h, features } = await adminWorld();
    const bea = chatPerson(h, BUYER);
    const admin = chatPerson(h, ADMIN);
    await bea.starsSummary("bob_gifts", "⭐ 100");
    h.sandbox.injectFault({ type: "unconfirmed" }, { path: "/buy-stars/" });
    await bea.pressButton("✅ Confirm");
    await features.idle();
    // A second gift meets the hold.
    await bea.starsSummary("carol_gifts", "⭐ 50");
    expect(bea.lastMessage().text).toMatch(/on hold while the admins check an earlier gift/);

    const before = h.telegram.mark();
    await admin.command("pending");
    await admin.pressButton("❌ Not delivered");
    await h.app.services.pauseWaiters.idle();
    // First how the earlier gift ended, then that the summary she kept can be confirmed.
    expect(sentTo(h, BUYER.id, before)).toEqual([
      expect.stringMatching(/^🔔 .*\n\n❌ Not delivered: 100 Telegram Stars to @bob_gifts\./),
      REOPENED_EN_KEPT,
    ]);
  });
});
