/**
 * 2. Quota use: the service's real quota shape (30 requests per window, in the sandbox and the
 * client alike) with ten times that demand. `people` people (default 150, each needing a
 * recipient check and a purchase: 300 requests) all start at once with distinct recipients and
 * go to the summary; then all of them press Confirm at the same moment.
 *
 * The window is shortened (default 2,000 ms instead of 60,000) so the run fits the time budget;
 * the desk's cache times are shortened by the same factor so that caching is neither helped nor
 * hurt by the short window, and every wait is scaled back to a 60-second window in the report.
 */
import { join } from "node:path";
import { TEST_BOT_INFO } from "../../tools/testing/telegram-fake.js";
import { createUpdateFactory } from "../../tools/testing/updates.js";
import { delivered, type Person, people, type StarsStep, stepUpdate } from "../lib/flow.js";
import { startSandboxProcess } from "../lib/sandbox.js";
import { buildBotStack } from "../lib/stack.js";
import { percentile, round } from "../lib/stats.js";
import { createTelegramStub } from "../lib/telegram-stub.js";

export const REAL_WINDOW_MS = 60_000;
export const QUOTA_LIMIT = 30;
/** The desk's defaults (src/purchases/desk.ts), scaled with the window. */
const RECIPIENT_CACHE_MS = 60_000;
const BALANCE_CACHE_MS = 15_000;

export interface QuotaResult {
  window_ms: number;
  limit: number;
  people: number;
  /** Requests the people needed at once, as a multiple of one window's quota. */
  demand_multiple: number;
  service_requests: number;
  by_path: Record<string, number>;
  purchases_delivered: number;
  requests_per_purchase: number;
  /**
   * Balance reads answered after the first purchase's answer: the desk's own "balance after
   * purchase" reads (made only when the quota is idle) and summaries' reads made meanwhile.
   */
  balance_reads_after_purchases_began: number;
  self_caused_429: number;
  other_errors: number;
  /**
   * The rate requests were served at while people waited, as a share of the quota's rate:
   * requests served in [first, last) / (limit * (last - first) / window). A sliding window
   * admits at most `limit` per window, so 1.0 is the ceiling.
   */
  quota_used_share: number;
  demand_seconds_scaled: number;
  /** Waits scaled to a 60 s window. */
  recipient_wait_p50_s: number;
  recipient_wait_p99_s: number;
  summary_wait_p50_s: number;
  summary_wait_p99_s: number;
  purchase_wait_p50_s: number;
  purchase_wait_p99_s: number;
  /** The fastest possible: the last purchase cannot go before ceil(requests/limit)-1 windows. */
  ideal_last_purchase_s: number;
  last_purchase_s: number;
}

export async function runQuota(options: {
  dir: string;
  people: number;
  windowMs: number;
}): Promise<QuotaResult> {
  const { windowMs } = options;
  const scale = windowMs / REAL_WINDOW_MS;
  const toRealSeconds = (ms: number) => round(ms / scale / 1000, 1);
  const sandbox = await startSandboxProcess({ limit: QUOTA_LIMIT, windowMs });
  const stub = createTelegramStub(TEST_BOT_INFO);
  const stack = await buildBotStack({
    dbPath: join(options.dir, "quota.sqlite"),
    serviceUrl: sandbox.url,
    fetch: stub.fetch,
    clientQuota: { limit: QUOTA_LIMIT, windowMs },
    recipientCacheMs: Math.round(RECIPIENT_CACHE_MS * scale),
    balanceCacheMs: Math.round(BALANCE_CACHE_MS * scale),
  });
  const updates = createUpdateFactory();
  const send = async (step: StarsStep, person: Person): Promise<number> => {
    const update = stepUpdate(step, person, stub, updates);
    const t = performance.now();
    await stack.bot.handleUpdate(update);
    return performance.now() - t;
  };
  try {
    const crowd = people(options.people, 2_000_000, "quota_rcpt_");
    const started = Date.now();
    const recipientWaits: number[] = [];
    const summaryWaits: number[] = [];
    await Promise.all(
      crowd.map(async (person) => {
        await send("start", person);
        await send("menu", person);
        recipientWaits.push(await send("recipient", person));
        summaryWaits.push(await send("amount", person));
      }),
    );
    const purchaseWaits = await Promise.all(crowd.map((person) => send("confirm", person)));
    const done = crowd.filter((p) => delivered(stub, p)).length;

    const answers = await sandbox.answers();
    const byPath: Record<string, number> = {};
    for (const a of answers) byPath[a.path] = (byPath[a.path] ?? 0) + 1;
    const served = answers.filter((a) => a.status !== "429");
    const tooMany = answers.length - served.length;
    const otherErrors = served.filter((a) => !a.status.startsWith("2")).length;
    const purchases = answers.filter((a) => a.path.startsWith("/buy-"));
    const first = answers[0]?.at ?? started;
    const last = answers.at(-1)?.at ?? started;
    // A sliding window admits at most `limit` requests per window: in [first, last) at most
    // limit * (last - first) / window (exact for whole windows).
    const capacity = QUOTA_LIMIT * ((last - first) / windowMs);
    const servedBeforeLast = served.filter((a) => a.at < last).length;
    const lastPurchase = (purchases.at(-1)?.at ?? started) - started;
    const firstPurchaseAt = purchases[0]?.at ?? Number.POSITIVE_INFINITY;
    const balanceReadsLate = answers.filter(
      (a) => a.path === "/wallet-balance/" && a.at > firstPurchaseAt,
    ).length;
    return {
      window_ms: windowMs,
      limit: QUOTA_LIMIT,
      people: options.people,
      demand_multiple: round((options.people * 2) / QUOTA_LIMIT, 1),
      service_requests: answers.length,
      by_path: byPath,
      purchases_delivered: done,
      requests_per_purchase: round(answers.length / Math.max(1, done), 3),
      balance_reads_after_purchases_began: balanceReadsLate,
      self_caused_429: tooMany,
      other_errors: otherErrors,
      quota_used_share: round(capacity > 0 ? servedBeforeLast / capacity : Number.NaN, 3),
      demand_seconds_scaled: toRealSeconds(last - first),
      recipient_wait_p50_s: toRealSeconds(percentile(recipientWaits, 50)),
      recipient_wait_p99_s: toRealSeconds(percentile(recipientWaits, 99)),
      summary_wait_p50_s: toRealSeconds(percentile(summaryWaits, 50)),
      summary_wait_p99_s: toRealSeconds(percentile(summaryWaits, 99)),
      purchase_wait_p50_s: toRealSeconds(percentile(purchaseWaits, 50)),
      purchase_wait_p99_s: toRealSeconds(percentile(purchaseWaits, 99)),
      ideal_last_purchase_s: toRealSeconds(
        (Math.ceil(answers.length / QUOTA_LIMIT) - 1) * windowMs,
      ),
      last_purchase_s: toRealSeconds(lastPurchase),
    };
  } finally {
    await stack.close();
    await sandbox.close();
  }
}
