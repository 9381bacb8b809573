/**
 * The group Premium flow says what stops a purchase when it starts, as the private flow does:
 * an admin's pause and a used-up Premium limit answer /premium at once (no recipient check,
 * no duration prompt, and in a group no figures of the limit); purchases waiting for the
 * admins (the breaker's pause, an unknown outcome) are said in the duration prompt and the
 * summary, which stays confirmable.
 */
import { describe, expect, it } from "vitest";
import { buttonsOf, chatPerson } from "../../../tools/testing/chat-person.js";
import { ADMIN, BUYER, GROUP_ID } from "../../helpers/admin-bot.js";
import { answersSince } from "../../helpers/bot.js";
import { GINA, groupWorld } from "../../helpers/group-bot.js";

const PAUSED =
  "⏸ Purchases are paused by the admins for now, so nothing can be bought. Please try again later.";

describe("the group Premium flow says early what stops it", () => {
  it("an admin's pause answers /premium at once; after /resume the flow runs", async () => {
    const g = await groupWorld();
    const { h } = g;
    const ada = chatPerson(h, ADMIN);
    await ada.command("pause");

    const checks = h.sandbox.requests.length;
    const command = await g.say(GINA, "/premium @mia_member");
    const reply = g.last();
    expect(reply?.text).toBe(PAUSED);
    const sent = h.telegram.callsOf("sendMessage").at(-1)?.payload;
    expect(sent?.reply_parameters).toMatchObject({ message_id: command.message.message_id });
    expect(buttonsOf(reply)).toEqual([]);
    expect(h.sandbox.requests.length).toBe(checks);

    await ada.command("resume");
    await g.say(GINA, "/premium @mia_member");
    // The short reply is tidied away when Gina comes back; the flow asks the duration.
    expect(h.telegram.message(GROUP_ID, reply?.message_id ?? 0)).toBeUndefined();
    expect(g.last()?.text).toBe("Telegram Premium for @mia_member: for how long?");
  });

  it("a used-up Premium limit answers /premium at once, naming the limit but no figures", async () => {
    const g = await groupWorld({ limits: { premiumPerBotDay: 1 } });
    const { h } = g;
    await g.say(GINA, "/premium @mia_member");
    await g.press(GINA, "6 months");
    await g.press(GINA, "✅ Confirm");
    expect(h.sandbox.purchaseRequests()).toHaveLength(1);

    const checks = h.sandbox.requests.length;
    await g.say(GINA, "/premium @lena_l");
    const reply = g.last()?.text ?? "";
    expect(reply).toMatch(
      /^Nothing more can be gifted today under the limit "Premium gifts per day for everyone"\. It resets on .+ UTC\.$/,
    );
    expect(reply).not.toMatch(/\d+ of \d+/);
    expect(h.sandbox.requests.length).toBe(checks);
  });

  it("the breaker's pause: the duration prompt and the summary say it, Confirm waits for Resume", async () => {
    const g = await groupWorld();
    const { h } = g;
    h.sandbox.injectFault(
      {
        type: "status",
        status: 400,
        body: { ok: false, error: "UPSTREAM_FAILED", reason: "fragment returned an error page" },
      },
      { path: "/buy-stars/", times: 3 },
    );
    const bea = chatPerson(h, BUYER);
    for (const recipient of ["alice_friend", "bob_friend", "carol_friend"]) {
      await bea.starsSummary(recipient, "⭐ 50");
      await bea.pressButton("✅ Confirm");
    }
    expect((await h.records.pauseReason())?.source).toBe("breaker");

    await g.say(GINA, "/premium @mia_member");
    const prompt = g.last();
    expect(prompt?.text).toBe(
      "⏸ Purchases are paused for now: the service refused the last purchases and the admins have been told. You can still prepare a gift; Confirm works again once they reopen purchases.\n\n" +
        "Telegram Premium for @mia_member: for how long?",
    );
    await g.press(GINA, "6 months");
    const summary = g.last();
    expect(summary?.text).toMatch(/\n⏸ Purchases are paused for now \(the service refused/);
    const before = h.telegram.mark();
    await g.press(GINA, "✅ Confirm");
    expect(answersSince(h, before)).toEqual([
      "Purchases are paused for now: the service refused the last purchases and the admins have been told. Nothing was spent.",
    ]);
    expect(buttonsOf(h.telegram.message(GROUP_ID, summary?.message_id ?? 0))[0]).toEqual([
      "✅ Confirm",
      "✖️ Cancel",
    ]);
    expect(h.sandbox.purchaseRequests().filter((r) => r.path === "/buy-premium/")).toEqual([]);

    await chatPerson(h, ADMIN).command("resume");
    await g.press(GINA, "✅ Confirm");
    expect(h.telegram.message(GROUP_ID, summary?.message_id ?? 0)?.text).toMatch(
      /^✅ Delivered: Telegram Premium for 6 months to @mia_member\./,
    );
  });
});
