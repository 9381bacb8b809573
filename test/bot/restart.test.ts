import { describe, expect, it } from "vitest";
import { buttonsOf, chatPerson } from "../../tools/testing/chat-person.js";
import { testUser } from "../../tools/testing/updates.js";
import { answersSince, harness } from "../helpers/bot.js";

/**
 * A restart is a new process: the database is closed and reopened, and a new client, ledger,
 * desk and bot are built on it. The person goes on as if nothing happened.
 */
describe("a restart in the middle of a flow resumes it", () => {
  it("while waiting for the recipient", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(401));
    await alice.command("stars");
    await h.restart();
    await alice.say("bob_gifts");
    expect(alice.lastMessage().text).toBe(
      "How many stars for @bob_gifts? Up to 10,000 in one gift.",
    );
  });

  it("after a rejected recipient, still waiting for one", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(402));
    await alice.command("premium");
    await alice.say("premium_eve");
    await h.restart();
    await alice.say("bob_gifts");
    expect(alice.lastMessage().text).toBe("How long should @bob_gifts get Telegram Premium?");
  });

  it("at the amount buttons, and at the typed amount", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(403));
    await alice.command("stars");
    await alice.say("bob_gifts");
    const amount = alice.lastMessage();
    await h.restart();
    await alice.pressButton("Another amount");
    expect(buttonsOf(h.telegram.message(alice.chatId, amount.message_id))).toEqual([]);
    expect(alice.lastMessage().text).toMatch(/^Send the number of stars/);
    await h.restart();
    await alice.say("300");
    expect(alice.lastMessage().text).toContain("Gift: 300 Telegram Stars");
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);
  });

  it("at the premium duration buttons", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(404, { language_code: "ru" }));
    await alice.command("premium");
    await alice.say("bob_gifts");
    await h.restart();
    await alice.pressButton("12 месяцев");
    expect(alice.lastMessage().text).toContain("Подарок: Telegram Premium на 12 месяцев");
  });

  it("at the summary: Confirm after a restart buys once", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(405));
    const summary = await alice.starsSummary("bob_gifts", "⭐ 250");
    await h.restart();
    await alice.pressButton("Pay with TON");
    await h.restart();
    const confirm = alice.findButton("✅ Confirm");
    await alice.press(confirm.data, confirm.messageId);
    expect(h.sandbox.purchaseRequests()).toHaveLength(1);
    expect(h.sandbox.purchaseRequests()[0]?.form).toMatchObject({
      amount: "250",
      payment_method: "ton",
    });
    expect(h.telegram.message(alice.chatId, summary.message_id)?.text).toMatch(/^✅ Delivered/);
    // A second press of the same Confirm, after yet another restart, is refused by the ledger.
    await h.restart();
    const before = h.telegram.mark();
    await alice.press(confirm.data, confirm.messageId);
    expect(answersSince(h, before)).toEqual(["This gift has already been handled."]);
    expect(h.sandbox.purchaseRequests()).toHaveLength(1);
  });

  it("/cancel after a restart still leaves the flow and cancels the open summary", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(406));
    const summary = await alice.starsSummary("bob_gifts", "⭐ 50");
    const confirm = alice.findButton("✅ Confirm");
    await h.restart();
    await alice.command("cancel");
    expect(alice.lastMessage().text).toBe("Cancelled. Nothing was bought.");
    expect(buttonsOf(h.telegram.message(alice.chatId, summary.message_id))).toEqual([]);
    await alice.press(confirm.data, confirm.messageId);
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);
  });

  it("the chosen language survives a restart", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(407, { language_code: "en" }));
    await alice.command("language");
    expect(buttonsOf(alice.lastMessage())).toEqual([["English", "Русский"]]);
    await alice.pressButton("Русский");
    expect(alice.lastMessage().text).toBe("Теперь я говорю по-русски.");
    await h.restart();
    await alice.command("stars");
    expect(alice.lastMessage().text).toBe(
      "Кому подарить звёзды? Отправьте @username или ссылку t.me.",
    );
  });
});
