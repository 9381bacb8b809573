import { describe, expect, it } from "vitest";
import { GROUP_REFUSAL_COOLDOWN_MS } from "../../../src/bot/fair-share/refusal-throttle.js";
import { testUser } from "../../../tools/testing/updates.js";
import { GROUP_ID, OTHER_GROUP_ID, sentTexts } from "../../helpers/admin-bot.js";
import { GINA, groupWorld, MIA, NOAH } from "../../helpers/group-bot.js";

const ADMINS_ONLY = "Gifting Premium here is for the group's administrators.";
const NOT_ALLOWED =
  "Gifting is not enabled in this group. A bot admin can enable it with /allowchat.";
const PREMIUM_ONLY = "In groups I can gift only Telegram Premium, with /premium.";

/** The one short line the first ask after an answer gets, with the seconds until the next. */
function note(seconds: number): string {
  return `I answered here a moment ago: see my message above. In a group I answer at most once every 30 s; ask again in ${seconds} s.`;
}

const members = Array.from({ length: 10 }, (_, i) =>
  testUser(6001 + i, { first_name: `Member${i + 1}` }),
);

describe("refusals in a group are rate-limited", () => {
  it("ten members' /premium within the window get one reply; after it, a refusal is sent again", async () => {
    const g = await groupWorld();
    const { h } = g;
    expect(GROUP_REFUSAL_COOLDOWN_MS).toBe(30_000);
    for (const member of members) await g.say(member, "/premium @mia_member");
    // One answer and one short line that it is above: two messages, not ten, and no silence
    // for the first one who asked again.
    expect(sentTexts(h, GROUP_ID)).toEqual([ADMINS_ONLY, note(30)]);
    // The one answer stays; the silent refusals deleted nothing.
    expect(h.telegram.callsOf("deleteMessage")).toHaveLength(0);

    // The window does not silence an administrator's own flow.
    await g.say(GINA, "/premium @mia_member");
    expect(g.last()?.text).toBe("Telegram Premium for @mia_member: for how long?");

    // Still inside the window (by a second): silent.
    h.clock.advance(GROUP_REFUSAL_COOLDOWN_MS - 1_000);
    await g.say(NOAH, "/premium @mia_member");
    expect(sentTexts(h, GROUP_ID).filter((t) => t === ADMINS_ONLY)).toHaveLength(1);

    // After the window, a refusal is sent again, and starts a new window.
    h.clock.advance(1_000);
    await g.say(NOAH, "/premium @mia_member");
    expect(sentTexts(h, GROUP_ID).filter((t) => t === ADMINS_ONLY)).toHaveLength(2);
    await g.say(MIA, "/premium @noah_n");
    expect(sentTexts(h, GROUP_ID).filter((t) => t === ADMINS_ONLY)).toHaveLength(2);
    expect(h.sandbox.requests).toHaveLength(1); // Gina's recipient check only.
  });

  it("a group that is not allowed, and /stars, are throttled too; each group has its own window", async () => {
    const g = await groupWorld();
    const { h } = g;
    for (const member of members.slice(0, 3)) {
      await g.say(member, "/premium @mia_member", undefined, OTHER_GROUP_ID);
    }
    await g.say(GINA, "/premium @mia_member", undefined, OTHER_GROUP_ID);
    expect(sentTexts(h, OTHER_GROUP_ID)).toEqual([NOT_ALLOWED, note(30)]);
    // Nobody asked Telegram about members of a group that is not allowed.
    expect(g.memberChecks()).toBe(0);

    // The allowed group's window is its own: its first refusal is sent.
    await g.say(NOAH, "/stars");
    await g.say(MIA, "/stars");
    await g.say(MIA, "/stars");
    expect(sentTexts(h, GROUP_ID)).toEqual([PREMIUM_ONLY, note(30)]);
    expect(h.sandbox.requests).toHaveLength(0);
  });

  it("nobody is pointed at an answer that was not theirs: another refusal is answered", async () => {
    const g = await groupWorld();
    const { h } = g;
    // The administrator's refusal (Stars are for private chats) is the answer just above...
    await g.say(GINA, "/stars");
    expect(g.last()?.text).toBe(PREMIUM_ONLY);
    // ...and it does not answer a member's /premium: that one is answered itself.
    await g.say(NOAH, "/premium @mia_member");
    expect(g.last()?.text).toBe(ADMINS_ONLY);
    // The next member asking the same is pointed at it: it is the answer just above.
    await g.say(MIA, "/premium @noah_n");
    expect(g.last()?.text).toBe(note(30));
    // A member who reads Russian gets the answer in Russian, not a pointer to an English one.
    const olga = testUser(6101, { first_name: "Olga", language_code: "ru" });
    await g.say(olga, "/premium @mia_member");
    expect(g.last()?.text).toBe("Дарить Premium здесь могут только администраторы группы.");
    await g.say(
      testUser(6102, { first_name: "Oleg", language_code: "ru" }),
      "/premium @mia_member",
    );
    expect(g.last()?.text).toBe(
      "Я только что ответил здесь: смотрите сообщение выше. В группе я отвечаю не чаще раза в 30 с; спросите снова через 30 с.",
    );
    expect(sentTexts(h, GROUP_ID)).toHaveLength(5);
  });

  it("the administrator who started a flow is always answered", async () => {
    const g = await groupWorld();
    const { h } = g;
    await g.say(GINA, "/premium @mia_member");
    await g.say(NOAH, "/premium @mia_member");
    expect(g.last()?.text).toBe(ADMINS_ONLY);
    // Inside Noah's window, Gina (with her prompt open) is still told Stars are not for groups.
    await g.say(GINA, "/stars");
    expect(g.last()?.text).toBe(PREMIUM_ONLY);
    // And with a summary open (the prompt is gone once she picks a duration).
    await g.press(GINA, "6 months");
    await g.say(GINA, "/stars");
    expect(g.last()?.text).toBe(PREMIUM_ONLY);
    expect(sentTexts(h, GROUP_ID).filter((t) => t === PREMIUM_ONLY)).toHaveLength(2);
    // Members are still held to the window.
    await g.say(MIA, "/premium @noah_n");
    expect(sentTexts(h, GROUP_ID).filter((t) => t === ADMINS_ONLY)).toHaveLength(1);
  });
});
