/**
 * `npm run bench`: measures what the bot costs per update, how well it spends the service's
 * quota, what parked conversations cost, and how fast the process starts; prints a table and
 * writes bench/results.json (top-level keys are the figures tracked from run to run).
 *
 * Everything runs on 127.0.0.1 in child processes and temporary files it removes. Settings:
 * BENCH_PEOPLE (500), BENCH_ROUNDS (3), BENCH_QUOTA_PEOPLE (150), BENCH_QUOTA_WINDOW_MS (2000),
 * BENCH_PARKED (10000), BENCH_RESUMES (100), BENCH_STARTUP_RUNS (3), BENCH_FLOOD_OTHERS (10),
 * BENCH_FLOOD_MESSAGES (200), BENCH_HANDOVER_RUNS (3), BENCH_GIVEAWAY_RECIPIENTS (200),
 * BENCH_GIVEAWAY_RUNS (3), BENCH_LEDGER_PURCHASES (2000), BENCH_ADMIN_APP_PURCHASES (10000).
 *
 * `npm run bench -- --only PHASE` runs one phase alone and prints its rows (results.json is left
 * as the last full run wrote it): `update-cost` (1), `handover` (6) or `giveaway` (7); phase 8
 * alone is `npm run bench:ledger`.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { formatTable, type Row } from "./lib/table.js";
import { type FloodResult, type FloodRun, runFlood } from "./phases/flood.js";
import { type GiveawayResult, runGiveaways } from "./phases/giveaway.js";
import { type HandoverResult, runHandover } from "./phases/handover.js";
import { type LedgerResult, ledgerRows, runLedger } from "./phases/ledger.js";
import { adminAppRows, runAdminApp } from "./phases/admin-app.js";
import { runMemory } from "./phases/memory.js";
import { REAL_WINDOW_MS, runQuota } from "./phases/quota.js";
import { runStartup } from "./phases/startup.js";
import { runUpdateCost, type UpdateCostResult } from "./phases/update-cost.js";

function setting(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max}`);
  }
  return value;
}

const settings = {
  people: setting("BENCH_PEOPLE", 500, 10, 100_000),
  rounds: setting("BENCH_ROUNDS", 3, 1, 20),
  quotaPeople: setting("BENCH_QUOTA_PEOPLE", 150, 10, 3000),
  quotaWindowMs: setting("BENCH_QUOTA_WINDOW_MS", 2000, 500, 60_000),
  parked: setting("BENCH_PARKED", 10_000, 10, 200_000),
  resumes: setting("BENCH_RESUMES", 100, 1, 10_000),
  startupRuns: setting("BENCH_STARTUP_RUNS", 3, 1, 20),
  floodOthers: setting("BENCH_FLOOD_OTHERS", 10, 1, 1000),
  floodMessages: setting("BENCH_FLOOD_MESSAGES", 200, 1, 10_000),
  handoverRuns: setting("BENCH_HANDOVER_RUNS", 3, 1, 20),
  giveawayRecipients: setting("BENCH_GIVEAWAY_RECIPIENTS", 200, 10, 1000),
  giveawayRuns: setting("BENCH_GIVEAWAY_RUNS", 3, 1, 20),
  ledgerPurchases: setting("BENCH_LEDGER_PURCHASES", 2000, 100, 100_000),
  adminAppPurchases: setting("BENCH_ADMIN_APP_PURCHASES", 10_000, 100, 200_000),
};

const log = (line: string) => process.stderr.write(`${line}\n`);

const alonePhases = ["update-cost", "handover", "giveaway"] as const;
type AlonePhase = (typeof alonePhases)[number];

/** `--only PHASE`: the one phase to run alone. */
function onlyPhase(args: readonly string[]): AlonePhase | undefined {
  const at = args.indexOf("--only");
  if (at === -1) return undefined;
  const phase = alonePhases.find((name) => name === args[at + 1]);
  if (phase === undefined) {
    throw new Error(
      `--only takes ${alonePhases.join(", ")} (phase 8 alone: npm run bench:ledger), not ${args[at + 1]}`,
    );
  }
  return phase;
}

const scaleNote = `window ${settings.quotaWindowMs} ms, waits scaled to ${REAL_WINDOW_MS / 1000} s`;

/** Phase 7: the worst run for the buyers, then every run's figures. */
function giveawayRows(giveaway: GiveawayResult): Row[] {
  const { worst, runs } = giveaway;
  const perRun = (pick: (run: GiveawayResult["worst"]) => string | number) =>
    runs.map(pick).join(" | ");
  return [
    {
      section: `7. Giveaway (${worst.recipients} stars gifts, 30 requests per window, ${runs.length} runs; ${scaleNote})`,
    },
    [
      "a buyer's gift, worst run: more s than alone (quota waits scaled) | all scaled",
      `${worst.buyer_extra_s}${runs.every((r) => r.buyers_delivered) ? "" : " (not all delivered)"} | ${Math.max(...runs.map((r) => r.buyer_extra_s_scaled))}`,
    ],
    ["buyers during, by run (s)", perRun((r) => r.buyer_waits_s.join(" / "))],
    ["the gift alone, by run (s)", perRun((r) => r.buyer_waits_alone_s.join(" / "))],
    [
      "buyers during | alone, all scaled, by run (s)",
      perRun(
        (r) =>
          `${r.buyer_waits_s_scaled.join(" / ")} | ${r.buyer_waits_alone_s_scaled.join(" / ")}`,
      ),
    ],
    [
      "people's requests queued for the quota, by run (s)",
      perRun((r) => r.people_quota_wait_s_scaled),
    ],
    [
      "longest event-loop stall alone | during, by run (ms, real)",
      perRun((r) => `${r.loop_stall_ms_alone} ${r.loop_stall_ms_during}`),
    ],
    [
      "delivered | 429s caused by the bot, by run",
      perRun((r) => `${r.delivered} ${r.self_caused_429}`),
    ],
    [
      "sending s (physical limit), by run",
      perRun((r) => `${r.duration_s_scaled} (${r.physical_limit_s_scaled})`),
    ],
    ["giveaway_limit_ratio, by run", perRun((r) => r.giveaway_limit_ratio)],
  ];
}

/** Phase 7 with the settings' recipients, window and runs. */
function giveawayPhase(dir: string): Promise<GiveawayResult> {
  log(
    `7/9 giveaway: ${settings.giveawayRuns} runs of ${settings.giveawayRecipients} recipients, 30 per ${settings.quotaWindowMs} ms window, buyers along the way ...`,
  );
  return runGiveaways({
    dir,
    recipients: settings.giveawayRecipients,
    windowMs: settings.quotaWindowMs,
    runs: settings.giveawayRuns,
    log,
  });
}

const spreadText = (s: { median: number; min: number; max: number }) =>
  `${s.median} (${s.min}-${s.max})`;
const stepsText = (steps: Record<string, number>) =>
  Object.entries(steps)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");

/** Node's own start-up, for scale next to the bot's. */
function nodeBaselineMs(): number {
  const t = performance.now();
  execFileSync(process.execPath, ["-e", "0"]);
  return Math.round(performance.now() - t);
}

/** One row per figure, the three runs side by side. */
function floodRows(flood: FloodResult): Row[] {
  const { alone, flooded, flooded_unlimited: unlimited } = flood.runs;
  const three = (pick: (run: FloodRun) => number | string) =>
    `${pick(alone)} | ${pick(flooded)} | ${pick(unlimited)}`;
  return [
    ["runs: alone | flooded | flooded, limits lifted", ""],
    ["others' flow to purchase p50 s", three((r) => r.others_flow_p50_s)],
    ["others' flow to purchase p99 s", three((r) => r.others_flow_p99_s)],
    [
      "others' recipient check p50 / p99 s",
      three((r) => `${r.others_check_p50_s} / ${r.others_check_p99_s}`),
    ],
    ["others' purchases delivered", three((r) => r.others_delivered)],
    ["service requests the flooder caused", three((r) => r.flooder_requests)],
    ['"slow down" answers to the flooder', three((r) => r.flooder_told_slow_down)],
    [
      "service requests in all | 429s",
      three((r) => `${r.service_requests} | ${r.self_caused_429}`),
    ],
  ];
}

/**
 * The ledger's figures tracked from run to run: claims and outcomes per second on SQLite (the
 * temporary folder's file) and PostgreSQL (one pool), and purchases per second with two pools
 * claiming each at once; null for PostgreSQL when it was skipped.
 */
function ledgerFigures(ledger: LedgerResult) {
  const sqlite = ledger.stores[0];
  const postgres = ledger.stores.find((store) => store.store.startsWith("PostgreSQL"));
  return {
    ledger_claims_per_second_sqlite: sqlite?.claim.per_second ?? null,
    ledger_claims_per_second_postgres: postgres?.claim.per_second ?? null,
    ledger_outcomes_per_second_sqlite: sqlite?.outcome.per_second ?? null,
    ledger_outcomes_per_second_postgres: postgres?.outcome.per_second ?? null,
    ledger_purchases_per_second_postgres_two_pools:
      ledger.postgres_replicas?.purchases_per_second ?? null,
  };
}

/** Phase 1 with the settings' people and rounds. */
function updateCostPhase(dir: string): Promise<UpdateCostResult> {
  log(
    `1/9 update cost: ${settings.rounds} rounds of ${settings.people} people through ours, the peer and the bare bot ...`,
  );
  return runUpdateCost({
    dir,
    people: settings.people,
    rounds: settings.rounds,
    warmupPeople: 100,
  });
}

/** Phase 6 with the settings' runs. */
function handoverPhase(dir: string): Promise<HandoverResult> {
  log(`6/9 handover: ${settings.handoverRuns} rolling deploys (SIGTERM to the lease holder) ...`);
  return runHandover({ dir, runs: settings.handoverRuns });
}

/** Phase 1: ours, the peer and the bare bot side by side. */
function updateCostRows(cost: UpdateCostResult): Row[] {
  return [
    {
      section: `1. Update cost (${cost.rounds} interleaved rounds of ${cost.people} people x 5 updates, one at a time)`,
    },
    [
      "updates/s: ours | peer | bare grammY",
      `${cost.ours.updates_per_second} | ${cost.peer.updates_per_second} | ${cost.bare.updates_per_second}`,
    ],
    ["p50 / p95 / p99 ms: ours", `${cost.ours.p50_ms} / ${cost.ours.p95_ms} / ${cost.ours.p99_ms}`],
    ["p50 / p95 / p99 ms: peer", `${cost.peer.p50_ms} / ${cost.peer.p95_ms} / ${cost.peer.p99_ms}`],
    ["p50 / p95 / p99 ms: bare", `${cost.bare.p50_ms} / ${cost.bare.p95_ms} / ${cost.bare.p99_ms}`],
    [
      "CPU ms per update: ours | peer | bare",
      `${cost.ours.cpu_ms_per_update} | ${cost.peer.cpu_ms_per_update} | ${cost.bare.cpu_ms_per_update}`,
    ],
    ["ours / peer by CPU: median (min-max)", spreadText(cost.peer_ratio_cpu)],
    ["ours / peer by wall time: median (min-max)", spreadText(cost.peer_ratio_wall)],
    ["ours / bare: wall | CPU", `${cost.ratio} | ${cost.ratio_cpu}`],
    ["p50 ms by step: ours", stepsText(cost.step_p50_ms)],
    ["p50 ms by step: peer", stepsText(cost.peer_step_p50_ms)],
    [
      "Telegram calls per update: ours | peer | bare",
      `${cost.telegram_calls_per_update} | ${cost.peer_telegram_calls_per_update} | ${cost.bare_telegram_calls_per_update}`,
    ],
    [
      "service requests per flow: ours | peer",
      `${cost.service_requests_per_flow} | ${cost.peer_service_requests_per_flow}`,
    ],
  ];
}

/** Phase 6: the median handover and every run's. */
function handoverRows(handover: HandoverResult): Row[] {
  return [
    { section: "6. Handover (old holder's exit to the standby's first getUpdates)" },
    [
      "handover s: median (runs)",
      handover.handover_s === null
        ? `none: ${handover.note ?? "?"}`
        : `${handover.handover_s} (${handover.runs_s.join(", ")})`,
    ],
  ];
}

/** Every phase, the table, and bench/results.json. */
async function fullBench(dir: string, started: number): Promise<void> {
  const cost = await updateCostPhase(dir);
  log(`2/9 quota: ${settings.quotaPeople} people, 30 per ${settings.quotaWindowMs} ms window ...`);
  const quota = await runQuota({
    dir,
    people: settings.quotaPeople,
    windowMs: settings.quotaWindowMs,
  });
  log(`3/9 memory: ${settings.parked} conversations parked, then resumed in a new process ...`);
  const memory = await runMemory({ dir, count: settings.parked, resumes: settings.resumes });
  log(`4/9 start-up: ${settings.startupRuns} runs of node dist/src/main.js ...`);
  const startup = await runStartup({ dir, runs: settings.startupRuns });
  log(
    `5/9 flood: ${settings.floodOthers} people's flows beside one person sending ${settings.floodMessages} usernames ...`,
  );
  const flood = await runFlood({
    dir,
    others: settings.floodOthers,
    floodMessages: settings.floodMessages,
    windowMs: settings.quotaWindowMs,
  });
  const handover = await handoverPhase(dir);
  const giveaway = await giveawayPhase(dir);
  log(
    `8/9 ledger: ${settings.ledgerPurchases} purchases on SQLite and PostgreSQL (one pool, then two at once) ...`,
  );
  const ledger = await runLedger({ purchases: settings.ledgerPurchases });
  log(
    `9/9 admin app: ${settings.adminAppPurchases} purchases, the built bot's Mini App in Chromium ...`,
  );
  const adminApp = await runAdminApp({ purchases: settings.adminAppPurchases });
  const nodeMs = nodeBaselineMs();

  const results = {
    updates_per_second: cost.ours.updates_per_second,
    update_p50_ms: cost.ours.p50_ms,
    update_p95_ms: cost.ours.p95_ms,
    update_p99_ms: cost.ours.p99_ms,
    update_cpu_ms: cost.ours.cpu_ms_per_update,
    bare_updates_per_second: cost.bare.updates_per_second,
    bare_update_p50_ms: cost.bare.p50_ms,
    bare_update_p95_ms: cost.bare.p95_ms,
    bare_update_p99_ms: cost.bare.p99_ms,
    bare_update_cpu_ms: cost.bare.cpu_ms_per_update,
    update_cost_ratio: cost.ratio,
    update_cost_ratio_cpu: cost.ratio_cpu,
    peer_cost_ratio_cpu: cost.peer_ratio_cpu.median,
    peer_cost_ratio_wall: cost.peer_ratio_wall.median,
    peer_update_cpu_ms: cost.peer.cpu_ms_per_update,
    requests_per_purchase: quota.requests_per_purchase,
    self_caused_429: quota.self_caused_429,
    quota_used_share: quota.quota_used_share,
    recipient_wait_p50_s: quota.recipient_wait_p50_s,
    recipient_wait_p99_s: quota.recipient_wait_p99_s,
    summary_wait_p50_s: quota.summary_wait_p50_s,
    summary_wait_p99_s: quota.summary_wait_p99_s,
    purchase_wait_p50_s: quota.purchase_wait_p50_s,
    purchase_wait_p99_s: quota.purchase_wait_p99_s,
    rss_mb_10k_parked: memory.rss_mb_10k_parked,
    rss_mb_before_parking: memory.rss_mb_before,
    rss_mb_second_round: memory.rss_mb_second_round,
    rss_kb_per_parked: memory.rss_kb_per_parked,
    heap_mb_10k_recipients: memory.heap_mb_recipients,
    heap_mb_30k_recipients: memory.heap_mb_3x_recipients,
    rss_mb_resume_process: memory.rss_mb_resume_process,
    heap_mb_10k_parked: memory.heap_used_mb_parked,
    db_mb_10k_parked: memory.db_mb_10k_parked,
    db_bytes_per_parked: memory.db_bytes_per_conversation,
    resume_ms: memory.resume_ms,
    resume_warm_p50_ms: memory.resume_warm_p50_ms,
    resume_warm_p99_ms: memory.resume_warm_p99_ms,
    startup_ms: startup.startup_ms,
    startup_first_ms: startup.startup_first_ms,
    npm_start_ms: startup.npm_start_ms,
    node_baseline_ms: nodeMs,
    flood_others_flow_p50_s: flood.runs.flooded.others_flow_p50_s,
    flood_others_flow_p99_s: flood.runs.flooded.others_flow_p99_s,
    alone_others_flow_p50_s: flood.runs.alone.others_flow_p50_s,
    alone_others_flow_p99_s: flood.runs.alone.others_flow_p99_s,
    flooder_requests: flood.runs.flooded.flooder_requests,
    handover_s: handover.handover_s,
    giveaway_limit_ratio: giveaway.worst.giveaway_limit_ratio,
    giveaway_limit_ratio_max: Math.max(...giveaway.runs.map((r) => r.giveaway_limit_ratio)),
    giveaway_buyer_wait_s: Math.max(...giveaway.worst.buyer_waits_s),
    giveaway_buyer_wait_alone_s: Math.max(...giveaway.worst.buyer_waits_alone_s),
    giveaway_buyer_extra_s: giveaway.worst.buyer_extra_s,
    giveaway_buyer_extra_s_all_scaled: Math.max(
      ...giveaway.runs.map((r) => r.buyer_extra_s_scaled),
    ),
    giveaway_people_quota_wait_s: Math.max(
      ...giveaway.runs.map((r) => r.people_quota_wait_s_scaled),
    ),
    ...ledgerFigures(ledger),
    admin_app_purchases: adminApp.purchases,
    admin_app_first_screen_s: adminApp.first_screen_s,
    admin_api_p95_ms: adminApp.api_p95_ms,
    details: {
      ...{ update_cost: cost, quota, memory, startup, flood, handover, giveaway, ledger },
      admin_app: adminApp,
    },
    settings,
    machine: { node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model ?? "unknown" },
    bench_seconds: Math.round((performance.now() - started) / 1000),
    measured_at: new Date().toISOString(),
  };

  const rows: Row[] = [
    ...updateCostRows(cost),
    { section: `2. Quota (30 requests per window; ${scaleNote})` },
    ["people / demand", `${quota.people} at once / ${quota.demand_multiple}x one window's quota`],
    ["purchases delivered", `${quota.purchases_delivered}`],
    [
      "service requests per purchase",
      `${quota.requests_per_purchase} (${Object.entries(quota.by_path)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")})`,
    ],
    ["balance reads after purchases began", `${quota.balance_reads_after_purchases_began}`],
    ["429s caused by the bot", `${quota.self_caused_429}`],
    ["quota used while people waited", `${Math.round(quota.quota_used_share * 100)}%`],
    [
      "recipient check wait p50 / p99 s",
      `${quota.recipient_wait_p50_s} / ${quota.recipient_wait_p99_s}`,
    ],
    [
      "summary (balance) wait p50 / p99 s",
      `${quota.summary_wait_p50_s} / ${quota.summary_wait_p99_s}`,
    ],
    ["purchase wait p50 / p99 s", `${quota.purchase_wait_p50_s} / ${quota.purchase_wait_p99_s}`],
    [
      "last purchase: actual | fastest possible s",
      `${quota.last_purchase_s} | ${quota.ideal_last_purchase_s}`,
    ],
    { section: `3. Memory (${memory.conversations} conversations parked at the amount step)` },
    [
      "RSS MB before | parked | second round parked (after GC)",
      `${memory.rss_mb_before} | ${memory.rss_mb_10k_parked} | ${memory.rss_mb_second_round}`,
    ],
    ["RSS growth per flow of the second round", `${memory.rss_kb_per_parked} KB`],
    [
      "JS heap MB (after GC) before | parked | second round",
      `${memory.memory_mb_before.heapUsed} | ${memory.heap_used_mb_parked} | ${memory.heap_used_mb_second_round}`,
    ],
    [
      `JS heap MB after ${memory.conversations} | ${3 * memory.conversations} distinct recipients`,
      `${memory.heap_mb_recipients} | ${memory.heap_mb_3x_recipients}`,
    ],
    ["RSS of the fresh resuming process MB", `${memory.rss_mb_resume_process}`],
    [
      "database MB (bytes per parked flow)",
      `${memory.db_mb_10k_parked} (${memory.db_bytes_per_conversation})`,
    ],
    ["resume in a fresh process, first (ms)", `${memory.resume_ms}`],
    [
      `resume, next ${memory.resumed - 1}: p50 / p99 ms`,
      `${memory.resume_warm_p50_ms} / ${memory.resume_warm_p99_ms}`,
    ],
    { section: "4. Start-up (spawn to first getUpdates at the emulator)" },
    [
      "median ms (runs)",
      startup.startup_ms === null
        ? `n/a: ${startup.note ?? "no figure"}`
        : `${startup.startup_ms} (${startup.runs_ms.join(", ")})`,
    ],
    ["npm start on a built checkout, ms", `${startup.npm_start_ms ?? "n/a"}`],
    ["node -e 0 for scale, ms", `${nodeMs}`],
    {
      section: `5. Flood (${flood.others} people's flows, one person sending ${flood.flood_messages} usernames; ${scaleNote})`,
    },
    ...floodRows(flood),
    ...handoverRows(handover),
    ...giveawayRows(giveaway),
    ...ledgerRows(ledger),
    ...adminAppRows(adminApp),
  ];
  process.stdout.write(`${formatTable(rows)}\n`);
  const out = fileURLToPath(new URL("./results.json", import.meta.url));
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  log(`wrote ${out} in ${results.bench_seconds} s`);
}

/** One phase run alone, as its rows of the full table. */
async function alonePhaseRows(phase: AlonePhase, dir: string): Promise<Row[]> {
  if (phase === "update-cost") return updateCostRows(await updateCostPhase(dir));
  if (phase === "handover") return handoverRows(await handoverPhase(dir));
  return giveawayRows(await giveawayPhase(dir));
}

const dir = mkdtempSync(join(tmpdir(), "giftbot-bench-"));
const started = performance.now();
try {
  const only = onlyPhase(process.argv.slice(2));
  if (only === undefined) await fullBench(dir, started);
  else {
    process.stdout.write(`${formatTable(await alonePhaseRows(only, dir))}\n`);
    log(`${only} alone in ${Math.round((performance.now() - started) / 1000)} s`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
