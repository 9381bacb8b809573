/**
 * 4. Start-up: from spawning the built process (`node dist/src/main.js`) to its first
 * getUpdates at the Telegram emulator, with the sandbox as the service. The first run starts
 * on a fresh database (migrations run); later runs restart on the same one. One more run goes
 * through `npm start` on the built checkout, as an operator starts it: npm, the build check
 * (which finds nothing to compile) and then the same process.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { mnemonicNew } from "@ton/crypto";
import { startTelegramEmulator } from "../../tools/telegram-emulator/server.js";
import { waitForExit } from "../lib/child.js";
import { startSandboxProcess } from "../lib/sandbox.js";
import { percentile, round } from "../lib/stats.js";

export const MAIN_JS = fileURLToPath(new URL("../../dist/src/main.js", import.meta.url));
const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** What is spawned: the built process itself, or `npm start` in the checkout. */
type Command = { file: string; args: string[] };
const NODE_MAIN: Command = { file: process.execPath, args: [MAIN_JS] };
const NPM_START: Command = { file: "npm", args: ["start", "--silent"] };

export interface StartupResult {
  /** Median over the runs; null when the process never polled. */
  startup_ms: number | null;
  /** One run through `npm start` (npm and the build check included). */
  npm_start_ms: number | null;
  startup_first_ms: number | null;
  runs_ms: number[];
  /** Why there is no figure, when there is none. */
  note?: string;
}

type RunOutcome = { polledAfterMs: number } | { exitedWith: string };

async function oneRun(
  env: NodeJS.ProcessEnv,
  emulator: Awaited<ReturnType<typeof startTelegramEmulator>>,
  command: Command = NODE_MAIN,
): Promise<RunOutcome> {
  // The previous run's poll must be over, or it would count as this run's.
  await emulator.waitFor((e) => !e.pollPending, { timeoutMs: 30_000 });
  const spawnedAt = Date.now();
  // Its own process group, so the bot under `npm start` is signalled too, not only npm.
  const child = spawn(command.file, command.args, {
    env,
    cwd: REPO_ROOT,
    detached: true,
    stdio: ["ignore", "ignore", "ignore"],
  });
  const exited = new Promise<RunOutcome>((resolve) => {
    child.once("exit", (code, signal) => resolve({ exitedWith: signal ?? String(code) }));
    // A command that cannot be started (no npm on PATH) is a run that never polled, not a crash.
    child.once("error", (error) => resolve({ exitedWith: `not started: ${error.message}` }));
  });
  const stop = new AbortController();
  // A long poll is recorded as a call only when it is answered; a held one shows as pending.
  const polled = emulator
    .waitFor((e) => e.pollPending, { timeoutMs: 30_000, signal: stop.signal })
    .then(
      (): RunOutcome => ({ polledAfterMs: Date.now() - spawnedAt }),
      (error: unknown): RunOutcome => ({ exitedWith: `no getUpdates: ${String(error)}` }),
    );
  try {
    return await Promise.race([polled, exited]);
  } finally {
    stop.abort();
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      process.kill(-child.pid, "SIGTERM");
    }
    await waitForExit(child, 15_000);
  }
}

export async function runStartup(options: { dir: string; runs: number }): Promise<StartupResult> {
  if (!existsSync(MAIN_JS)) {
    return {
      startup_ms: null,
      npm_start_ms: null,
      startup_first_ms: null,
      runs_ms: [],
      note: "dist/src/main.js is missing: run `npm run build` (npm run bench does)",
    };
  }
  const sandbox = await startSandboxProcess({ limit: 30, windowMs: 60_000 });
  const emulator = await startTelegramEmulator();
  try {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ENV_FILE: "none",
      BOT_TOKEN: emulator.token,
      TELEGRAM_API_ROOT: emulator.apiRoot,
      GIFT_API_BASE_URL: sandbox.url,
      WALLET_MNEMONIC: (await mnemonicNew(24)).join(" "),
      MARKETPLACE_COOKIE: "stel_ssid=bench-session-cookie",
      ADMIN_IDS: "1",
      DATABASE_PATH: join(options.dir, "startup.sqlite"),
      BOT_MODE: "polling",
      PORT: "0",
      LOG_LEVEL: "warn",
    };
    const runs: number[] = [];
    for (let i = 0; i < options.runs; i++) {
      const outcome = await oneRun(env, emulator);
      if ("exitedWith" in outcome) {
        return {
          startup_ms: null,
          npm_start_ms: null,
          startup_first_ms: null,
          runs_ms: runs,
          note: `the process exited (${outcome.exitedWith}) without ever calling getUpdates: main is not wired to the bot yet`,
        };
      }
      runs.push(outcome.polledAfterMs);
    }
    const npmStart = await oneRun(env, emulator, NPM_START);
    return {
      startup_ms: round(percentile(runs, 50), 0),
      npm_start_ms: "polledAfterMs" in npmStart ? round(npmStart.polledAfterMs, 0) : null,
      startup_first_ms: round(runs[0] ?? Number.NaN, 0),
      runs_ms: runs.map((ms) => round(ms, 0)),
    };
  } finally {
    await emulator.close();
    await sandbox.close();
  }
}
