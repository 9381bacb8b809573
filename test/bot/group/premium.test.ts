import { describe, expect, it } from "vitest";
import { buttonsOf } from "../../../tools/testing/chat-person.js";
import { testUser } from "../../../tools/testing/updates.js";
import { GROUP_ID, memberStatuses, OTHER_GROUP_ID, sentTexts } from "../../helpers/admin-bot.js";
import { answersSince } from "../../helpers/bot.js";
import { GINA, groupWorld, MIA, NOAH } from "../../helpers/group-bot.js";

const SUMMARY_6 = [
  "Please check your gift:",
  "",
  "Recipient: @mia_member",
  "Gift: Telegram Premium for 6 months",
  "Payment: USDT on TON",
  "",
  "Nothing is bought until you press Confirm.",
].join("\n");

describe("group premium gifting", () => {
  it("an administrator gifts premium by replying to a member's message", async () => {
    const g = await groupWorld();
    const { h } = g;
    const hello = await g.say(MIA, "hi all");
    await g.say(GINA, "/premium", hello);
    const prompt = g.last();
    expect(prompt?.text).toBe("Telegram Premium for @mia_member: for how long?");
    expect(buttonsOf(prompt)).toEqual([["3 months", "6 months", "12 months"], ["✖️ Cancel"]]);
    expect(g.memberChecks()).toBe(1);

    await g.press(GINA, "6 months");
    // The prompt is deleted; the summary shows no wallet balance in a group.
    expect(h.telegram.callsOf("deleteMessage").map((c) => c.payload.message_id)).toEqual([
      prompt?.message_id,
    ]);
    expect(h.telegram.message(GROUP_ID, prompt?.message_id ?? 0)).toBeUndefined();
    const summary = g.last();
    expect(summary?.text).toBe(SUMMARY_6);
    expect(buttonsOf(summary)).toEqual([["✅ Confirm", "✖️ Cancel"]]);

    await g.press(GINA, "✅ Confirm");
    // Asked again at confirmation, although the earlier answer was seconds old.
    expect(g.memberChecks()).toBe(2);
    const purchases = h.sandbox.purchaseRequests();
    expect(purchases).toHaveLength(1);
    expect(purchases[0]?.path).toBe("/buy-premium/");
    expect(purchases[0]?.form).toMatchObject({ username: "mia_member", duration: "6" });
    expect(h.telegram.message(GROUP_ID, summary?.message_id ?? 0)?.text).toMatch(
      /^✅ Delivered: Telegram Premium for 6 months to @mia_member\./,
    );
    for (const text of sentTexts(h, GROUP_ID)) {
      expect(text).not.toMatch(/balance|\d TON|\d USDT|1,000/i);
    }
    for (const call of h.telegram.callsOf("editMessageText")) {
      expect(String(call.payload.text)).not.toMatch(/Wallet balance/);
    }
  });

  it("an administrator gifts premium by username, and can cancel a prompt (it is deleted)", async () => {
    const g = await groupWorld();
    const { h } = g;
    await g.say(GINA, "/premium@gift_test_bot @nora_n");
    expect(g.last()?.text).toBe("Telegram Premium for @nora_n: for how long?");
    const prompt = g.last();
    await g.press(GINA, "✖️ Cancel");
    expect(h.telegram.message(GROUP_ID, prompt?.message_id ?? 0)).toBeUndefined();

    await g.say(GINA, "/premium nora_n");
    await g.press(GINA, "3 months");
    await g.press(GINA, "✅ Confirm");
    expect(h.sandbox.purchaseRequests().map((r) => r.form)).toEqual([
      expect.objectContaining({ username: "nora_n", duration: "3" }),
    ]);
  });

  it("explains a member without a public username, and a recipient who already has premium", async () => {
    const g = await groupWorld();
    const { h } = g;
    const noah = await g.say(NOAH, "hello");
    await g.say(GINA, "/premium", noah);
    expect(g.last()?.text).toBe(
      "Noah has no public @username, so I cannot gift them Premium. They can set a username in Telegram's settings.",
    );
    expect(h.sandbox.requests).toHaveLength(0);
    await g.say(GINA, "/premium");
    expect(g.last()?.text).toBe(
      "Reply to a member's message with /premium, or write /premium @username.",
    );
    await g.say(GINA, "/stars @mia_member");
    expect(g.last()?.text).toBe("In groups I can gift only Telegram Premium, with /premium.");
    await g.say(GINA, "/premium @premium_pat");
    expect(g.last()?.text).toBe("@premium_pat already has Telegram Premium.");
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);
  });

  it("a non-admin and an admin of a group that is not allowed buy nothing, with zero requests", async () => {
    const g = await groupWorld();
    const { h } = g;
    const hello = await g.say(MIA, "hi");
    await g.say(NOAH, "/premium", hello);
    expect(g.last()?.text).toBe("Gifting Premium here is for the group's administrators.");
    h.clock.advance(31_000);
    await g.say(NOAH, "/premium @mia_member");
    expect(g.last()?.text).toBe("Gifting Premium here is for the group's administrators.");
    expect(sentTexts(h, GROUP_ID)).toEqual(
      Array(2).fill("Gifting Premium here is for the group's administrators."),
    );

    await g.say(GINA, "/premium @mia_member", undefined, OTHER_GROUP_ID);
    expect(g.last(OTHER_GROUP_ID)?.text).toBe(
      "Gifting is not enabled in this group. A bot admin can enable it with /allowchat.",
    );
    expect(h.sandbox.requests).toHaveLength(0);
  });

  it("an administrator demoted before confirmation buys nothing", async () => {
    const g = await groupWorld();
    const { h } = g;
    await g.say(GINA, "/premium @mia_member");
    await g.press(GINA, "6 months");
    g.statuses.set(`${GROUP_ID}:${GINA.id}`, "member");
    const before = h.telegram.mark();
    await g.press(GINA, "✅ Confirm");
    expect(answersSince(h, before)).toEqual([
      "Gifting Premium here is for the group's administrators.",
    ]);
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);
  });

  it("another member (or another administrator) pressing the buttons changes nothing", async () => {
    const g = await groupWorld();
    const { h } = g;
    const otto = testUser(5004, { first_name: "Otto" });
    g.statuses.set(`${GROUP_ID}:${otto.id}`, "administrator");
    await g.say(GINA, "/premium @mia_member");
    const prompt = g.last();
    const before = h.telegram.mark();
    await g.press(NOAH, "12 months");
    await g.press(otto, "✖️ Cancel");
    expect(answersSince(h, before)).toEqual([
      "Only the administrator who started this gift can use these buttons.",
      "Only the administrator who started this gift can use these buttons.",
    ]);
    expect(g.last()).toEqual(prompt);

    await g.press(GINA, "12 months");
    const afterPick = h.telegram.mark();
    await g.press(NOAH, "✅ Confirm");
    await g.press(otto, "✅ Confirm");
    await g.press(NOAH, "✖️ Cancel");
    expect(answersSince(h, afterPick)).toEqual(Array(3).fill("This summary is not yours."));
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);

    // Forged group data, and a press on a prompt that no longer exists, are answered too.
    const forged = h.telegram.mark();
    await h.send(h.updates.callback(NOAH, "grp:dur:7", prompt?.message_id ?? 0, GROUP_ID));
    await h.send(h.updates.callback(GINA, "grp:dur:3", prompt?.message_id ?? 0, GROUP_ID));
    expect(answersSince(h, forged)).toEqual([
      "This button is not valid.",
      "This button is no longer active.",
    ]);
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);
  });

  it("an administrator check is reused for 30 s, then asked again", async () => {
    const g = await groupWorld();
    const { h } = g;
    await g.say(GINA, "/premium @mia_member");
    await g.say(GINA, "/premium @mia_member");
    expect(g.memberChecks()).toBe(1);
    // A new /premium replaced the old prompt: one prompt left in the group.
    expect(h.telegram.messagesIn(GROUP_ID).filter((m) => m.reply_markup)).toHaveLength(1);
    h.clock.advance(31_000);
    await g.say(GINA, "/premium @mia_member");
    expect(g.memberChecks()).toBe(2);
  });

  it("a prompt survives a restart, and an old one is refused and deleted", async () => {
    const g = await groupWorld();
    const { h } = g;
    await g.say(GINA, "/premium @mia_member");
    await h.restart();
    memberStatuses(h).set(`${GROUP_ID}:${GINA.id}`, "administrator");
    await g.press(GINA, "3 months");
    expect(g.last()?.text).toContain("Gift: Telegram Premium for 3 months");

    await g.say(GINA, "/premium @lena_l");
    const prompt = g.last();
    h.clock.advance(11 * 60_000);
    const before = h.telegram.mark();
    await g.press(GINA, "6 months");
    expect(answersSince(h, before)).toEqual([
      "This gift was started too long ago. Start again with /premium.",
    ]);
    expect(h.telegram.message(GROUP_ID, prompt?.message_id ?? 0)).toBeUndefined();
    expect(h.sandbox.purchaseRequests()).toHaveLength(0);
  });

  it("a group an admin allows with /allowchat can gift right away", async () => {
    const g = await groupWorld();
    const { h } = g;
    const ada = testUser(1001, { first_name: "Ada", username: "ada_admin" });
    await g.say(ada, "/allowchat", undefined, OTHER_GROUP_ID);
    await g.say(GINA, "/premium @mia_member", undefined, OTHER_GROUP_ID);
    await g.press(GINA, "6 months", OTHER_GROUP_ID);
    await g.press(GINA, "✅ Confirm", OTHER_GROUP_ID);
    expect(h.sandbox.purchaseRequests()).toHaveLength(1);
  });
});
