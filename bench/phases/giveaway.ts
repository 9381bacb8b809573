/**
 * 7. A giveaway against the service's quota: `recipients` (default 200) stars gifts confirmed
 * at once and sent by the giveaway runner (src/purchases/giveaway-runner.ts) through the
 * production app, with the sandbox process enforcing 30 requests per window. Figures:
 *
 * - `giveaway_limit_ratio`: how long the sending took, from the batch's start to its last
 *   answer, against the physical limit: the requests it made (purchases and balance reads)
 *   divided by the quota, times the window. 1.0 is as fast as the quota allows (goal ≤ 1.1);
 *   a sliding window admits its first `limit` requests at once, so it can come out under 1.
 * - the buyer's wait: a person who starts a stars gift a third of the way through, from their
 *   recipient to "Delivered", against the same person's wait with no giveaway running (the
 *   fair peer, measured in the same run). Both scaled to a 60-second window.
 *
 * The window is shortened as in phase 2 (default 2,000 ms) so the run fits the time budget.
 */
import { join } from "node:path";
import { TEST_BOT_INFO } from "../../tools/testing/telegram-fake.js";
import { createUpdateFactory } from "../../tools/testing/updates.js";
import { delivered, type Person, people, stepUpdate } from "../lib/flow.js";
import { startSandboxProcess } from "../lib/sandbox.js";
import { BENCH_ADMIN_ID, BENCH_LIMITS, type BotStack, buildBotStack } from "../lib/stack.js";
import { round } from "../lib/stats.js";
import { createTelegramStub, type TelegramStub } from "../lib/telegram-stub.js";
import { QUOTA_LIMIT, REAL_WINDOW_MS } from "./quota.js";

export interface GiveawayResult {
  window_ms: number;
  limit: number;
  recipients: number;
  delivered: number;
  /** Requests the sending made (purchases, balance reads) and the buyer's, from its start. */
  service_requests: number;
  self_caused_429: number;
  duration_s_scaled: number;
  physical_limit_s_scaled: number;
  giveaway_limit_ratio: number;
  /** The buyer's recipient-to-delivered wait during the giveaway, and alone. */
  buyer_wait_s_scaled: number;
  buyer_wait_alone_s_scaled: number;
  buyer_delivered: boolean;
}

/** One person's stars gift, from their recipient to the outcome; ms. */
async function buyerFlow(stack: BotStack, stub: TelegramStub, person: Person): Promise<number> {
  const updates = createUpdateFactory();
  const send = (step: Parameters<typeof stepUpdate>[0]) =>
    stack.bot.handleUpdate(stepUpdate(step, person, stub, updates));
  await send("start");
  await send("menu");
  const t = performance.now();
  await send("recipient");
  await send("amount");
  await send("confirm");
  return performance.now() - t;
}

export async function runGiveaway(options: {
  dir: string;
  recipients: number;
  windowMs: number;
}): Promise<GiveawayResult> {
  const { windowMs } = options;
  const scale = windowMs / REAL_WINDOW_MS;
  const toRealSeconds = (ms: number) => round(ms / scale / 1000, 1);
  const sandbox = await startSandboxProcess({ limit: QUOTA_LIMIT, windowMs });
  const stub = createTelegramStub(TEST_BOT_INFO);
  const stack = await buildBotStack({
    dbPath: join(options.dir, "giveaway.sqlite"),
    serviceUrl: sandbox.url,
    fetch: stub.fetch,
    clientQuota: { limit: QUOTA_LIMIT, windowMs },
    limits: BENCH_LIMITS,
    recipientCacheMs: Math.round(60_000 * scale),
    balanceCacheMs: Math.round(15_000 * scale),
  });
  try {
    // The fair peer: the same buyer's gift with nothing else running, after one gift that warms
    // the process up (its first flow pays for loading and compiling, which the buyer during
    // the giveaway would not).
    const [warmup, alone, during] = people(3, 3_000_000, "giveaway_buyer_");
    if (warmup === undefined || alone === undefined || during === undefined) {
      throw new Error("no buyers");
    }
    await buyerFlow(stack, stub, warmup);
    const aloneMs = await buyerFlow(stack, stub, alone);
    // A fresh window for the giveaway: what the lone buyer used has slid out of it.
    await new Promise((resolve) => setTimeout(resolve, windowMs * 1.1));

    const runner = stack.giveaways;
    const names = Array.from({ length: options.recipients }, (_, i) => `giveaway_winner_${i}`);
    const batch = await runner.create({
      kind: "stars",
      quantity: 50,
      paymentMethod: "usdt_ton",
      adminId: BENCH_ADMIN_ID,
      chatId: BENCH_ADMIN_ID,
      recipients: names,
      balanceBefore: undefined,
    });
    const started = Date.now();
    runner.send(batch.id);
    // The buyer comes a third of the way through (by the physical limit).
    const third = ((options.recipients / QUOTA_LIMIT) * windowMs) / 3;
    await new Promise((resolve) => setTimeout(resolve, third));
    const duringMs = await buyerFlow(stack, stub, during);
    await runner.idle();
    const state = await runner.state(batch.id);

    const answers = (await sandbox.answers()).filter((a) => a.at >= started);
    const tooMany = answers.filter((a) => a.status === "429").length;
    const last = answers.at(-1)?.at ?? started;
    const duration = last - started;
    const physical = (answers.length / QUOTA_LIMIT) * windowMs;
    return {
      window_ms: windowMs,
      limit: QUOTA_LIMIT,
      recipients: options.recipients,
      delivered: state?.counts.delivered ?? 0,
      service_requests: answers.length,
      self_caused_429: tooMany,
      duration_s_scaled: toRealSeconds(duration),
      physical_limit_s_scaled: toRealSeconds(physical),
      giveaway_limit_ratio: round(duration / physical, 3),
      buyer_wait_s_scaled: toRealSeconds(duringMs),
      buyer_wait_alone_s_scaled: toRealSeconds(aloneMs),
      buyer_delivered: delivered(stub, during),
    };
  } finally {
    await stack.close();
    await sandbox.close();
  }
}
