/**
 * Full flows through the real bot process, as a person does them in Telegram: every message
 * and button goes through the emulator's Bot API, every purchase through the sandbox's HTTP.
 */
import { describe, expect, it } from "vitest";
import { buttons, DEMO_USER, Person, startBot, startWorld } from "../helpers/built-process.js";

describe("the bot process: gifts as a person makes them", () => {
  it("a stars gift: /start, recipient, amount, summary, confirm, delivered, one purchase request", async () => {
    const world = await startWorld();
    await startBot(world);
    const uma = new Person(world.emulator, DEMO_USER.id);

    const hello = await uma.say("/start");
    expect(hello.text).toMatch(/^Hi, Uma!/);
    const ask = await uma.pressForMessage(hello, "⭐ Gift stars");
    expect(ask.text).toBe("Who should get the stars? Send their @username or a t.me link.");
    const amount = await uma.say("@alice_friend");
    expect(amount.text).toBe("How many stars for @alice_friend? Up to 10,000 in one gift.");
    const summary = await uma.pressForMessage(amount, "⭐ 100");
    expect(summary.text).toContain("Recipient: @alice_friend\nGift: 100 Telegram Stars");
    expect(buttons(summary)[0]).toEqual(["✅ Confirm", "✖️ Cancel"]);
    expect(world.sandbox.purchaseRequests()).toHaveLength(0);

    await uma.press(summary, "✅ Confirm");
    const outcome = await uma.waitForText(summary.id, /Delivered/);
    expect(outcome.text).toMatch(/^✅ Delivered: 100 Telegram Stars to @alice_friend\./);
    const purchases = world.sandbox.purchaseRequests();
    expect(purchases).toHaveLength(1);
    expect(purchases[0]?.path).toBe("/buy-stars/");
    expect(purchases[0]?.form).toMatchObject({ username: "alice_friend", amount: "100" });

    const history = await uma.say("/history");
    expect(history.text).toMatch(/100 Telegram Stars to @alice_friend: delivered/);
  });

  it("a premium gift: duration, confirm, delivered, the recipient has premium now", async () => {
    const world = await startWorld();
    await startBot(world);
    const uma = new Person(world.emulator, DEMO_USER.id);

    const ask = await uma.say("/premium");
    expect(ask.text).toMatch(/Premium/);
    const duration = await uma.say("carol_p");
    expect(duration.text).toBe("How long should @carol_p get Telegram Premium?");
    const summary = await uma.pressForMessage(duration, "6 months");
    expect(summary.text).toContain("Recipient: @carol_p");
    await uma.press(summary, "✅ Confirm");
    const outcome = await uma.waitForText(summary.id, /Delivered/);
    expect(outcome.text).toMatch(/^✅ Delivered: Telegram Premium for 6 months to @carol_p\./);
    const purchases = world.sandbox.purchaseRequests();
    expect(purchases).toHaveLength(1);
    expect(purchases[0]?.path).toBe("/buy-premium/");
    expect(purchases[0]?.form).toMatchObject({ username: "carol_p", duration: "6" });

    // The sandbox made carol premium: a second gift to her is refused before any purchase.
    await uma.say("/premium");
    const again = await uma.say("carol_p");
    expect(again.text).toMatch(/^@carol_p already has Telegram Premium/);
    expect(world.sandbox.purchaseRequests()).toHaveLength(1);
  });

  it("a recipient who already has premium is refused and nothing is bought", async () => {
    const world = await startWorld();
    await startBot(world);
    const uma = new Person(world.emulator, DEMO_USER.id);

    await uma.say("/premium");
    const refusal = await uma.say("@premium_eve");
    expect(refusal.text).toMatch(/^@premium_eve already has Telegram Premium/);
    expect(world.sandbox.purchaseRequests()).toHaveLength(0);
  });

  it("a stranger is told purchases are not open and the service is never asked", async () => {
    const world = await startWorld();
    await startBot(world);
    world.emulator.addUser({ id: 4242, first_name: "Stranger", username: "stranger_x" });
    const stranger = new Person(world.emulator, 4242);

    const reply = await stranger.say("/stars");
    expect(reply.text).toMatch(/not open to you/);
    expect(world.sandbox.purchaseRequests()).toHaveLength(0);
  });

  it("Telegram's flood limit on a reply: the bot waits as told and sends it again", async () => {
    const world = await startWorld();
    await startBot(world);
    const uma = new Person(world.emulator, DEMO_USER.id);
    world.emulator.injectApiError(
      "sendMessage",
      { errorCode: 429, description: "Too Many Requests: retry after 1", retryAfter: 1 },
      { times: 1 },
    );
    const hello = await uma.say("/start");
    expect(hello.text).toMatch(/^Hi, Uma!/);
    const replies = world.emulator.calls.filter(
      (c) => c.method === "sendMessage" && Number(c.payload.chat_id) === DEMO_USER.id,
    );
    expect(replies.map((c) => c.ok)).toEqual([false, true]);
    expect(replies[0]?.error?.error_code).toBe(429);
  });
});
