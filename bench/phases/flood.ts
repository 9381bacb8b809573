/**
 * 5. Fair share under a flood: `others` people (default 10) each go through a whole stars flow
 * while one person sends `floodMessages` (default 200) distinct usernames as fast as the bot
 * takes them. The flooder's names do not exist ("nobody_..."), so the flooder stays at the
 * recipient step and every name is a recipient check: the worst case for the quota.
 *
 * Three runs (after one warm-up run that is not reported), each on a fresh sandbox process (30 requests per window, the window shortened as
 * in the quota phase) and a fresh bot:
 * - `alone`: the others without the flooder;
 * - `flooded`: the others with the flooder, the fair-share settings at their defaults;
 * - `flooded_unlimited`: the same, per-person limits lifted, to show what they prevent.
 *
 * The per-person check allowance (a minute) is shortened by the window's factor, so the
 * flooder's share of a window is what it would be in production. The update rate limit is not:
 * it is about how fast a person types, not about the service's window. Waits are scaled back
 * to a 60-second window.
 */
import { join } from "node:path";
import type { FairShareConfig } from "../../src/config/index.js";
import { FAIR_SHARE_DEFAULTS } from "../../src/config/index.js";
import { TEST_BOT_INFO } from "../../tools/testing/telegram-fake.js";
import { createUpdateFactory, testUser } from "../../tools/testing/updates.js";
import { delivered, type Person, people, type StarsStep, stepUpdate } from "../lib/flow.js";
import { startSandboxProcess } from "../lib/sandbox.js";
import { BENCH_LIMITS, buildBotStack } from "../lib/stack.js";
import { percentile, round } from "../lib/stats.js";
import { createTelegramStub } from "../lib/telegram-stub.js";
import { QUOTA_LIMIT, REAL_WINDOW_MS } from "./quota.js";

const FLOODER_ID = 3_900_000;
const FLOOD_PREFIX = "nobody_flood_";
/** The desk's cache times (src/purchases), scaled with the window as in the quota phase. */
const RECIPIENT_CACHE_MS = 60_000;
const BALANCE_CACHE_MS = 15_000;
/** The check allowance's own window: a minute. */
const CHECK_WINDOW_MS = 60_000;

type FloodScenario = "alone" | "flooded" | "flooded_unlimited";

export interface FloodRun {
  /** From each other person's first update to their delivered purchase, scaled. */
  others_flow_p50_s: number;
  others_flow_p99_s: number;
  /** The recipient step alone (the service check), scaled. */
  others_check_p50_s: number;
  others_check_p99_s: number;
  others_delivered: number;
  /** Recipient checks the flooder's names caused at the service. */
  flooder_requests: number;
  /** "Slow down" answers the flooder got (too many checks, or too many messages). */
  flooder_told_slow_down: number;
  service_requests: number;
  self_caused_429: number;
}

export interface FloodResult {
  window_ms: number;
  others: number;
  flood_messages: number;
  checks_per_user_minute: number;
  runs: Record<FloodScenario, FloodRun>;
}

const UNLIMITED: Partial<FairShareConfig> = {
  checksPerUserMinute: 1_000,
  updatesPerUser: 10_000,
};

export async function runFlood(options: {
  dir: string;
  others: number;
  floodMessages: number;
  windowMs: number;
}): Promise<FloodResult> {
  // A first run pays for cold code paths (module loading, JIT, the first SQLite file), which
  // the short window would scale thirtyfold: it is run once and not reported.
  await runScenario("alone", options, "warmup");
  const runs = {} as Record<FloodScenario, FloodRun>;
  for (const scenario of ["alone", "flooded", "flooded_unlimited"] as const) {
    runs[scenario] = await runScenario(scenario, options);
  }
  return {
    window_ms: options.windowMs,
    others: options.others,
    flood_messages: options.floodMessages,
    checks_per_user_minute: FAIR_SHARE_DEFAULTS.checksPerUserMinute,
    runs,
  };
}

async function runScenario(
  scenario: FloodScenario,
  options: { dir: string; others: number; floodMessages: number; windowMs: number },
  label: string = scenario,
): Promise<FloodRun> {
  const { windowMs } = options;
  const scale = windowMs / REAL_WINDOW_MS;
  const toRealSeconds = (ms: number) => round(ms / scale / 1000, 1);
  const sandbox = await startSandboxProcess({ limit: QUOTA_LIMIT, windowMs });
  const stub = createTelegramStub(TEST_BOT_INFO);
  const slowDowns = { count: 0 };
  stub.onCall = (method, chatId, text) => {
    if (chatId !== FLOODER_ID && method !== "answerCallbackQuery") return;
    if (text !== undefined && /slow down|помедленнее/i.test(text)) slowDowns.count++;
  };
  const stack = await buildBotStack({
    dbPath: join(options.dir, `flood-${label}.sqlite`),
    serviceUrl: sandbox.url,
    fetch: stub.fetch,
    clientQuota: { limit: QUOTA_LIMIT, windowMs },
    limits: BENCH_LIMITS,
    recipientCacheMs: Math.round(RECIPIENT_CACHE_MS * scale),
    balanceCacheMs: Math.round(BALANCE_CACHE_MS * scale),
    checkWindowMs: Math.round(CHECK_WINDOW_MS * scale),
    ...(scenario === "flooded_unlimited" ? { fairShare: UNLIMITED } : {}),
  });
  const updates = createUpdateFactory();
  const send = (step: StarsStep, person: Person) =>
    stack.bot.handleUpdate(stepUpdate(step, person, stub, updates));
  try {
    const crowd = people(options.others, 3_000_000, `flood_other_${label}_`);
    const flood = scenario === "alone" ? Promise.resolve() : startFlood();
    const flows: number[] = [];
    const checks: number[] = [];
    await Promise.all(
      crowd.map(async (person) => {
        const t0 = performance.now();
        await send("start", person);
        await send("menu", person);
        const t1 = performance.now();
        await send("recipient", person);
        checks.push(performance.now() - t1);
        await send("amount", person);
        await send("confirm", person);
        flows.push(performance.now() - t0);
      }),
    );
    await flood;
    const answers = await sandbox.answers();
    const usernames = await sandbox.usernames();
    const flooderRequests = usernames.filter((name) => name.startsWith(FLOOD_PREFIX)).length;
    return {
      others_flow_p50_s: toRealSeconds(percentile(flows, 50)),
      others_flow_p99_s: toRealSeconds(percentile(flows, 99)),
      others_check_p50_s: toRealSeconds(percentile(checks, 50)),
      others_check_p99_s: toRealSeconds(percentile(checks, 99)),
      others_delivered: crowd.filter((p) => delivered(stub, p)).length,
      flooder_requests: flooderRequests,
      flooder_told_slow_down: slowDowns.count,
      service_requests: answers.length,
      self_caused_429: answers.filter((a) => a.status === "429").length,
    };
  } finally {
    await stack.close();
    await sandbox.close();
  }

  /** The flooder's /start and "Gift stars", then every name at once (the bot orders them). */
  async function startFlood(): Promise<void> {
    const flooder: Person = { user: testUser(FLOODER_ID), recipient: `${FLOOD_PREFIX}0` };
    await send("start", flooder);
    await send("menu", flooder);
    await Promise.all(
      Array.from({ length: options.floodMessages }, (_, i) =>
        stack.bot.handleUpdate(updates.text(flooder.user, `@${FLOOD_PREFIX}${i}`)),
      ),
    );
  }
}
