/**
 * 6. Handover: a rolling deploy's two processes on one database. The old bot polls; a new one
 * starts beside it and waits on standby (the sender lease is held); the old one gets SIGTERM.
 * The figure is from the old process's exit to the new one's first getUpdates at the Telegram
 * emulator: how long nobody takes updates during a deploy.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { mnemonicNew } from "@ton/crypto";
import { startTelegramEmulator } from "../../tools/telegram-emulator/server.js";
import { waitForExit } from "../lib/child.js";
import { startSandboxProcess } from "../lib/sandbox.js";
import { percentile, round } from "../lib/stats.js";
import { MAIN_JS } from "./startup.js";

export interface HandoverResult {
  /** Median over the runs, seconds; null when a run did not hand over. */
  handover_s: number | null;
  runs_s: number[];
  note?: string;
}

type Emulator = Awaited<ReturnType<typeof startTelegramEmulator>>;

function spawnBot(env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, [MAIN_JS], { env, stdio: ["ignore", "pipe", "ignore"] });
}

/** Resolves once the process logs a line containing `text`; rejects if it exits first. */
function logged(child: ChildProcess, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString();
      if (seen.includes(text)) done(resolve);
    };
    const onExit = (): void => done(() => reject(new Error(`exited before logging "${text}"`)));
    const done = (then: () => void): void => {
      child.stdout?.off("data", onData);
      child.off("exit", onExit);
      then();
    };
    child.stdout?.on("data", onData);
    child.once("exit", onExit);
  });
}

async function oneHandover(env: NodeJS.ProcessEnv, emulator: Emulator): Promise<number> {
  await emulator.waitFor((e) => !e.pollPending, { timeoutMs: 30_000 });
  // One after the other: the old process holds the lease and polls before the new one starts,
  // as in a rolling deploy (started together, either could win the lease).
  const old = spawnBot(env);
  let next: ChildProcess | undefined;
  try {
    await emulator.waitFor((e) => e.pollPending, { timeoutMs: 30_000 });
    next = spawnBot(env);
    await logged(next, "standing by");
    old.kill("SIGTERM");
    await once(old, "exit");
    const exitedAt = Date.now();
    // The old poll was ended by its own stop; the next one pending is the new process's.
    await emulator.waitFor((e) => e.pollPending, { timeoutMs: 60_000 });
    return (Date.now() - exitedAt) / 1000;
  } finally {
    for (const child of next === undefined ? [old] : [old, next]) {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await waitForExit(child, 15_000);
    }
  }
}

export async function runHandover(options: { dir: string; runs: number }): Promise<HandoverResult> {
  if (!existsSync(MAIN_JS)) {
    return { handover_s: null, runs_s: [], note: "dist/src/main.js is missing" };
  }
  const sandbox = await startSandboxProcess(false);
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
      DATABASE_PATH: join(options.dir, "handover.sqlite"),
      BOT_MODE: "polling",
      LOG_LEVEL: "info",
    };
    const runs: number[] = [];
    for (let i = 0; i < options.runs; i++) runs.push(await oneHandover(env, emulator));
    return { handover_s: round(percentile(runs, 50), 2), runs_s: runs.map((s) => round(s, 2)) };
  } catch (error) {
    return { handover_s: null, runs_s: [], note: String(error) };
  } finally {
    await emulator.close();
    await sandbox.close();
  }
}
