/**
 * Two built bot processes on one PostgreSQL database, in webhook mode behind one URL (the test
 * plays the proxy: it posts each update to one replica or the other). The lease holder handles
 * every update; the replica on standby hands them to it (src/run/replicas.ts). So a
 * conversation stays whole whichever replica gets its steps, a double press landing on both
 * replicas sends one request, only one process talks to the service (its quota is kept in
 * total), and when the holder dies the other takes over and the conversation goes on.
 */
import { describe, expect, it } from "vitest";
import type { ApiUpdate } from "../../tools/telegram-emulator/types.js";
import {
  type BotProcess,
  DEMO_USER,
  postUpdate,
  spawnBot,
  startWorld,
  WAIT_MS,
  WEBHOOK_SECRET,
  webhookEnv,
  type World,
} from "../helpers/built-process.js";
import { freePort } from "../../tools/testing/free-port.js";
import { freshPostgresDatabase } from "../helpers/postgres.js";

interface Replica {
  bot: BotProcess;
  base: string;
  hook: string;
}

async function startReplica(world: World, databaseUrl: string): Promise<Replica> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const bot = spawnBot(
    await world.env({
      ...webhookEnv(),
      PORT: String(port),
      // The webhook server answers /metrics too (METRICS_PORT is PORT).
      METRICS_PORT: String(port),
      DATABASE_URL: databaseUrl,
      REPLICA_URL: base,
      LEASE_SECONDS: "2",
    }),
  );
  return { bot, base, hook: `${base}/telegram/hook` };
}

/** The update the emulator made for `updateId` (webhook mode: nobody takes them away). */
function updateOf(world: World, updateId: number | undefined): ApiUpdate {
  const update = world.emulator.pendingUpdates().find((u) => u.update_id === updateId);
  if (update === undefined) throw new Error(`no update ${updateId}`);
  return update;
}

async function deliver(world: World, to: Replica, updateId: number | undefined): Promise<void> {
  const answer = await postUpdate(to.hook, updateOf(world, updateId), WEBHOOK_SECRET);
  expect(answer.status).toBe(200);
}

/** Service requests this process has sent, from its own metrics. */
async function serviceRequests(replica: Replica): Promise<number> {
  const text = await (await fetch(`${replica.base}/metrics`)).text();
  expect(text).toContain("# TYPE giftbot_service_requests_total counter");
  let total = 0;
  for (const match of text.matchAll(/^giftbot_service_requests_total\{[^}]*\} (\d+)/gm)) {
    total += Number(match[1]);
  }
  return total;
}

describe("two replicas on PostgreSQL behind one webhook URL", () => {
  it("keep each conversation whole, send one request per confirmed intent under double presses on both, and talk to the service from one process only", async () => {
    const world = await startWorld();
    const url = await freshPostgresDatabase();
    const a = await startReplica(world, url);
    await a.bot.waitForLog((line) => line.msg === "taking updates by webhook");
    const b = await startReplica(world, url);
    await b.bot.waitForLog(
      (line) => line.msg === "another process holds the sender lease: standing by",
    );
    const chat = DEMO_USER.id;
    const after = (id: number) => ({ after: id, timeoutMs: WAIT_MS });

    // Each step of the conversation lands on the other replica.
    const ask = world.emulator.sendText(chat, chat, "/stars");
    await deliver(world, b, ask.updateId);
    const asked = await world.emulator.nextBotMessage(chat, after(ask.messageId));
    expect(asked.text).toMatch(/Who should get the stars/);
    const name = world.emulator.sendText(chat, chat, "@alice_friend");
    await deliver(world, a, name.updateId);
    const amount = await world.emulator.nextBotMessage(chat, after(name.messageId));
    expect(amount.text).toMatch(/How many stars for @alice_friend/);
    const pick = world.emulator.pressButtonLabeled(chat, chat, amount.id, "⭐ 100");
    await deliver(world, b, pick.updateId);
    const summary = await world.emulator.nextBotMessage(chat, after(amount.id));
    expect(summary.text).toContain("Recipient: @alice_friend\nGift: 100 Telegram Stars");

    // A double press of Confirm: one press reaches each replica at the same moment.
    const first = world.emulator.pressButtonLabeled(chat, chat, summary.id, "✅ Confirm");
    const second = world.emulator.pressButtonLabeled(chat, chat, summary.id, "✅ Confirm");
    await Promise.all([deliver(world, a, first.updateId), deliver(world, b, second.updateId)]);
    await world.emulator.waitFor(
      () =>
        /Delivered/.test(world.emulator.chat(chat).find((m) => m.id === summary.id)?.text ?? ""),
      { timeoutMs: WAIT_MS },
    );
    expect(world.sandbox.purchaseRequests()).toHaveLength(1);

    // Every service request came from the lease holder: one quota scheduler for the total.
    expect(await serviceRequests(b)).toBe(0);
    expect(await serviceRequests(a)).toBe(world.sandbox.requests.length);

    // The holder dies mid-conversation; the other replica takes over and carries it on.
    const again = world.emulator.sendText(chat, chat, "/stars");
    await deliver(world, b, again.updateId);
    await world.emulator.nextBotMessage(chat, after(again.messageId));
    a.bot.child.kill("SIGKILL");
    await a.bot.exited;
    await b.bot.waitForLog((line) => line.msg === "taking updates by webhook", WAIT_MS * 2);
    const next = world.emulator.sendText(chat, chat, "@bob_friend");
    await deliver(world, b, next.updateId);
    const nextAmount = await world.emulator.nextBotMessage(chat, after(next.messageId));
    expect(nextAmount.text).toMatch(/How many stars for @bob_friend/);
    expect(world.sandbox.purchaseRequests()).toHaveLength(1);
  });

  it("a replica on standby relays only posts with the webhook secret, and never relays a relayed one", async () => {
    const world = await startWorld();
    const url = await freshPostgresDatabase();
    const a = await startReplica(world, url);
    await a.bot.waitForLog((line) => line.msg === "taking updates by webhook");
    const b = await startReplica(world, url);
    await b.bot.waitForLog(
      (line) => line.msg === "another process holds the sender lease: standing by",
    );
    const hello = world.emulator.sendText(DEMO_USER.id, DEMO_USER.id, "/start");
    const update = updateOf(world, hello.updateId);

    expect((await postUpdate(b.hook, update)).status).toBe(401);
    expect((await postUpdate(b.hook, update, "wrong-secret")).status).toBe(401);
    const relayed = await fetch(b.hook, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-telegram-bot-api-secret-token": WEBHOOK_SECRET,
        "x-giftbot-forwarded": "1",
      },
      body: JSON.stringify(update),
    });
    expect(relayed.status).toBe(503);
    expect(world.emulator.chat(DEMO_USER.id).filter((m) => m.fromBot)).toHaveLength(0);

    await deliver(world, b, hello.updateId);
    const greeting = await world.emulator.nextBotMessage(DEMO_USER.id, {
      after: hello.messageId,
      timeoutMs: WAIT_MS,
    });
    expect(greeting.text).toMatch(/^Hi, Uma!/);
  });
});
