/**
 * What production does to a running bot, done to the real process: the service drops the
 * connection during a purchase, the process is SIGKILLed while a purchase is held, and a
 * SIGTERM arrives while a purchase is held. Money must never be spent twice, and nobody is left
 * without an answer.
 */
import { describe, expect, it } from "vitest";
import {
  buttons,
  callbackData,
  DEMO_ADMIN,
  DEMO_USER,
  Person,
  secretsIn,
  starsSummary,
  startBot,
  startWorld,
  WAIT_MS,
} from "../helpers/built-process.js";

describe("the bot process under faults", () => {
  it("a dropped connection during a purchase: unconfirmed, never resent, new purchases wait", async () => {
    const world = await startWorld();
    await startBot(world);
    const uma = new Person(world.emulator, DEMO_USER.id);

    world.sandbox.injectFault({ type: "drop", executed: true }, { path: "/buy-stars/" });
    const summary = await starsSummary(uma, "alice_friend");
    await uma.press(summary, "✅ Confirm");
    const outcome = await uma.waitForText(summary.id, /outcome is unknown/);
    expect(outcome.text).toContain("Do not try again");
    expect(world.sandbox.purchaseRequests()).toHaveLength(1);
    expect((await world.intents())[0]?.status).toBe("unconfirmed");

    // Every admin is told at once, with the evidence and the buttons to settle it.
    const ada = new Person(world.emulator, DEMO_ADMIN.id);
    const alert = await ada.waitForMessage(/unknown outcome: 50 Telegram Stars to @alice_friend/);
    expect(buttons(alert)).toEqual([["✅ Delivered", "❌ Not delivered"]]);

    // A new gift is held while an admin has not settled the unknown one: nothing is sent.
    const next = await starsSummary(uma, "bob_friend");
    const answer = await uma.press(next, "✅ Confirm");
    expect(answer.text).toMatch(/on hold while the admins check/);
    expect(world.sandbox.purchaseRequests()).toHaveLength(1);

    // The admin settles it; purchases resume and the held summary can be confirmed now.
    await ada.press(alert, "✅ Delivered");
    expect((await world.intents()).find((i) => i.recipient === "alice_friend")?.status).toBe(
      "delivered",
    );
    await uma.press(next, "✅ Confirm");
    await uma.waitForText(next.id, /Delivered: 50 Telegram Stars to @bob_friend/);
    expect(world.sandbox.purchaseRequests()).toHaveLength(2);
  });

  it("SIGKILL while the service holds a purchase, then a restart: no second request, the person is told", async () => {
    const world = await startWorld();
    const first = await startBot(world);
    const uma = new Person(world.emulator, DEMO_USER.id);

    const summary = await starsSummary(uma, "alice_friend");
    const confirm = callbackData(summary, "✅ Confirm");
    // Held far longer than the test needs to kill the process: it dies before any answer.
    world.sandbox.injectFault({ type: "delay", ms: 10_000 }, { path: "/buy-stars/" });
    await uma.press(summary, "✅ Confirm");
    await world.sandbox.waitForRequests(1, "/buy-stars/");
    first.child.kill("SIGKILL");
    expect(await first.exited).toMatchObject({ signal: "SIGKILL" });
    expect((await world.intents())[0]?.status).toBe("sending");

    const second = await startBot(world);
    await second.waitForLog((line) => line.msg === "requester told the outcome is unknown");
    const told = await uma.waitForText(summary.id, /outcome is unknown/);
    expect(buttons(told)).toEqual([]);
    expect((await world.intents())[0]?.status).toBe("unconfirmed");
    // The admin learns of it at the restart.
    await new Person(world.emulator, DEMO_ADMIN.id).waitForMessage(
      /unknown outcome: 50 Telegram Stars to @alice_friend/,
    );

    // The old Confirm, pressed again after the restart, buys nothing.
    const press = world.emulator.pressButton(DEMO_USER.id, DEMO_USER.id, summary.id, confirm);
    await world.emulator.waitFor(
      (e) => e.callbackAnswers.find((a) => a.callbackQueryId === press.callbackQueryId),
      { timeoutMs: WAIT_MS },
    );
    expect(world.sandbox.purchaseRequests()).toHaveLength(1);
    expect(secretsIn(first.output() + second.output(), second.env)).toEqual([]);
  });

  it("SIGTERM while the service holds a purchase: the purchase finishes, is recorded, exit 0", async () => {
    const world = await startWorld();
    const bot = await startBot(world, { SHUTDOWN_GRACE_SECONDS: "10" });
    const uma = new Person(world.emulator, DEMO_USER.id);

    const summary = await starsSummary(uma, "alice_friend");
    // Long enough that the signal surely comes while the purchase is held, even on a busy machine.
    world.sandbox.injectFault({ type: "delay", ms: 3_000 }, { path: "/buy-stars/" });
    await uma.press(summary, "✅ Confirm");
    await world.sandbox.waitForRequests(1, "/buy-stars/");
    bot.child.kill("SIGTERM");

    const exit = await bot.exited;
    // On failure, the process's own account of what happened.
    const why = bot.output();
    expect(exit, why).toEqual({ code: 0, signal: null });
    expect((await world.intents())[0]?.status, why).toBe("succeeded");
    expect(uma.message(summary.id)?.text, why).toMatch(/^✅ Delivered: 50 Telegram Stars/);
    const messages = bot.logs.map((line) => line.msg);
    expect(messages, why).toContain("waiting for updates in flight");
    // The signal came first, the purchase finished and was recorded after it, then the stop.
    const order = ["shutting down", "confirmation finished", "stopped: database closed"];
    expect(
      order.map((msg) => messages.indexOf(msg)).every((at, i, all) => at > (all[i - 1] ?? -1)),
      why,
    ).toBe(true);
    expect(messages.at(-1), why).toBe("stopped cleanly");
    expect(world.sandbox.purchaseRequests()).toHaveLength(1);
    expect(secretsIn(bot.output(), bot.env)).toEqual([]);
  });

  it("SIGTERM while a purchase waits for the service's quota: it was never claimed nor sent, exit 0", async () => {
    const world = await startWorld();
    // Two requests a minute: the recipient check and the balance read use them up, so the
    // purchase has to wait about a minute for its turn.
    const bot = await startBot(world, {
      SERVICE_QUOTA_PER_MINUTE: "2",
      SHUTDOWN_GRACE_SECONDS: "20",
    });
    const uma = new Person(world.emulator, DEMO_USER.id);
    const summary = await starsSummary(uma, "alice_friend");
    await uma.press(summary, "✅ Confirm");
    await world.emulator.waitFor(
      () => uma.message(summary.id)?.text.includes("⏳ The service is busy") === true,
      { timeoutMs: WAIT_MS },
    );
    bot.child.kill("SIGTERM");

    const exit = await bot.exited;
    const why = bot.output();
    expect(exit, why).toEqual({ code: 0, signal: null });
    // Nothing went out and nothing was claimed: it waited queued for its slot, and is an
    // open draft again, to be confirmed after the start.
    expect(world.sandbox.purchaseRequests(), why).toHaveLength(0);
    expect((await world.intents())[0], why).toMatchObject({ status: "draft" });
    expect(uma.message(summary.id)?.text, why).toMatch(
      /Nothing was bought: the bot is restarting; press Confirm again in a minute\./,
    );
  });

  it("a second signal exits at once (130) even while a purchase is held", async () => {
    const world = await startWorld();
    const bot = await startBot(world, { SHUTDOWN_GRACE_SECONDS: "30" });
    const uma = new Person(world.emulator, DEMO_USER.id);

    const summary = await starsSummary(uma, "alice_friend");
    world.sandbox.injectFault({ type: "delay", ms: 20_000 }, { path: "/buy-stars/" });
    await uma.press(summary, "✅ Confirm");
    await world.sandbox.waitForRequests(1, "/buy-stars/");
    bot.child.kill("SIGTERM");
    const stopping = await bot.waitForLog((line) => line.msg === "shutting down");
    // A second signal, not the same one repeated (a repeat within a second is the same stop:
    // src/run/shutdown.ts): a person asking again a moment later.
    await new Promise((resolve) => setTimeout(resolve, Number(stopping.time) + 1_100 - Date.now()));
    bot.child.kill("SIGINT");
    expect(await bot.exited).toEqual({ code: 130, signal: null });
    // What was claimed stays `sending`: the next start makes it unconfirmed, never resends it.
    expect((await world.intents())[0]?.status).toBe("sending");
  });

  it("Telegram unreachable while polling: failures are logged without the token, polling retries", async () => {
    const world = await startWorld();
    const bot = await startBot(world);
    // Every getUpdates now fails in the network layer, whose error message holds the URL
    // with the token; grammY's runner would print it raw to stderr.
    await world.emulator.close();
    await bot.waitForLog((line) => line.msg === "getUpdates failed; retrying");
    bot.child.kill("SIGTERM");
    await bot.exited;
    // The reason is kept, the token inside it is not.
    expect(bot.output()).toMatch(/"cause":"[^"]*bot\[redacted\]\/getUpdates/);
    expect(secretsIn(bot.output(), bot.env)).toEqual([]);
  });

  it("Telegram stops taking the token while polling: the process stops and exits 1 for a restart", async () => {
    const world = await startWorld();
    const bot = await startBot(world);
    world.emulator.injectApiError("getUpdates", { errorCode: 401, description: "Unauthorized" });
    // The held poll ends with the next update; the one after it meets the 401.
    world.emulator.sendText(DEMO_USER.id, DEMO_USER.id, "/start");
    expect(await bot.exited).toEqual({ code: 1, signal: null });
    const messages = bot.logs.map((line) => line.msg);
    expect(messages).toContain("long polling stopped with an error");
    expect(messages.at(-1)).toBe("stopped: database closed");
  });
});
