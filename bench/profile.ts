/**
 * `npm run bench:profile`: where one bot's CPU goes, step by step of the stars flow. Drives only
 * one bot (BENCH_PROFILE_BOT: `ours`, the default, or `peer`) through the update-cost phase's
 * flow, prints the CPU per update of each step for each round after a warm-up round, and, with
 * BENCH_PROFILE_STEP (`start`, `menu`, `recipient`, `amount`, `confirm`, or `all` for the whole
 * flow), writes a V8 CPU profile of that step in the last round to BENCH_PROFILE_DIR (default: the working folder),
 * to open in Chrome's DevTools. Settings: BENCH_PEOPLE (500), BENCH_ROUNDS (3).
 *
 * One bot per process, so the other's garbage and caches do not land in the figures; the
 * update-cost phase of `npm run bench` is the one that compares the two.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Update } from "grammy/types";
import { TEST_BOT_INFO } from "../tools/testing/telegram-fake.js";
import { createUpdateFactory } from "../tools/testing/updates.js";
import { delivered, people, STARS_STEPS, stepUpdate } from "./lib/flow.js";
import { createPeerBot } from "./lib/peer.js";
import { startSandboxProcess } from "./lib/sandbox.js";
import {
  BENCH_CREDENTIALS,
  BENCH_LIMITS,
  buildBotStack,
  LIFTED_CLIENT_QUOTA,
} from "./lib/stack.js";
import { createTelegramStub } from "./lib/telegram-stub.js";

const which = process.env.BENCH_PROFILE_BOT === "peer" ? "peer" : "ours";
const step = process.env.BENCH_PROFILE_STEP;
if (step !== undefined && step !== "all" && !(STARS_STEPS as readonly string[]).includes(step)) {
  throw new Error(`BENCH_PROFILE_STEP must be one of ${STARS_STEPS.join(", ")} or all`);
}
const outDir = resolve(process.env.BENCH_PROFILE_DIR ?? ".");
const rounds = Math.max(2, Number(process.env.BENCH_ROUNDS ?? 3) + 1);
const count = Math.max(10, Number(process.env.BENCH_PEOPLE ?? 500));

const dir = mkdtempSync(join(tmpdir(), "giftbot-profile-"));
const sandbox = await startSandboxProcess(false);
const stub = createTelegramStub(TEST_BOT_INFO);
const bot =
  which === "ours"
    ? await buildBotStack({
        dbPath: join(dir, "ours.sqlite"),
        serviceUrl: sandbox.url,
        fetch: stub.fetch,
        clientQuota: LIFTED_CLIENT_QUOTA,
        limits: BENCH_LIMITS,
      })
    : createPeerBot({
        dbPath: join(dir, "peer.sqlite"),
        serviceUrl: sandbox.url,
        fetch: stub.fetch,
        botInfo: TEST_BOT_INFO,
        credentials: BENCH_CREDENTIALS,
      });
const handle = (update: Update) => bot.bot.handleUpdate(update);
const updates = createUpdateFactory();
const inspector = new Session();
inspector.connect();

/** CPU milliseconds of this process while `work` runs. */
async function cpuMs(work: () => Promise<void>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

try {
  for (let round = 0; round < rounds; round++) {
    const crowd = people(count, 1_000_000 + round * count, `r${round}_rcpt_`);
    const perStep: string[] = [];
    let total = 0;
    for (const name of STARS_STEPS) {
      const profiling = round === rounds - 1 && (name === step || step === "all");
      if (profiling && (name === step || name === STARS_STEPS[0])) {
        await inspector.post("Profiler.enable");
        await inspector.post("Profiler.start");
      }
      const ms = await cpuMs(async () => {
        for (const person of crowd) await handle(stepUpdate(name, person, stub, updates));
      });
      if (profiling && (name === step || name === STARS_STEPS.at(-1))) {
        const { profile } = await inspector.post("Profiler.stop");
        const file = join(outDir, `profile-${which}-${step}.cpuprofile`);
        writeFileSync(file, JSON.stringify(profile));
        process.stderr.write(`wrote ${file}\n`);
      }
      total += ms;
      perStep.push(`${name} ${(ms / count).toFixed(3)}`);
    }
    // A flow that did not end delivered was not the stars flow: its figures would mislead.
    const failed = crowd.filter((person) => !delivered(stub, person));
    if (failed.length > 0) {
      throw new Error(`${failed.length} of ${crowd.length} flows did not end delivered`);
    }
    const label = round === 0 ? "warm-up" : `round ${round}`;
    console.log(
      `${which} ${label}: ${(total / count / STARS_STEPS.length).toFixed(3)} ms CPU per update` +
        ` (per step: ${perStep.join(", ")})`,
    );
  }
} finally {
  inspector.disconnect();
  await bot.close();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
}
