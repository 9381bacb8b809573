import { afterEach, describe, expect, it, vi } from "vitest";
import { chatPerson } from "../../tools/testing/chat-person.js";
import { testUser } from "../../tools/testing/updates.js";
import { GROUP_ID, groupMessage } from "../helpers/admin-bot.js";
import { harness } from "../helpers/bot.js";

const NOT_UNDERSTOOD = "I did not understand: start with /stars or /premium, or see /help.";

describe("text nothing else handles, in a private chat", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("gets a pointer to /stars, /premium and /help, in the person's language", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(901));
    await alice.say("hello?");
    expect(alice.lastMessage().text).toBe(NOT_UNDERSTOOD);
    await alice.command("frobnicate");
    expect(alice.lastMessage().text).toBe(NOT_UNDERSTOOD);
    const ivan = chatPerson(h, testUser(902, { language_code: "ru" }));
    await ivan.say("привет");
    expect(ivan.lastMessage().text).toBe(
      "Я не понял. Начните с /stars или /premium, или загляните в /help.",
    );
    expect(h.sandbox.requests).toHaveLength(0);
  });

  it("does not answer text that an open flow takes", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(903));
    await alice.command("stars");
    const before = h.telegram.mark();
    await alice.say("bob_gifts");
    const texts = alice
      .callsSince(before)
      .filter((c) => c.method === "sendMessage")
      .map((c) => c.payload.text);
    expect(texts).toEqual(["How many stars for @bob_gifts? Up to 10,000 in one gift."]);
    await alice.say("not a number");
    expect(alice.lastMessage().text).toBe(
      "That is not a whole number from 50 to 10,000. Please send the number of stars again.",
    );
  });

  it("answers once a flow has timed out (30 minutes idle), and the old step takes nothing", async () => {
    const h = await harness();
    const alice = chatPerson(h, testUser(904));
    // Only Date is faked: the conversations plugin measures its wait timeout with Date.now.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    await alice.command("stars");
    vi.setSystemTime(Date.now() + 31 * 60_000);
    await alice.say("bob_gifts");
    expect(alice.lastMessage().text).toBe(NOT_UNDERSTOOD);
    expect(h.sandbox.requests).toHaveLength(0);
  });

  it("says nothing to plain text in a group", async () => {
    const h = await harness();
    const before = h.telegram.mark();
    await h.send(groupMessage(testUser(905), GROUP_ID, "hello everyone").update);
    await h.send(groupMessage(testUser(905), GROUP_ID, "/frobnicate@gift_test_bot").update);
    expect(h.telegram.callsSince(before)).toEqual([]);
  });
});

describe("/help", () => {
  it("names the configured maximum of stars per purchase", async () => {
    const h = await harness({ limits: { starsPerPurchase: 2500 } });
    const alice = chatPerson(h, testUser(906));
    await alice.command("help");
    expect(alice.lastMessage().text).toContain("/stars: gift stars (from 50 to 2,500)");
    const ivan = chatPerson(h, testUser(907, { language_code: "ru" }));
    await ivan.command("help");
    // Russian groups digits with a (no-break) space.
    expect(ivan.lastMessage().text).toMatch(/\/stars: подарить звёзды \(от 50 до 2\s500\)/);
  });
});
