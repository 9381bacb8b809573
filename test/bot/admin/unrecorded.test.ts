/**
 * An outcome the database refuses after the request went out reaches every admin at once, in
 * their language, with the service's answer; people are told purchases are on hold; and once
 * the database takes writes again the purchase comes to the admins as an unknown outcome to
 * settle, without a restart. The fault is a trigger in the real store (SQLite or PostgreSQL).
 */
import { describe, expect, it } from "vitest";
import { chatPerson } from "../../../tools/testing/chat-person.js";
import { installStoreWriteFault } from "../../helpers/write-fault.js";
import { answersSince } from "../../helpers/bot.js";
import { ADMIN, ADMIN2, adminWorld, BUYER, sentTexts } from "../../helpers/admin-bot.js";

describe("an outcome that cannot be written", () => {
  it("admins told at once with the answer, Confirm answered 'on hold', then unconfirmed without a restart", async () => {
    const { h } = await adminWorld();
    const boris = chatPerson(h, ADMIN2);
    await boris.command("language");
    await boris.pressButton("Русский");
    const setFault = await installStoreWriteFault(h);

    const bea = chatPerson(h, BUYER);
    await bea.starsSummary("bob_gifts", "⭐ 100");
    // The claim commits, then every later status write fails until the flag is cleared. The
    // answer waits long enough for the switch (on PostgreSQL, a connection of its own).
    h.sandbox.injectFault({ type: "delay", ms: 500 }, { path: "/buy-stars/" });
    const pressed = bea.pressButton("✅ Confirm");
    await h.sandbox.waitForRequests(1, "/buy-stars/");
    await setFault(true);
    await pressed;
    // The admins' alert is sent in the background (each admin's language read first).
    await h.app.notifier.idle();

    expect(bea.lastMessage().text).toMatch(/outcome is unknown/);
    const [toAda] = sentTexts(h, ADMIN.id).filter((t) => t.startsWith("⚠️"));
    expect(toAda).toMatch(
      /^⚠️ A purchase's outcome could not be written to the database: 100 Telegram Stars to @bob_gifts\./,
    );
    expect(toAda).toContain("The service answered: delivered.");
    expect(toAda).toContain("Purchases are on hold.");
    const [toBoris] = sentTexts(h, ADMIN2.id).filter((t) => t.startsWith("⚠️"));
    expect(toBoris).toMatch(/^⚠️ Результат покупки не удалось записать в базу данных/);
    expect(toBoris).toContain("Ответ сервиса: доставлено.");

    // Another person's Confirm meanwhile: on hold, not "busy, press again".
    await bea.starsSummary("carl_gifts", "⭐ 100");
    const before = h.telegram.mark();
    await bea.pressButton("✅ Confirm");
    expect(answersSince(h, before)).toEqual([
      "Purchases are on hold while the admins check an earlier gift.",
    ]);
    expect(h.sandbox.purchaseRequests()).toHaveLength(1);

    // The database takes writes again: the purchase becomes unconfirmed, announced with buttons.
    const mark = h.telegram.mark();
    await setFault(false);
    const announced = await h.telegram.waitForCall(
      (c) =>
        c.method === "sendMessage" &&
        Number(c.payload.chat_id) === ADMIN.id &&
        String(c.payload.text).startsWith("⚠️ A purchase ended with an unknown outcome"),
      { since: mark },
    );
    expect(String(announced.payload.text)).toContain(
      "the service answered (delivered), but the database could not record the answer at once",
    );
    expect(await h.records.status()).toEqual({ paused: false, unconfirmed: 1 });
    expect((await h.records.unconfirmed())[0]).toMatchObject({
      recipient: "bob_gifts",
      status: "unconfirmed",
    });
  });
});
