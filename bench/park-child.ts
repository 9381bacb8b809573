/**
 * A bot process for the memory phase (forked by phases/memory.ts). Request "park": N people
 * each send /stars and a recipient, so N conversations wait at the amount step in SQLite; the
 * process reports its RSS and heap after a GC and the database size. Then a second round of N
 * other people parks the same way (RSS again: a high-water mark stays flat, a leak grows), and
 * N more distinct recipients are checked through the desk, so 3N distinct recipients have been
 * seen (heap again: the shared-read cache must not grow with them). Request "resume": a fresh
 * process on the same database sends the next update of parked people (an amount typed as text)
 * and times each until the bot's reply (the summary) is sent.
 */
import { statSync } from "node:fs";
import { TEST_BOT_INFO } from "../tools/testing/telegram-fake.js";
import { createUpdateFactory, testUser } from "../tools/testing/updates.js";
import { serveOnce } from "./lib/child.js";
import { type Person, people, stepUpdate } from "./lib/flow.js";
import { openDatabase } from "../src/storage/sqlite/open.js";
import { BENCH_LIMITS, buildBotStack, LIFTED_CLIENT_QUOTA } from "./lib/stack.js";
import { pool } from "./lib/stats.js";
import { createTelegramStub } from "./lib/telegram-stub.js";

export type ParkRequest =
  | { type: "park"; dbPath: string; serviceUrl: string; count: number; firstId: number }
  | { type: "resume"; dbPath: string; serviceUrl: string; userIds: number[] };

export interface ParkReply {
  rssBeforeMb: number;
  /** After the first round of N parked (N distinct recipients). */
  rssAfterMb: number;
  heapUsedAfterMb: number;
  /** After the second round of N parked. */
  rssSecondRoundMb: number;
  heapUsedSecondRoundMb: number;
  /** After N more recipient checks through the desk: 3N distinct recipients in all. */
  heapUsedThreeRoundsMb: number;
  rssThreeRoundsMb: number;
  /** process.memoryUsage() before parking, in MB. */
  memoryBeforeMb: Record<string, number>;
  /** process.memoryUsage() after parking and GC, in MB (where the RSS is). */
  memoryAfterMb: Record<string, number>;
  dbBytes: number;
  walBytes: number;
  parkSeconds: number;
  conversationsStored: number;
  conversationsStoredSecondRound: number;
}

export interface ResumeReply {
  /** Per resumed person, ms from handing the update to the bot until the summary was sent. */
  replyMs: number[];
  /** Until handleUpdate finished (the summary recorded as open, the state row deleted). */
  handledMs: number[];
  rssAfterMb: number;
  conversationsLeft: number;
}

const mb = (bytes: number) => bytes / 1024 / 1024;

function settledRss(): number {
  // Two collections: the first can leave garbage reachable only from finalisers.
  globalThis.gc?.();
  globalThis.gc?.();
  return mb(process.memoryUsage().rss);
}

function memoryMb(): Record<string, number> {
  return Object.fromEntries(
    Object.entries(process.memoryUsage()).map(([k, v]: [string, number]) => [
      k,
      Math.round(mb(v) * 10) / 10,
    ]),
  );
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

async function park(request: Extract<ParkRequest, { type: "park" }>): Promise<ParkReply> {
  const stub = createTelegramStub(TEST_BOT_INFO);
  const stack = await buildBotStack({
    dbPath: request.dbPath,
    serviceUrl: request.serviceUrl,
    fetch: stub.fetch,
    clientQuota: LIFTED_CLIENT_QUOTA,
    limits: BENCH_LIMITS,
  });
  const updates = createUpdateFactory();
  const rssBeforeMb = settledRss();
  const memoryBeforeMb = memoryMb();
  const crowd = people(request.count, request.firstId, "parked_rcpt_");
  const started = performance.now();
  // Many chats at once, as the runner would run them; each person's updates in order.
  const parkAll = (group: Person[]) =>
    pool(group, 32, async (person: Person) => {
      await stack.bot.handleUpdate(updates.command(person.user, "stars"));
      await stack.bot.handleUpdate(stepUpdate("recipient", person, stub, updates));
      if (!stub.keyboard(person.user.id)?.data.includes("flow:amount:50")) {
        throw new Error(`chat ${person.user.id} is not at the amount step`);
      }
    });
  await parkAll(crowd);
  const parkSeconds = (performance.now() - started) / 1000;
  stub.reset(); // the stub's own per-chat state is the bench's, not the bot's
  const rssAfterMb = settledRss();
  const heapUsedAfterMb = mb(process.memoryUsage().heapUsed);
  const memoryAfterMb = memoryMb();
  // The bench's own connection to the file: the app's storage shows no SQL.
  const measure = openDatabase(request.dbPath);
  const countStored = () =>
    measure
      .prepare<[], { n: number }>("SELECT count(*) AS n FROM kv WHERE namespace = 'conversations'")
      .get()?.n ?? 0;
  const stored = countStored();
  // Everything into the main file, so its size is the database's size with N parked.
  measure.pragma("wal_checkpoint(TRUNCATE)");
  const dbBytes = fileSize(request.dbPath);
  const walBytes = fileSize(`${request.dbPath}-wal`);

  // A second round of other people: the RSS of a high-water mark stays put, a leak grows.
  await parkAll(people(request.count, request.firstId + request.count, "second_rcpt_"));
  stub.reset();
  const rssSecondRoundMb = settledRss();
  const heapUsedSecondRoundMb = mb(process.memoryUsage().heapUsed);
  const storedSecondRound = countStored();
  measure.close();
  // And as many recipients again through the desk: 3N distinct names seen in all.
  await pool(
    Array.from({ length: request.count }, (_, i) => `third_rcpt_${i}`),
    32,
    async (name) => {
      const check = await stack.desk.checkRecipient(name);
      if (check.kind !== "ok") throw new Error(`recipient check of ${name}: ${check.kind}`);
    },
  );
  const rssThreeRoundsMb = settledRss();
  const heapUsedThreeRoundsMb = mb(process.memoryUsage().heapUsed);
  const reply: ParkReply = {
    rssBeforeMb,
    rssAfterMb,
    heapUsedAfterMb,
    rssSecondRoundMb,
    heapUsedSecondRoundMb,
    rssThreeRoundsMb,
    heapUsedThreeRoundsMb,
    memoryBeforeMb,
    memoryAfterMb,
    dbBytes,
    walBytes,
    parkSeconds,
    conversationsStored: stored,
    conversationsStoredSecondRound: storedSecondRound,
  };
  await stack.close();
  return reply;
}

async function resume(request: Extract<ParkRequest, { type: "resume" }>): Promise<ResumeReply> {
  const stub = createTelegramStub(TEST_BOT_INFO);
  let replied: (() => void) | undefined;
  stub.onCall = (method, _chatId, text) => {
    if (method === "sendMessage" && text !== undefined && replied) replied();
  };
  const stack = await buildBotStack({
    dbPath: request.dbPath,
    serviceUrl: request.serviceUrl,
    fetch: stub.fetch,
    clientQuota: LIFTED_CLIENT_QUOTA,
    limits: BENCH_LIMITS,
  });
  // Update ids far above the parking run's, as Telegram's keep increasing.
  const updates = createUpdateFactory(10_000_000);
  const replyMs: number[] = [];
  const handledMs: number[] = [];
  for (const userId of request.userIds) {
    const user = testUser(userId, { language_code: userId % 2 === 0 ? "en" : "ru" });
    const update = updates.text(user, "100");
    let repliedAt = Number.NaN;
    replied = () => {
      repliedAt = performance.now();
      replied = undefined;
    };
    const t = performance.now();
    await stack.bot.handleUpdate(update);
    handledMs.push(performance.now() - t);
    replyMs.push(repliedAt - t);
    if (!stub.keyboard(userId)?.data.some((d) => d.startsWith("buy:confirm:"))) {
      throw new Error(
        `resumed chat ${userId} did not get a summary: ${JSON.stringify(stub.lastText(userId))}`,
      );
    }
  }
  const measure = openDatabase(request.dbPath);
  const left = measure
    .prepare<[], { n: number }>("SELECT count(*) AS n FROM kv WHERE namespace = 'conversations'")
    .get();
  measure.close();
  const rssAfterMb = settledRss();
  await stack.close();
  return { replyMs, handledMs, rssAfterMb, conversationsLeft: left?.n ?? 0 };
}

serveOnce<ParkRequest, ParkReply | ResumeReply>(async (request) => {
  try {
    return request.type === "park" ? await park(request) : await resume(request);
  } finally {
    setImmediate(() => process.disconnect());
  }
});
