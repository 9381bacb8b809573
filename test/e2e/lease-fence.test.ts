/**
 * No purchase leaves a process that may have lost the sender lease (issue #35), done to real
 * processes: two built bots on one database, the sandbox recording every request. The holder's
 * purchase waits behind the service's 429 hold, unclaimed (its quota slot comes before its
 * claim); meanwhile the holder is paused (SIGSTOP) or cut off from PostgreSQL past its lease,
 * and the standby takes over. Whatever happens next, the old holder's request never reaches the
 * service: the confirmation is given back to its person, or kept by the new holder, once.
 * And the database's clock decides who holds the lease: a standby whose clock runs ahead never
 * takes it from a healthy holder.
 */
import { setTimeout as delay } from "node:timers/promises";
import Database from "better-sqlite3";
import { pathToFileURL } from "node:url";
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
  type World,
} from "../helpers/built-process.js";
import type { ChatViewMessage } from "../../tools/telegram-emulator/types.js";
import { freshPostgresDatabase } from "../helpers/postgres.js";
import { startTcpProxy } from "../helpers/tcp-proxy.js";

const STARS = "/buy-stars/";
const USER_INFO = "/get-user-info/";
/**
 * The paused holder's lease and the service's 429 hold its purchase waits behind. The hold
 * (from just after a renewal) ends before the holder's next renewal is due, and the holder is
 * paused before the hold ends.
 */
const PAUSE_LEASE_SECONDS = 8;
const PAUSE_HOLD_SECONDS = 2;
/** The hold of the cut-off holder: longer than the lease it can no longer renew. */
const CUT_HOLD_SECONDS = 6;
/** Bounds for the waits that span a lease's expiry and a takeover. */
const LONG_WAIT_MS = 20_000;
const CLOCK_OFFSET_MODULE = pathToFileURL(
  new URL("../helpers/clock-offset.mjs", import.meta.url).pathname,
).href;

/** A second process on the same database; resolves once it says it is on standby. */
async function standby(world: World, env: Record<string, string>): Promise<BotProcess> {
  const bot = spawnBot(await world.env(env));
  await bot.waitForLog(
    (line) => line.msg === "another process holds the sender lease: standing by",
  );
  return bot;
}

/** Ada (an admin) at the question "Who should get the stars?", her answer not yet sent. */
async function adaAsksForARecipient(world: World): Promise<Person> {
  const ada = new Person(world.emulator, DEMO_ADMIN.id);
  const ask = await ada.say("/stars");
  expect(ask.text).toMatch(/Who should get the stars/);
  return ada;
}

/**
 * The service answers Ada's recipient check 429 with a wait of `seconds`: the holder holds every
 * request that long. Resolves, once the holder has taken the answer in (a Confirm pressed before
 * would go at once), with the time (test clock) the hold ends by.
 */
async function holdTheService(
  world: World,
  holder: BotProcess,
  ada: Person,
  seconds: number,
): Promise<number> {
  const checks = world.sandbox.requests.filter((r) => r.path === USER_INFO).length;
  world.sandbox.injectFault(
    {
      type: "status",
      status: 429,
      body: { ok: false, error: "FLOOD_WAIT", retry_after: seconds },
      headers: { "Retry-After": String(seconds) },
    },
    { path: USER_INFO },
  );
  world.emulator.sendText(ada.userId, ada.chatId, "bob_friend");
  await world.sandbox.waitForRequests(checks + 1, USER_INFO);
  const answered = world.sandbox.requests.filter((r) => r.path === USER_INFO)[checks];
  await holder.waitForLog((line) => line.msg === "the gift service asks to wait");
  // The holder starts its hold when the answer arrives, a few ms after the sandbox's `at`.
  return (answered?.at ?? Date.now()) + seconds * 1000 + 300;
}

/** Uma presses Confirm on `summary` and her gift waits behind the service's hold. */
async function confirmBehindTheHold(uma: Person, summary: ChatViewMessage): Promise<void> {
  await uma.press(summary, "✅ Confirm");
  await uma.emulator.waitFor(
    () => uma.message(summary.id)?.text.includes("⏳ The service is busy") === true,
    { timeoutMs: LONG_WAIT_MS },
  );
}

/**
 * Resolves "sent" if the old holder's purchase reaches the sandbox, or `other` when `event`
 * comes first (the old holder gave the purchase up).
 */
function sentOr<T extends string>(world: World, other: T, event: Promise<unknown>) {
  return Promise.race([
    world.sandbox.waitForRequests(1, STARS).then(() => "sent" as const),
    event.then(() => other),
  ]);
}

/** A short wait for a moment the scenario itself sets (the end of the service's hold). */
async function until(at: number): Promise<void> {
  const left = at - Date.now();
  if (left > 0) await delay(left);
}

async function postgresRows<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

interface Store {
  name: string;
  world(): Promise<World>;
  statuses(world: World): Promise<string[]>;
  /** The sender lease's last renewal, as its row says. */
  renewedAt(world: World): Promise<unknown>;
}

const STORES: readonly Store[] = [
  {
    name: "SQLite",
    world: () => startWorld(),
    statuses: async (world) => (await world.intents()).map((i) => i.status),
    renewedAt: (world) => {
      const db = new Database(world.databasePath, { readonly: true });
      try {
        return Promise.resolve(db.prepare("SELECT renewed_at FROM sender_lease").pluck().get());
      } finally {
        db.close();
      }
    },
  },
  {
    name: "PostgreSQL",
    world: async () => startWorld({ env: { DATABASE_URL: await freshPostgresDatabase() } }),
    statuses: async (world) =>
      (
        await postgresRows<{ status: string }>(
          (await world.env()).DATABASE_URL ?? "",
          "SELECT status FROM purchase_intents ORDER BY created_at DESC",
        )
      ).map((row) => row.status),
    renewedAt: async (world) =>
      (
        await postgresRows<{ renewed_at: unknown }>(
          (await world.env()).DATABASE_URL ?? "",
          "SELECT renewed_at FROM sender_lease",
        )
      )[0]?.renewed_at,
  },
];

/** Resolves once the holder has renewed its lease again (its row read every 10 ms). */
async function nextRenewal(store: Store, world: World): Promise<void> {
  const before = await store.renewedAt(world);
  for (let i = 0; i < 2_000; i++) {
    await delay(10);
    if ((await store.renewedAt(world)) !== before) return;
  }
  throw new Error("the holder did not renew its lease");
}

/** The client's line for a purchase the service answered: none may come from the old holder. */
const PURCHASE_ANSWERED = "purchase answered";

describe.each(STORES)("a lost lease sends nothing ($name)", { timeout: 90_000 }, (store) => {
  it("a holder paused (SIGSTOP) while its purchase waits for the service, past its lease: resumed, it sends nothing", async () => {
    const world = await store.world();
    const lease = { LEASE_SECONDS: String(PAUSE_LEASE_SECONDS) };
    const old = await startBot(world, lease);
    const next = await standby(world, lease);
    const uma = new Person(world.emulator, DEMO_USER.id);
    const summary = await starsSummary(uma, "alice_friend");
    const ada = await adaAsksForARecipient(world);
    // Right after a renewal, so the hold ends before the holder's next renewal is due: resumed,
    // its purchase is the first thing it does (a renewal first would stop it for another reason).
    await nextRenewal(store, world);
    const holdEndsAt = await holdTheService(world, old, ada, PAUSE_HOLD_SECONDS);
    await confirmBehindTheHold(uma, summary);

    old.child.kill("SIGSTOP");
    await next.waitForLog((line) => line.msg === "holding the sender lease", LONG_WAIT_MS);
    await until(holdEndsAt);
    old.child.kill("SIGCONT");
    expect(await sentOr(world, "stopped", old.exited), old.output()).toBe("stopped");
    expect((await old.exited).code).not.toBe(0);

    // Resumed, the old holder claimed nothing (the claim came after the wait, and is fenced):
    // the confirmation went back to an open draft, for Uma to press again. The new holder finds
    // nothing to recover once it can no longer be sent by the old one.
    await next.waitForLog((line) => line.msg === "taking updates by long polling", LONG_WAIT_MS);
    expect(world.sandbox.purchaseRequests()).toHaveLength(0);
    expect(old.output()).not.toContain(PURCHASE_ANSWERED);
    expect(await store.statuses(world)).toEqual(["draft"]);
  });
});

describe("a lost lease sends nothing (PostgreSQL cut off)", { timeout: 90_000 }, () => {
  it("a holder cut off from PostgreSQL while its purchase waits for the service: it gives the lease up and sends nothing; the new holder keeps the promise once", async () => {
    const url = await freshPostgresDatabase();
    const world = await startWorld({ env: { DATABASE_URL: url } });
    const proxy = await startTcpProxy(url);
    const lease = { LEASE_SECONDS: "3" };
    const old = await startBot(world, { ...lease, DATABASE_URL: proxy.through(url) });
    const next = await standby(world, lease);
    const uma = new Person(world.emulator, DEMO_USER.id);
    const summary = await starsSummary(uma, "alice_friend");
    await holdTheService(world, old, await adaAsksForARecipient(world), CUT_HOLD_SECONDS);
    await confirmBehindTheHold(uma, summary);

    proxy.cut();
    const lost = old.waitForLog((line) => line.msg === "lost the sender lease", LONG_WAIT_MS);
    expect(await sentOr(world, "lost", lost), old.output()).toBe("lost");

    // The old holder never claimed it (it waited for its slot, queued) and could not write it
    // back: the standby takes over and, once the old one can no longer send anything, keeps
    // the queued confirmation: sent once, by the new holder, and Uma told it was delivered.
    await next.waitForLog((line) => line.msg === "taking updates by long polling", LONG_WAIT_MS);
    await uma.waitForMessage(/✅ Delivered/);
    expect(world.sandbox.purchaseRequests()).toHaveLength(1);
    expect(old.output()).not.toContain(PURCHASE_ANSWERED);
    expect(next.output()).toContain(PURCHASE_ANSWERED);
    const statuses = await postgresRows<{ status: string }>(
      url,
      "SELECT status FROM purchase_intents",
    );
    expect(statuses.map((row) => row.status)).toEqual(["succeeded"]);
    // It stops by itself within its grace (SHUTDOWN_GRACE_SECONDS 5 here), however long the
    // cut-off database keeps its last queries unanswered: a supervisor restarts it.
    const stopped = await Promise.race([old.exited, delay(LONG_WAIT_MS).then(() => "running")]);
    expect(stopped, old.output()).toEqual({ code: 1, signal: null });
  });
});

describe("the database's clock decides (PostgreSQL)", { timeout: 60_000 }, () => {
  it("a standby whose clock runs 8 s ahead never takes the lease from a healthy holder", async () => {
    const url = await freshPostgresDatabase();
    const world = await startWorld({ env: { DATABASE_URL: url } });
    const lease = { LEASE_SECONDS: "5" };
    const old = await startBot(world, lease);
    const ahead = spawnBot(
      await world.env({
        ...lease,
        NODE_OPTIONS: `--import ${CLOCK_OFFSET_MODULE}`,
        GIFTBOT_TEST_CLOCK_OFFSET_MS: "8000",
      }),
    );
    const verdict = await Promise.race([
      ahead
        .waitForLog((line) => line.msg === "another process holds the sender lease: standing by")
        .then(() => "standby"),
      ahead
        .waitForLog((line) => line.msg === "holding the sender lease")
        .then(() => "took the lease"),
    ]);
    expect(verdict, ahead.output()).toBe("standby");

    // Two renewals by the holder later (the standby asked several times meanwhile), it still
    // holds the lease, and serves.
    const renewals = async () =>
      postgresRows<{ owner: string; renewed_at: number }>(
        url,
        "SELECT owner, renewed_at FROM sender_lease",
      );
    const [before] = await renewals();
    const seen = new Set<number>();
    for (let i = 0; i < 100 && seen.size < 3; i++) {
      const [row] = await renewals();
      if (row !== undefined && row.owner === before?.owner) seen.add(Number(row.renewed_at));
      await delay(100);
    }
    expect(seen.size).toBeGreaterThanOrEqual(3);
    const uma = new Person(world.emulator, DEMO_USER.id);
    const summary = await starsSummary(uma, "alice_friend");
    await uma.press(summary, "✅ Confirm");
    await uma.waitForText(summary.id, /Delivered: 50 Telegram Stars to @alice_friend/);
    expect(old.child.exitCode).toBeNull();
    expect(ahead.logs.some((line) => line.msg === "holding the sender lease")).toBe(false);
  });
});
