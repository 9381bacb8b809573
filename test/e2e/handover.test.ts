/**
 * A rolling deploy, done to real processes: two built bots on one SQLite file, with the
 * emulator answering a second long poll the way Telegram does (409 for the one it ends). One
 * sender at a time: the process that holds the sender lease takes updates and sends purchases;
 * the other waits on standby and takes over when the lease is released (a SIGTERM) or expires
 * (a SIGKILL, or a holder paused past its expiry).
 */
import pg from "pg";
import { describe, expect, it } from "vitest";
import {
  type BotProcess,
  DEMO_ADMIN,
  DEMO_USER,
  Person,
  spawnBot,
  starsSummary,
  startBot,
  startWorld,
  postUpdate,
  type World,
  WAIT_MS,
  WEBHOOK_SECRET,
  webhookEnv,
} from "../helpers/built-process.js";
import { freshPostgresDatabase } from "../helpers/postgres.js";

const STARS = "/buy-stars/";

/** A second process on the same file; resolves once it says it is on standby. */
async function standby(world: World, env: Record<string, string> = {}): Promise<BotProcess> {
  const bot = spawnBot(await world.env(env));
  await bot.waitForLog(
    (line) => line.msg === "another process holds the sender lease: standing by",
  );
  return bot;
}

/** Telegram's "terminated by other getUpdates request" (409), as grammY reports it. */
function conflicts(bot: BotProcess): string[] {
  return bot.output().match(/Conflict: terminated by other getUpdates/g) ?? [];
}

/**
 * The same processes on either store: the SQLite file, or one PostgreSQL database (DATABASE_URL).
 * A world on PostgreSQL writes no SQLite file; its intents are read from the database.
 */
const STORES = [
  {
    name: "SQLite",
    world: () => startWorld(),
    statuses: async (world: World) => (await world.intents()).map((i) => i.status),
  },
  {
    name: "PostgreSQL",
    world: async () => startWorld({ env: { DATABASE_URL: await freshPostgresDatabase() } }),
    statuses: async (world: World) => {
      const url = (await world.env()).DATABASE_URL ?? "";
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const rows = await client.query<{ status: string }>(
          "SELECT status FROM purchase_intents ORDER BY created_at DESC",
        );
        return rows.rows.map((row) => row.status);
      } finally {
        await client.end();
      }
    },
  },
] as const;

describe.each(STORES)("one sender at a time ($name)", { timeout: 60_000 }, (store) => {
  it("SIGTERM hands over: the purchase in flight ends delivered, no freeze, no 409, the new process takes updates within 2 s", async () => {
    const world = await store.world();
    const old = await startBot(world);
    const uma = new Person(world.emulator, DEMO_USER.id);
    const summary = await starsSummary(uma, "alice_friend");
    world.sandbox.injectFault({ type: "delay", ms: 1_500 }, { path: STARS });
    await uma.press(summary, "✅ Confirm");
    await world.sandbox.waitForRequests(1, STARS);

    const next = await standby(world, { HEALTH_PORT: "0" });
    // On standby: alive, and ready (200) so that a rolling update goes on to stop the old one.
    const serving = await next.waitForLog((line) => line.msg === "serving health and metrics");
    const ready = await fetch(`${String(serving.listening)}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, phase: "standby" });
    expect((await fetch(`${String(serving.listening)}/livez`)).status).toBe(200);
    old.child.kill("SIGTERM");
    await uma.waitForText(summary.id, /Delivered: 50 Telegram Stars to @alice_friend/);
    expect(await old.exited).toEqual({ code: 0, signal: null });
    const exitedAt = Date.now();
    const taking = await next.waitForLog((line) => line.msg === "taking updates by long polling");
    const handoverMs = Number(taking.time) - exitedAt;
    expect(handoverMs).toBeLessThan(2_000);

    // Nothing froze: no unknown outcome, no admin alert; and a new gift goes through once.
    expect(await store.statuses(world)).toEqual(["succeeded"]);
    const second = await starsSummary(uma, "bob_friend");
    await uma.press(second, "✅ Confirm");
    await uma.waitForText(second.id, /Delivered: 50 Telegram Stars to @bob_friend/);
    expect(world.sandbox.purchaseRequests()).toHaveLength(2);
    const ada = new Person(world.emulator, DEMO_ADMIN.id);
    expect(world.emulator.chat(ada.chatId).filter((m) => /unknown outcome/.test(m.text))).toEqual(
      [],
    );
    expect([...conflicts(old), ...conflicts(next)]).toEqual([]);
    expect(
      next.logs.some(
        (line) => line.msg === "purchases interrupted by the last stop are now unconfirmed",
      ),
    ).toBe(false);
  });

  it("SIGKILL: the standby takes over within the lease's expiry; the crashed purchase is unknown and never resent", async () => {
    const world = await store.world();
    const lease = { LEASE_SECONDS: "3" };
    const old = await startBot(world, lease);
    const uma = new Person(world.emulator, DEMO_USER.id);
    const summary = await starsSummary(uma, "alice_friend");
    // Held until the test ends: the process is killed with its request still in flight, however
    // slowly the standby starts on a busy machine.
    world.sandbox.injectFault({ type: "delay", ms: 60_000 }, { path: STARS });
    await uma.press(summary, "✅ Confirm");
    await world.sandbox.waitForRequests(1, STARS);
    const next = await standby(world, lease);

    old.child.kill("SIGKILL");
    await old.exited;
    const killedAt = Date.now();
    const taking = await next.waitForLog((line) => line.msg === "taking updates by long polling");
    expect(Number(taking.time) - killedAt).toBeLessThan(3_000 + 1_000);

    // Recovered as unknown: its person and the admins are told; it is never sent again.
    await uma.waitForText(summary.id, /outcome is unknown/);
    const ada = new Person(world.emulator, DEMO_ADMIN.id);
    await ada.waitForMessage(/unknown outcome: 50 Telegram Stars to @alice_friend/);
    expect(world.sandbox.purchaseRequests()).toHaveLength(1);
    const held = await starsSummary(uma, "bob_friend");
    const answer = await uma.press(held, "✅ Confirm");
    expect(answer.text).toMatch(/on hold while the admins check/);
    expect(world.sandbox.purchaseRequests()).toHaveLength(1);
  });

  it("a holder paused past its expiry (SIGSTOP, SIGCONT) loses the lease and stops; it sends nothing", async () => {
    const world = await store.world();
    const lease = { LEASE_SECONDS: "2" };
    const old = await startBot(world, lease);
    const next = await standby(world, lease);
    old.child.kill("SIGSTOP");
    const taking = await next.waitForLog(
      (line) => line.msg === "taking updates by long polling",
      WAIT_MS,
    );
    expect(taking).toBeDefined();
    old.child.kill("SIGCONT");
    // Its next renewal finds the lease taken: it stops taking updates and exits for a restart.
    expect((await old.exited).code).not.toBe(0);
    expect(
      old.logs.some(
        (line) =>
          line.msg === "lost the sender lease" || line.msg === "long polling stopped with an error",
      ),
    ).toBe(true);

    // The new holder serves; the old one sent nothing.
    const uma = new Person(world.emulator, DEMO_USER.id);
    const summary = await starsSummary(uma, "alice_friend");
    await uma.press(summary, "✅ Confirm");
    await uma.waitForText(summary.id, /Delivered: 50 Telegram Stars to @alice_friend/);
    expect(world.sandbox.purchaseRequests()).toHaveLength(1);
  });

  it("webhook mode: the standby answers Telegram 503 (Telegram retries), the holder answers; after the handover the new one does", async () => {
    const world = await store.world();
    const old = spawnBot(await world.env(webhookEnv()));
    await old.waitForLog((line) => line.msg === "taking updates by webhook");
    const next = spawnBot(await world.env(webhookEnv()));
    const listening = await next.waitForLog(
      (line) => line.msg === "webhook server listening; updates wait until started",
    );
    await next.waitForLog(
      (line) => line.msg === "another process holds the sender lease: standing by",
    );
    const hook = `${String(listening.listening)}/telegram/hook`;

    const hello = world.emulator.sendText(DEMO_USER.id, DEMO_USER.id, "/start");
    const update = world.emulator.pendingUpdates().find((u) => u.update_id === hello.updateId);
    expect((await postUpdate(hook, update, WEBHOOK_SECRET)).status).toBe(503);
    expect(world.emulator.chat(DEMO_USER.id).filter((m) => m.fromBot)).toEqual([]);

    old.child.kill("SIGTERM");
    expect((await old.exited).code).toBe(0);
    await next.waitForLog((line) => line.msg === "taking updates by webhook");
    expect((await postUpdate(hook, update, WEBHOOK_SECRET)).status).toBe(200);
    const greeting = await world.emulator.nextBotMessage(DEMO_USER.id, {
      after: 0,
      timeoutMs: WAIT_MS,
    });
    expect(greeting.text).toMatch(/^Hi, Uma!/);
  });
});
