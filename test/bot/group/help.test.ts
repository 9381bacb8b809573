/**
 * /help and /stars in a group: anyone gets an answer saying what works in that group (admin
 * or not, allowed group or not), within the group's refusal cooldown.
 */
import { describe, expect, it } from "vitest";
import { GROUP_REFUSAL_COOLDOWN_MS } from "../../../src/bot/fair-share/refusal-throttle.js";
import { TEST_BOT_INFO } from "../../../tools/testing/telegram-fake.js";
import { GROUP_ID, OTHER_GROUP_ID, sentTexts } from "../../helpers/admin-bot.js";
import { GINA, groupWorld, MIA, NOAH } from "../../helpers/group-bot.js";

const bot = TEST_BOT_INFO.username;
const HELP = `In this group, the group's administrators can gift Telegram Premium to a member: reply to their message with /premium, or write /premium @username (/cancel stops it). Stars, /history and everything else work in a private chat with me: @${bot}.`;
const HELP_OFF = `Gifting is not enabled in this group; a bot admin can enable it with /allowchat. Stars and Premium can be gifted in a private chat with me: @${bot}.`;
const PREMIUM_ONLY = "In groups I can gift only Telegram Premium, with /premium.";
const NOT_ALLOWED =
  "Gifting is not enabled in this group. A bot admin can enable it with /allowchat.";

describe("what works in a group", () => {
  it("a member's /help and /stars are answered like an administrator's, within the cooldown", async () => {
    const g = await groupWorld();
    const { h } = g;
    await g.say(MIA, "/help");
    expect(g.last()?.text).toBe(HELP);
    // Inside the window: the next ask of the same gets one short line (not silence), whoever
    // asks; the rest nothing. Another answer is not "above": it is given, in its own window.
    h.clock.advance(10_000);
    await g.say(NOAH, "/help");
    await g.say(NOAH, "/stars");
    await g.say(GINA, "/stars");
    await g.say(MIA, "/help");
    const note = (seconds: number) =>
      `I answered here a moment ago: see my message above. In a group I answer at most once every 30 s; ask again in ${String(seconds)} s.`;
    expect(sentTexts(h, GROUP_ID)).toEqual([HELP, note(20), PREMIUM_ONLY, note(30)]);

    h.clock.advance(GROUP_REFUSAL_COOLDOWN_MS);
    await g.say(NOAH, "/stars");
    expect(g.last()?.text).toBe(PREMIUM_ONLY);
    h.clock.advance(GROUP_REFUSAL_COOLDOWN_MS);
    await g.say(GINA, "/stars");
    expect(g.last()?.text).toBe(PREMIUM_ONLY);
    expect(h.sandbox.requests).toHaveLength(0);
  });

  it("in a group that is not allowed, /help and /stars say gifting is off there", async () => {
    const g = await groupWorld();
    const { h } = g;
    await g.say(MIA, "/help", undefined, OTHER_GROUP_ID);
    expect(g.last(OTHER_GROUP_ID)?.text).toBe(HELP_OFF);
    h.clock.advance(GROUP_REFUSAL_COOLDOWN_MS);
    await g.say(MIA, "/stars", undefined, OTHER_GROUP_ID);
    expect(g.last(OTHER_GROUP_ID)?.text).toBe(NOT_ALLOWED);
    // Nobody asked Telegram about members of a group that is not allowed.
    expect(g.memberChecks()).toBe(0);
  });

  it("the group's /help answer stays when the asker then starts a gift", async () => {
    const g = await groupWorld();
    const { h } = g;
    await g.say(GINA, "/help");
    const help = g.last();
    expect(help?.text).toBe(HELP);
    await g.say(GINA, "/premium @mia_member");
    expect(g.last()?.text).toBe("Telegram Premium for @mia_member: for how long?");
    expect(h.telegram.message(GROUP_ID, help?.message_id ?? 0)?.text).toBe(HELP);
  });
});
