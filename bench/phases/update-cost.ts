/**
 * 1. Update cost: N people each run a complete stars flow through the real bot, one update at a
 * time, step by step across everyone (so N conversations are stored at once, as in real use).
 * The same updates, in the same order, then go to a bare grammY bot that answers each with one
 * message, through the same in-process Telegram stub. Both get a warm-up first, so the JIT and
 * SQLite's caches are warm in both.
 *
 * The sandbox runs in another process with zero latency and no quota, so each service call costs
 * one loopback HTTP round trip; the client's quota is lifted accordingly.
 */
import { join } from "node:path";
import { Bot } from "grammy";
import type { Update } from "grammy/types";
import { TEST_BOT_INFO } from "../../tools/testing/telegram-fake.js";
import { createUpdateFactory } from "../../tools/testing/updates.js";
import { delivered, type Person, people, STARS_STEPS, stepUpdate } from "../lib/flow.js";
import { startSandboxProcess } from "../lib/sandbox.js";
import { BENCH_LIMITS, buildBotStack, LIFTED_CLIENT_QUOTA } from "../lib/stack.js";
import { percentile, round } from "../lib/stats.js";
import { createTelegramStub } from "../lib/telegram-stub.js";

export interface RunFigures {
  updates: number;
  seconds: number;
  updates_per_second: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  max_ms: number;
  /** CPU time of this process (bot, Telegram stub, driver) per update. */
  cpu_ms_per_update: number;
}

export interface UpdateCostResult {
  people: number;
  warmup_people: number;
  ours: RunFigures;
  bare: RunFigures;
  /** Ours / bare, per update (wall time). */
  ratio: number;
  service_requests: number;
  telegram_calls_per_update: number;
  bare_telegram_calls_per_update: number;
  delivered: number;
  /** Our p50 per step of the flow, to show where the time goes. */
  step_p50_ms: Record<string, number>;
}

function figures(latencies: number[], wallMs: number, cpuMicros: number): RunFigures {
  return {
    updates: latencies.length,
    seconds: round(wallMs / 1000, 3),
    updates_per_second: round(latencies.length / (wallMs / 1000), 0),
    p50_ms: round(percentile(latencies, 50), 3),
    p95_ms: round(percentile(latencies, 95), 3),
    p99_ms: round(percentile(latencies, 99), 3),
    max_ms: round(percentile(latencies, 100), 3),
    cpu_ms_per_update: round(cpuMicros / 1000 / latencies.length, 3),
  };
}

/** Feeds updates one at a time and times each handleUpdate. */
async function timed(
  handle: (update: Update) => Promise<void>,
  next: () => Update | undefined,
): Promise<{ latencies: number[]; wallMs: number; cpuMicros: number }> {
  const latencies: number[] = [];
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let update = next(); update !== undefined; update = next()) {
    const t = performance.now();
    await handle(update);
    latencies.push(performance.now() - t);
  }
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { latencies, wallMs, cpuMicros: used.user + used.system };
}

export async function runUpdateCost(options: {
  dir: string;
  people: number;
  warmupPeople: number;
}): Promise<UpdateCostResult> {
  const sandbox = await startSandboxProcess(false);
  const stub = createTelegramStub(TEST_BOT_INFO);
  const stack = buildBotStack({
    dbPath: join(options.dir, "update-cost.sqlite"),
    serviceUrl: sandbox.url,
    fetch: stub.fetch,
    clientQuota: LIFTED_CLIENT_QUOTA,
    limits: BENCH_LIMITS,
  });
  const updates = createUpdateFactory();
  try {
    // Every update ours handled, in order, for the bare bot to get the very same ones.
    const warmupLog: Update[] = [];
    const measuredLog: Update[] = [];

    /** Step by step across everyone: all starts, then all menu presses, and so on. */
    const drive = async (crowd: Person[], log: Update[]) => {
      let step = 0;
      let index = 0;
      const next = (): Update | undefined => {
        if (index === crowd.length) {
          step++;
          index = 0;
        }
        const stepName = STARS_STEPS[step];
        const person = crowd[index++];
        if (stepName === undefined || person === undefined) return undefined;
        const update = stepUpdate(stepName, person, stub, updates);
        log.push(update);
        return update;
      };
      const run = await timed((u) => stack.bot.handleUpdate(u), next);
      return { ...run, steps: crowd.length };
    };

    const warmup = people(options.warmupPeople, 5_000_000, "warm_rcpt_");
    await drive(warmup, warmupLog);
    await sandbox.clear();
    const crowd = people(options.people, 1_000_000, "gift_rcpt_");
    const callsBefore = stub.calls;
    const ours = await drive(crowd, measuredLog);
    const oursCalls = stub.calls - callsBefore;
    const deliveredCount = crowd.filter((p) => delivered(stub, p)).length;
    const serviceRequests = (await sandbox.answers()).length;
    if (deliveredCount !== crowd.length) {
      throw new Error(`only ${deliveredCount} of ${crowd.length} flows ended delivered`);
    }

    // The bare bot: same grammY, same stub, one message per update, nothing else.
    const bareStub = createTelegramStub(TEST_BOT_INFO);
    const bare = new Bot("123456:BENCH-TOKEN-never-real", {
      botInfo: TEST_BOT_INFO,
      client: { fetch: bareStub.fetch },
    });
    bare.on(["message", "callback_query"], async (ctx) => {
      await ctx.reply("ok");
    });
    const replay = (log: Update[]) => {
      let i = 0;
      return () => log[i++];
    };
    await timed((u) => bare.handleUpdate(u), replay(warmupLog));
    const bareCallsBefore = bareStub.calls;
    const bareRun = await timed((u) => bare.handleUpdate(u), replay(measuredLog));
    const bareCalls = bareStub.calls - bareCallsBefore;

    // Updates went step by step across the crowd: the i-th block of `people` is step i.
    const stepP50: Record<string, number> = {};
    STARS_STEPS.forEach((name, i) => {
      const block = ours.latencies.slice(i * ours.steps, (i + 1) * ours.steps);
      stepP50[name] = round(percentile(block, 50), 3);
    });
    const oursFigures = figures(ours.latencies, ours.wallMs, ours.cpuMicros);
    const bareFigures = figures(bareRun.latencies, bareRun.wallMs, bareRun.cpuMicros);
    return {
      people: options.people,
      warmup_people: options.warmupPeople,
      ours: oursFigures,
      bare: bareFigures,
      ratio: round(
        ours.wallMs / ours.latencies.length / (bareRun.wallMs / bareRun.latencies.length),
        1,
      ),
      service_requests: serviceRequests,
      telegram_calls_per_update: round(oursCalls / ours.latencies.length, 2),
      bare_telegram_calls_per_update: round(bareCalls / bareRun.latencies.length, 2),
      delivered: deliveredCount,
      step_p50_ms: stepP50,
    };
  } finally {
    await stack.close();
    await sandbox.close();
  }
}
