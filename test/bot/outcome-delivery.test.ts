/**
 * A person always learns the outcome of their Confirm: when the summary cannot be edited into
 * it any more (deleted, too old, Telegram failing after its retries), the outcome is sent as a
 * new message to that chat.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS } from "../../src/ledger/limits.js";
import { buttonsOf, chatPerson } from "../../tools/testing/chat-person.js";
import type { CannedAnswer } from "../../tools/testing/telegram-fake.js";
import { testUser } from "../../tools/testing/updates.js";
import { harness } from "../helpers/bot.js";

describe("an outcome the summary cannot show", () => {
  it("is sent as a new message when the summary's edit fails", async () => {
    // Buyers see what a gift cost here (SHOW_BALANCE_TO=buyers): the receipt's edit adds it.
    const h = await harness({ access: { showBalanceTo: "buyers" } });
    const alice = chatPerson(h, testUser(611));
    const summary = await alice.starsSummary("bob_gifts", "⭐ 100");
    // The summary was deleted once "Sending…" was shown: only that first edit works.
    let edits = 0;
    h.telegram.answer("editMessageText", (payload, _call, fallback): CannedAnswer => {
      if (payload.message_id !== summary.message_id) return fallback();
      edits++;
      return edits === 1
        ? fallback()
        : { ok: false, error_code: 400, description: "Bad Request: message to edit not found" };
    });
    const before = h.telegram.mark();
    await alice.pressButton("✅ Confirm");

    const sent = h.telegram
      .callsSince(before)
      .filter((c) => c.method === "sendMessage" && Number(c.payload.chat_id) === alice.chatId)
      .map((c) => String(c.payload.text));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(
      /^✅ Delivered: 100 Telegram Stars to @bob_gifts\.\nCost: being measured…\nTransaction: /,
    );
    // The cost is added to the message that was sent in the summary's place.
    expect(alice.lastMessage().text).toMatch(
      /^✅ Delivered: 100 Telegram Stars to @bob_gifts\.\nCost: 1\.5 USDT\nTransaction: /,
    );
    expect(h.telegram.message(alice.chatId, summary.message_id)?.text).toMatch(/Sending your gift/);
    expect(h.sandbox.purchaseRequests()).toHaveLength(1);
  });

  it("a refusal is sent as a new message, Confirm kept, when the summary's edit fails", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(612));
    await alice.starsSummary("bob_gifts", "⭐ 100");
    // The limit changed while the summary was open; the summary itself can no longer be edited.
    h.desk.setLimits({ ...DEFAULT_LIMITS, starsPerUserDay: 60 });
    h.telegram.answer("editMessageText", (): CannedAnswer => ({
      ok: false,
      error_code: 400,
      description: "Bad Request: message to edit not found",
    }));
    const before = h.telegram.mark();
    await alice.pressButton("✅ Confirm");

    const sent = h.telegram
      .callsSince(before)
      .filter((c) => c.method === "sendMessage" && Number(c.payload.chat_id) === alice.chatId);
    expect(sent).toHaveLength(1);
    expect(String(sent[0]?.payload.text)).toMatch(/limit "your stars per day"/);
    expect(buttonsOf(alice.lastMessage()).flat()).toContain("✅ Confirm");
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);
  });
});
