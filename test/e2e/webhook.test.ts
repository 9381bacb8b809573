/**
 * Webhook mode of the real process: it registers its webhook (with the secret) at Telegram,
 * serves updates on HOST/PORT at WEBHOOK_URL's path, refuses posts without the right
 * `X-Telegram-Bot-Api-Secret-Token` (401, the update is ignored), and reports health.
 */
import { describe, expect, it } from "vitest";
import type { ApiUpdate } from "../../tools/telegram-emulator/types.js";
import {
  DEMO_USER,
  postUpdate as post,
  secretsIn,
  spawnBot,
  startWorld,
  WAIT_MS,
  WEBHOOK_SECRET as SECRET,
  webhookEnv,
} from "../helpers/built-process.js";

describe("the bot process in webhook mode", () => {
  it("takes updates only with the secret, and /healthz reports the database and the service", async () => {
    const world = await startWorld();
    const bot = spawnBot(await world.env(webhookEnv(SECRET)));
    const ready = await bot.waitForLog((line) => line.msg === "taking updates by webhook");
    const base = String(ready.listening);
    const hook = `${base}/telegram/hook`;
    expect(world.emulator.webhook).toMatchObject({
      url: "https://bot.example.org/telegram/hook",
      secretToken: SECRET,
    });

    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "up", database: "up", service: "unknown" });

    // The person writes /start: Telegram holds the update for the webhook.
    world.emulator.sendText(DEMO_USER.id, DEMO_USER.id, "/start");
    const [update] = world.emulator.pendingUpdates();
    if (update === undefined) throw new Error("no update pending");

    expect((await post(hook, update)).status).toBe(401);
    expect((await post(hook, update, "wrong-secret")).status).toBe(401);
    expect((await fetch(`${base}/elsewhere`, { method: "POST", body: "{}" })).status).toBe(404);
    const accepted = await post(hook, update, SECRET);
    expect(accepted.status).toBe(200);
    const greeting = await world.emulator.nextBotMessage(DEMO_USER.id, {
      after: 0,
      timeoutMs: WAIT_MS,
    });
    expect(greeting.text).toMatch(/^Hi, Uma!/);
    // Only the post with the secret was handled: one greeting, not three.
    expect(world.emulator.chat(DEMO_USER.id).filter((m) => m.fromBot)).toHaveLength(1);

    // A recipient check reaches the service: it is up.
    const ask = world.emulator.sendText(DEMO_USER.id, DEMO_USER.id, "/stars");
    await post(hook, pending(world.emulator.pendingUpdates(), ask.updateId), SECRET);
    const name = world.emulator.sendText(DEMO_USER.id, DEMO_USER.id, "alice_friend");
    await post(hook, pending(world.emulator.pendingUpdates(), name.updateId), SECRET);
    expect(await (await fetch(`${base}/healthz`)).json()).toMatchObject({ service: "up" });

    // The service goes away: the next check cannot reach it, and /healthz says so.
    await world.sandbox.close();
    const restart = world.emulator.sendText(DEMO_USER.id, DEMO_USER.id, "/stars");
    await post(hook, pending(world.emulator.pendingUpdates(), restart.updateId), SECRET);
    const again = world.emulator.sendText(DEMO_USER.id, DEMO_USER.id, "bob_friend");
    await post(hook, pending(world.emulator.pendingUpdates(), again.updateId), SECRET);
    const down = await fetch(`${base}/healthz`);
    // The service's outage is reported, but it is not the bot's: no 503 for a probe to act on.
    expect(down.status).toBe(200);
    expect(await down.json()).toMatchObject({
      status: "degraded",
      database: "up",
      service: "down",
    });

    bot.child.kill("SIGTERM");
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    expect(secretsIn(bot.output(), bot.env)).toEqual([]);
  });
});

function pending(updates: ApiUpdate[], updateId: number | undefined): ApiUpdate {
  const update = updates.find((u) => u.update_id === updateId);
  if (update === undefined) throw new Error(`update ${updateId} is not pending`);
  return update;
}
