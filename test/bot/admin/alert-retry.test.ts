/**
 * An admin alert Telegram did not take (unreachable, 5xx) is sent again while the process runs,
 * with growing pauses, not only at the next start; one Telegram refuses for good (a blocked
 * bot) is not.
 */
import { describe, expect, it } from "vitest";
import { chatPerson } from "../../../tools/testing/chat-person.js";
import type { CannedAnswer } from "../../../tools/testing/telegram-fake.js";
import { ADMIN, ADMIN2, adminWorld, BUYER } from "../../helpers/admin-bot.js";

const RETRY = { retries: 4, firstDelayMs: 1, maxDelayMs: 4 };

describe("admin alerts Telegram did not take", () => {
  it("are sent again while the process runs, once Telegram is back; a blocked admin is not retried", async () => {
    const { h, features } = await adminWorld({ adminMessageRetry: RETRY });
    // Telegram is down for the first send and the first re-send, and back from then on. Counted
    // in the answer itself, so the test does not race the re-sends' short pauses.
    const downForTries = 2;
    let adaTries = 0;
    let borisTries = 0;
    h.telegram.answer("sendMessage", (payload, _call, fallback): CannedAnswer => {
      const chat = Number(payload.chat_id);
      if (chat === ADMIN.id) {
        adaTries++;
        if (adaTries <= downForTries) {
          return { ok: false, error_code: 502, description: "Bad Gateway" };
        }
      }
      if (chat === ADMIN2.id) {
        borisTries++;
        return {
          ok: false,
          error_code: 403,
          description: "Forbidden: bot was blocked by the user",
        };
      }
      return fallback();
    });
    const bea = chatPerson(h, BUYER);
    h.sandbox.injectFault({ type: "unconfirmed" }, { path: "/buy-stars/" });
    await bea.giftStars("bob_gifts", "⭐ 100");
    await features.idle();
    expect((await h.records.status()).unconfirmed).toBe(1);

    const delivered = await h.telegram.waitForCall(
      (c) =>
        c.method === "sendMessage" &&
        Number(c.payload.chat_id) === ADMIN.id &&
        c.result !== undefined,
    );
    expect(String(delivered.payload.text)).toMatch(/^⚠️ A purchase ended with an unknown outcome/);
    // The first send and the first re-send failed; the second re-send went through.
    expect(adaTries).toBe(downForTries + 1);
    await features.idle();
    // Delivered once.
    const tries = adaTries;
    const toAda = h.telegram
      .callsOf("sendMessage")
      .filter((c) => Number(c.payload.chat_id) === ADMIN.id);
    expect(toAda.filter((c) => c.result !== undefined)).toHaveLength(1);
    // Telegram's "blocked" is final: that admin was tried once.
    expect(borisTries).toBe(1);

    // Announced: a restart does not announce it again.
    await h.restart();
    await features.idle();
    expect(adaTries).toBe(tries);
  });
});
