/**
 * 1. Update cost: N people each run a complete stars flow (5 updates), one update at a time,
 * step by step across everyone (so N conversations are stored at once, as in real use), through
 * three bots in the same process:
 * - ours: the real bot (bench/lib/stack.ts);
 * - the peer: a minimal grammY + conversations v2 bot doing the same flow (bench/lib/peer.ts);
 * - bare: grammY answering every update with one message (the same updates ours got).
 * Rounds are interleaved (ours and the peer swap who goes first each round; bare replays ours's
 * updates after both), with fresh people and recipients each round, so drift of the machine
 * (other load, thermal state) lands on both sides. Each bot gets a warm-up first.
 *
 * The sandbox runs in another process with zero latency and no quota, so each service call costs
 * one loopback HTTP round trip; the client's quota is lifted accordingly.
 */
import { join } from "node:path";
import { Bot } from "grammy";
import type { Update } from "grammy/types";
import { TEST_BOT_INFO } from "../../tools/testing/telegram-fake.js";
import { createUpdateFactory, type UpdateFactory } from "../../tools/testing/updates.js";
import { delivered, type Person, people, STARS_STEPS, stepUpdate } from "../lib/flow.js";
import { createPeerBot } from "../lib/peer.js";
import { type BenchSandbox, startSandboxProcess } from "../lib/sandbox.js";
import {
  BENCH_CREDENTIALS,
  BENCH_LIMITS,
  buildBotStack,
  LIFTED_CLIENT_QUOTA,
} from "../lib/stack.js";
import { mean, percentile, round } from "../lib/stats.js";
import { createTelegramStub, type TelegramStub } from "../lib/telegram-stub.js";

interface RunFigures {
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

/** A median with the lowest and highest of the rounds. */
interface Spread {
  median: number;
  min: number;
  max: number;
  rounds: number[];
}

export interface UpdateCostResult {
  people: number;
  rounds: number;
  warmup_people: number;
  ours: RunFigures;
  peer: RunFigures;
  bare: RunFigures;
  /** Ours / bare, per update (wall time), all rounds together. */
  ratio: number;
  /** Ours / bare by CPU time, all rounds together. */
  ratio_cpu: number;
  /** Ours / peer per round. */
  peer_ratio_wall: Spread;
  peer_ratio_cpu: Spread;
  service_requests_per_flow: number;
  peer_service_requests_per_flow: number;
  telegram_calls_per_update: number;
  peer_telegram_calls_per_update: number;
  bare_telegram_calls_per_update: number;
  delivered: number;
  /** Our p50 per step of the flow, to show where the time goes. */
  step_p50_ms: Record<string, number>;
  peer_step_p50_ms: Record<string, number>;
}

interface Run {
  latencies: number[];
  wallMs: number;
  cpuMicros: number;
  calls: number;
  serviceRequests: number;
}

function figures(runs: readonly Run[]): RunFigures {
  const latencies = runs.flatMap((r) => r.latencies);
  const wallMs = runs.reduce((s, r) => s + r.wallMs, 0);
  const cpuMicros = runs.reduce((s, r) => s + r.cpuMicros, 0);
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

function spread(values: number[]): Spread {
  return {
    median: round(percentile(values, 50), 2),
    min: round(Math.min(...values), 2),
    max: round(Math.max(...values), 2),
    rounds: values.map((v) => round(v, 2)),
  };
}

/** Feeds updates one at a time and times each handleUpdate. */
async function timed(
  handle: (update: Update) => Promise<void>,
  next: () => Update | undefined,
): Promise<Omit<Run, "calls" | "serviceRequests">> {
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

/** A bot under test with its own Telegram stub. */
interface Subject {
  handle: (update: Update) => Promise<void>;
  stub: TelegramStub;
}

/**
 * Runs a crowd through a bot, step by step across everyone (all starts, then all menu presses,
 * and so on); every update is built from what the bot shows and appended to `log`.
 */
async function drive(
  subject: Subject,
  crowd: Person[],
  updates: UpdateFactory,
  sandbox: BenchSandbox,
  log: Update[] = [],
): Promise<Run> {
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
    const update = stepUpdate(stepName, person, subject.stub, updates);
    log.push(update);
    return update;
  };
  await sandbox.clear();
  const callsBefore = subject.stub.calls;
  const run = await timed(subject.handle, next);
  const serviceRequests = (await sandbox.answers()).length;
  const notDelivered = crowd.filter((p) => !delivered(subject.stub, p));
  if (notDelivered.length > 0) {
    const first = notDelivered[0]?.user.id ?? 0;
    throw new Error(
      `${notDelivered.length} of ${crowd.length} flows did not end delivered; chat ${first} last saw ${JSON.stringify(subject.stub.lastText(first))}`,
    );
  }
  return { ...run, calls: subject.stub.calls - callsBefore, serviceRequests };
}

/** Replays a log of updates (the bare bot gets exactly what ours got). */
async function replay(subject: Subject, log: readonly Update[]): Promise<Run> {
  let i = 0;
  const callsBefore = subject.stub.calls;
  const run = await timed(subject.handle, () => log[i++]);
  return { ...run, calls: subject.stub.calls - callsBefore, serviceRequests: 0 };
}

function stepP50(runs: readonly Run[], perStep: number): Record<string, number> {
  const result: Record<string, number> = {};
  STARS_STEPS.forEach((name, i) => {
    const block = runs.flatMap((r) => r.latencies.slice(i * perStep, (i + 1) * perStep));
    result[name] = round(percentile(block, 50), 3);
  });
  return result;
}

const perUpdate = (runs: readonly Run[], of: (r: Run) => number) =>
  runs.reduce((s, r) => s + of(r), 0) / runs.reduce((s, r) => s + r.latencies.length, 0);

export async function runUpdateCost(options: {
  dir: string;
  people: number;
  rounds: number;
  warmupPeople: number;
}): Promise<UpdateCostResult> {
  const sandbox = await startSandboxProcess(false);
  const oursStub = createTelegramStub(TEST_BOT_INFO);
  const stack = await buildBotStack({
    dbPath: join(options.dir, "update-cost.sqlite"),
    serviceUrl: sandbox.url,
    fetch: oursStub.fetch,
    clientQuota: LIFTED_CLIENT_QUOTA,
    limits: BENCH_LIMITS,
  });
  const peerStub = createTelegramStub(TEST_BOT_INFO);
  const peer = createPeerBot({
    dbPath: join(options.dir, "peer.sqlite"),
    serviceUrl: sandbox.url,
    fetch: peerStub.fetch,
    botInfo: TEST_BOT_INFO,
    credentials: BENCH_CREDENTIALS,
  });
  // The bare bot: same grammY, its own stub, one message per update, nothing else.
  const bareStub = createTelegramStub(TEST_BOT_INFO);
  const bare = new Bot("123456:BENCH-TOKEN-never-real", {
    botInfo: TEST_BOT_INFO,
    client: { fetch: bareStub.fetch },
  });
  bare.on(["message", "callback_query"], async (ctx) => {
    await ctx.reply("ok");
  });
  const subjects = {
    ours: { handle: (u: Update) => stack.bot.handleUpdate(u), stub: oursStub },
    peer: { handle: (u: Update) => peer.bot.handleUpdate(u), stub: peerStub },
    bare: { handle: (u: Update) => bare.handleUpdate(u), stub: bareStub },
  };
  const oursUpdates = createUpdateFactory();
  const peerUpdates = createUpdateFactory();
  try {
    const warmLog: Update[] = [];
    const warmup = (prefix: string) => people(options.warmupPeople, 5_000_000, prefix);
    await drive(subjects.ours, warmup("warm_rcpt_"), oursUpdates, sandbox, warmLog);
    await drive(subjects.peer, warmup("warm_rcpt_"), peerUpdates, sandbox);
    await replay(subjects.bare, warmLog);

    const ours: Run[] = [];
    const peers: Run[] = [];
    const bares: Run[] = [];
    for (let r = 0; r < options.rounds; r++) {
      // Fresh people and recipients each round: no cached recipient check carries over.
      const crowd = () => people(options.people, 1_000_000 + r * options.people, `r${r}_rcpt_`);
      const log: Update[] = [];
      const runOurs = async () =>
        ours.push(await drive(subjects.ours, crowd(), oursUpdates, sandbox, log));
      const runPeer = async () =>
        peers.push(await drive(subjects.peer, crowd(), peerUpdates, sandbox));
      if (r % 2 === 0) {
        await runOurs();
        await runPeer();
      } else {
        await runPeer();
        await runOurs();
      }
      bares.push(await replay(subjects.bare, log));
    }

    const cpuRatios = ours.map((o, i) => o.cpuMicros / (peers[i]?.cpuMicros ?? Number.NaN));
    const wallRatios = ours.map((o, i) => o.wallMs / (peers[i]?.wallMs ?? Number.NaN));
    const oursFigures = figures(ours);
    const bareFigures = figures(bares);
    return {
      people: options.people,
      rounds: options.rounds,
      warmup_people: options.warmupPeople,
      ours: oursFigures,
      peer: figures(peers),
      bare: bareFigures,
      ratio: round(perUpdate(ours, (r) => r.wallMs) / perUpdate(bares, (r) => r.wallMs), 1),
      ratio_cpu: round(
        perUpdate(ours, (r) => r.cpuMicros) / perUpdate(bares, (r) => r.cpuMicros),
        1,
      ),
      peer_ratio_wall: spread(wallRatios),
      peer_ratio_cpu: spread(cpuRatios),
      service_requests_per_flow: round(
        mean(ours.map((r) => r.serviceRequests / options.people)),
        3,
      ),
      peer_service_requests_per_flow: round(
        mean(peers.map((r) => r.serviceRequests / options.people)),
        3,
      ),
      telegram_calls_per_update: round(
        perUpdate(ours, (r) => r.calls),
        2,
      ),
      peer_telegram_calls_per_update: round(
        perUpdate(peers, (r) => r.calls),
        2,
      ),
      bare_telegram_calls_per_update: round(
        perUpdate(bares, (r) => r.calls),
        2,
      ),
      delivered: options.people * options.rounds,
      step_p50_ms: stepP50(ours, options.people),
      peer_step_p50_ms: stepP50(peers, options.people),
    };
  } finally {
    await stack.close();
    await peer.close();
    await sandbox.close();
  }
}
