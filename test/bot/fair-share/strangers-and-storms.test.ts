/**
 * Strangers get one answer per cooldown in private chats and cause no service request; a storm
 * of one person's updates gets one "slow down", then silence (grammY's ratelimiter), and admins
 * see the person cut short in /balance.
 */
import { describe, expect, it } from "vitest";
import { chatPerson } from "../../../tools/testing/chat-person.js";
import { testUser } from "../../../tools/testing/updates.js";
import { adminWorld, BUYER, STRANGER } from "../../helpers/admin-bot.js";
import { harness } from "../../helpers/bot.js";

const DENIED = `Purchases are not open to you. To get access, ask the bot's admins and give them your user id: ${STRANGER.id}.`;

describe("a stranger in a private chat", () => {
  it("gets one answer and one short line per cooldown however much they send, and the service is never asked", async () => {
    const { h } = await adminWorld({ fairShare: { strangerCooldownSeconds: 30 } });
    const sam = chatPerson(h, STRANGER);
    const mark = h.telegram.mark();
    await sam.command("stars");
    await sam.command("premium");
    await sam.command("start");
    await sam.say("@bob_gifts");
    await sam.press("menu:stars", 1);
    const sent = sam.callsSince(mark).filter((c) => c.method === "sendMessage");
    // The second ask is not met with silence: one short line says the answer is above.
    expect(sent.map((c) => c.payload.text)).toEqual([
      DENIED,
      "I answered you a moment ago: see my message above. I will answer again in 30 s.",
    ]);
    // The press is acknowledged without a text, so the client's spinner stops.
    const answers = sam.callsSince(mark).filter((c) => c.method === "answerCallbackQuery");
    expect(answers.map((c) => c.payload.text)).toEqual([undefined]);

    h.clock.advance(30_000);
    const later = h.telegram.mark();
    await sam.command("stars");
    await sam.command("stars");
    expect(
      sam
        .callsSince(later)
        .filter((c) => c.method === "sendMessage")
        .map((c) => c.payload.text),
    ).toEqual([
      DENIED,
      "I answered you a moment ago: see my message above. I will answer again in 30 s.",
    ]);
    expect(h.sandbox.requests).toHaveLength(0);
  });

  it("does not hold back people who may buy", async () => {
    const { h } = await adminWorld({ fairShare: { strangerCooldownSeconds: 30 } });
    const bea = chatPerson(h, BUYER);
    await bea.command("help");
    await bea.command("stars");
    expect(bea.lastMessage().text).toBe(
      "Who should get the stars? Send their @username or a t.me link.",
    );
  });
});

describe("a storm of one person's updates", () => {
  it("gets one slow-down, then silence; others are answered; an admin sees the person by id", async () => {
    const admin = testUser(1_001, { first_name: "Ada" });
    const h = await harness({
      admins: [admin.id],
      // A window far longer than the test, so the plugin's own timer cannot reset it midway.
      fairShare: { updatesPerUser: 5, updatesWindowSeconds: 600 },
    });
    const storm = chatPerson(h, testUser(6_000));
    const mark = h.telegram.mark();
    for (let i = 0; i < 20; i++) await storm.say(`hello ${i}`);
    const texts = storm
      .callsSince(mark)
      .filter((c) => c.method === "sendMessage")
      .map((c) => c.payload.text as string);
    expect(texts).toHaveLength(6);
    expect(texts.filter((t) => t.startsWith("You are sending messages too fast"))).toHaveLength(1);
    expect(texts[5]).toMatch(/^You are sending messages too fast\. Please slow down/);

    const calm = chatPerson(h, testUser(6_001));
    await calm.say("hello");
    expect(calm.lastMessage().text).not.toMatch(/too fast/);

    const ada = chatPerson(h, admin);
    await ada.command("balance");
    expect(ada.lastMessage().text).toMatch(
      /Slowed down, too many messages \(user until UTC\): 6000 \(/,
    );
  });
});
