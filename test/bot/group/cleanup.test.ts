import { describe, expect, it } from "vitest";
import { testUser } from "../../../tools/testing/updates.js";
import { GROUP_ID, sentTexts } from "../../helpers/admin-bot.js";
import { answersSince } from "../../helpers/bot.js";
import { GINA, groupWorld, MIA, NOAH } from "../../helpers/group-bot.js";

const OTTO = testUser(5004, { first_name: "Otto" });

describe("group /cancel and /language", () => {
  it("/cancel ends only the sender's own group flow and says nothing in the group", async () => {
    const g = await groupWorld();
    const { h } = g;
    await g.say(GINA, "/premium @mia_member");
    const prompt = g.last();

    // Another member's /cancel or /language: nothing at all happens in the group.
    const quiet = h.telegram.mark();
    await g.say(NOAH, "/cancel");
    await g.say(NOAH, "/language");
    await g.say(GINA, "/language");
    expect(h.telegram.callsSince(quiet)).toEqual([]);
    expect(g.last()).toEqual(prompt);

    // The administrator's /cancel deletes the open duration prompt, silently.
    const cancel = h.telegram.mark();
    await g.say(GINA, "/cancel");
    expect(h.telegram.message(GROUP_ID, prompt?.message_id ?? 0)).toBeUndefined();
    expect(sentTexts(h, GROUP_ID, cancel)).toEqual([]);
    const pressed = h.telegram.mark();
    await h.send(h.updates.callback(GINA, "grp:dur:6", prompt?.message_id ?? 0, GROUP_ID));
    expect(answersSince(h, pressed)).toEqual(["This button is no longer active."]);

    // With a summary open, /cancel cancels its draft and deletes it.
    await g.say(GINA, "/premium @mia_member");
    await g.press(GINA, "6 months");
    const summary = g.last();
    const intent = (await h.records.recent({ userId: GINA.id, limit: 1 }))[0];
    expect(intent?.status).toBe("draft");
    const cancelSummary = h.telegram.mark();
    await g.say(GINA, "/cancel");
    expect(h.telegram.message(GROUP_ID, summary?.message_id ?? 0)).toBeUndefined();
    expect((await h.records.getIntent(intent?.id ?? ""))?.status).toBe("cancelled");
    expect(sentTexts(h, GROUP_ID, cancelSummary)).toEqual([]);

    // Nothing left to cancel: still nothing said.
    const nothing = h.telegram.mark();
    await g.say(GINA, "/cancel");
    expect(h.telegram.callsSince(nothing)).toEqual([]);
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);
  });
});

describe("the bot cleans up after itself in a group", () => {
  it("Cancel on a group summary deletes it; a person's short replies go when they come back", async () => {
    const g = await groupWorld();
    const { h } = g;
    await g.say(NOAH, "/premium @mia_member");
    const refusal = g.last();
    expect(refusal?.text).toBe("Gifting Premium here is for the group's administrators.");
    // Past the group's refusal cooldown, so Noah is answered again (and the old answer goes).
    h.clock.advance(31_000);
    await g.say(NOAH, "/premium @mia_member");
    expect(h.telegram.message(GROUP_ID, refusal?.message_id ?? 0)).toBeUndefined();
    const secondRefusal = g.last();

    await g.say(GINA, "/premium");
    const usage = g.last();
    expect(usage?.text).toBe(
      "Reply to a member's message with /premium, or write /premium @username.",
    );
    await g.say(GINA, "/premium @mia_member");
    expect(h.telegram.message(GROUP_ID, usage?.message_id ?? 0)).toBeUndefined();
    await g.press(GINA, "6 months");
    const summary = g.last();
    const before = h.telegram.mark();
    await g.press(GINA, "✖️ Cancel");
    expect(answersSince(h, before)).toEqual(["Cancelled. Nothing was bought."]);
    expect(h.telegram.message(GROUP_ID, summary?.message_id ?? 0)).toBeUndefined();
    expect(h.telegram.callsSince(before).map((c) => c.method)).not.toContain("editMessageText");
    // Only Noah's latest refusal is left, until Noah comes back or it expires.
    expect(h.telegram.messagesIn(GROUP_ID)).toEqual([secondRefusal]);
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);
  });

  it("expired prompts and replies are deleted at the group's next /premium, and by sweepGroups", async () => {
    const g = await groupWorld();
    const { h, features } = g;
    await g.say(GINA, "/premium @mia_member");
    const prompt = g.last();
    await g.say(NOAH, "/premium @mia_member");
    const refusal = g.last();

    h.clock.advance(11 * 60_000);
    await g.say(MIA, "/premium @noah_n");
    expect(h.telegram.message(GROUP_ID, prompt?.message_id ?? 0)).toBeUndefined();
    expect(h.telegram.message(GROUP_ID, refusal?.message_id ?? 0)).toBeUndefined();
    const miaRefusal = g.last();
    expect(h.telegram.messagesIn(GROUP_ID)).toEqual([miaRefusal]);

    // The app's minute timer: nothing young is touched, an abandoned prompt goes.
    g.statuses.set(`${GROUP_ID}:${OTTO.id}`, "administrator");
    await g.say(OTTO, "/premium @lena_l");
    const abandoned = g.last();
    expect(await features.sweepGroups()).toBe(0);
    expect(h.telegram.message(GROUP_ID, abandoned?.message_id ?? 0)).toEqual(abandoned);
    h.clock.advance(11 * 60_000);
    expect(await features.sweepGroups()).toBe(2);
    expect(h.telegram.messagesIn(GROUP_ID)).toEqual([]);
    const pressed = h.telegram.mark();
    await h.send(h.updates.callback(OTTO, "grp:dur:3", abandoned?.message_id ?? 0, GROUP_ID));
    expect(answersSince(h, pressed)).toEqual(["This button is no longer active."]);
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);
  });
});

describe("limits in a group", () => {
  it("a limit refusal names the limit and its reset, never the bot-wide figures", async () => {
    const g = await groupWorld({ limits: { premiumPerBotDay: 1 } });
    const { h } = g;
    g.statuses.set(`${GROUP_ID}:${OTTO.id}`, "administrator");
    // Otto's summary is shown while one Premium gift is still left today; Gina's takes it.
    await g.say(OTTO, "/premium @lena_l");
    await g.press(OTTO, "3 months");
    const summary = g.last();
    await g.say(GINA, "/premium @mia_member");
    await g.press(GINA, "6 months");
    await g.press(GINA, "✅ Confirm");
    expect(h.sandbox.purchaseRequests()).toHaveLength(1);

    const before = h.telegram.mark();
    await g.press(OTTO, "✅ Confirm");
    expect(h.sandbox.purchaseRequests()).toHaveLength(1);
    const shown = h.telegram.message(GROUP_ID, summary?.message_id ?? 0)?.text ?? "";
    expect(shown).toMatch(
      /Nothing was bought: the limit "Premium gifts per day for everyone" is reached\. It resets on .+ UTC\.$/,
    );
    const seen = [
      ...h.telegram
        .callsSince(before)
        .map((c) => (typeof c.payload.text === "string" ? c.payload.text : "")),
      ...h.telegram.messagesIn(GROUP_ID).map((m) => m.text ?? ""),
    ];
    for (const text of seen) expect(text).not.toMatch(/\d+ of \d+/);
  });
});
