/**
 * The demo's world: the Gift Purchase Service sandbox and the Telegram Bot API emulator in this
 * process, and the REAL bot as a child process (`node dist/src/main.js`) pointed at both, with a
 * throwaway wallet phrase generated on the spot and a database in a temporary folder.
 *
 * A developer's `.env` is never read (ENV_FILE=none): the demo must never reach a real service
 * with real credentials.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { mnemonicNew } from "@ton/crypto";
import { startSandbox } from "../sandbox/server.js";
import type { Sandbox } from "../sandbox/types.js";
import { TelegramEmulatorClient } from "../telegram-emulator/client.js";
import {
  DEMO_ADMIN,
  DEMO_GROUP,
  DEMO_USER,
  setUpDemoPeople,
} from "../telegram-emulator/demo-people.js";
import type { TelegramEmulator } from "../telegram-emulator/emulator.js";
import { startTelegramEmulator } from "../telegram-emulator/server.js";
import { freePort } from "../testing/free-port.js";
import { launchUrl, signInitData } from "../testing/init-data.js";

/** How long the bot may take to start polling, and to stop after SIGTERM. */
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;

/** The environment the bot runs with: local peers only, a fresh wallet, a temp database. */
function demoEnvironment(options: {
  sandboxUrl: string;
  emulator: { token: string; apiRoot: string };
  mnemonic: string;
  databasePath: string;
  adminAppPort: number;
}): Record<string, string> {
  return {
    ENV_FILE: "none",
    BOT_TOKEN: options.emulator.token,
    TELEGRAM_API_ROOT: options.emulator.apiRoot,
    GIFT_API_BASE_URL: options.sandboxUrl,
    WALLET_MNEMONIC: options.mnemonic,
    MARKETPLACE_COOKIE: "stel_ssid=demo",
    // Sandbox purchases are on no real chain: a receipt shows the hash, never a public explorer link.
    TON_EXPLORER_URL: "none",
    ADMIN_IDS: String(DEMO_ADMIN.id),
    ALLOWED_USER_IDS: String(DEMO_USER.id),
    ALLOWED_CHAT_IDS: String(DEMO_GROUP.id),
    // The admin's own gifts skip the per-person limits (an operator's setting, docs/demo.md): a
    // Premium giveaway would otherwise use up Ada's 3 Premium gifts a day before the README's
    // group step. Uma, the buyer, keeps the default per-person limits; the bot-wide ones hold.
    LIMITS_EXEMPT_ADMINS: "true",
    // Premium for people the bot has seen is gifted by the bot itself from its own Telegram Stars
    // (docs/telegram-premium.md); the emulator's bot starts with none: the walkthrough tops up.
    PREMIUM_VIA: "telegram-first",
    DATABASE_PATH: options.databasePath,
    BOT_MODE: "polling",
    // A quick stop on :quit: the sandbox answers at once, so a 10 s timeout is plenty, and the
    // grace must cover it (the bot refuses a grace shorter than the service's timeout).
    SERVICE_TIMEOUT_MS: "10000",
    SHUTDOWN_GRACE_SECONDS: "10",
    LOG_LEVEL: "info",
    // The admins' Mini App on this machine (docs/admin-app.md): the link the demo prints opens
    // it in a browser as Ada; it stays valid for a day (a real one for an hour).
    ADMIN_APP_PORT: String(options.adminAppPort),
    ADMIN_APP_URL: adminAppPage(options.adminAppPort),
    ADMIN_APP_MAX_AGE_SECONDS: "86400",
  };
}

/** Where the demo's admin app is (plain http: it is on this machine). */
function adminAppPage(port: number): string {
  return `http://127.0.0.1:${port}/admin/`;
}

/** The built bot next to this module, or the TypeScript one through tsx when run from tools/. */
function botCommand(): { command: string; args: string[] } {
  const built = fileURLToPath(new URL("../../src/main.js", import.meta.url));
  if (existsSync(built)) return { command: process.execPath, args: [built] };
  const source = fileURLToPath(new URL("../../src/main.ts", import.meta.url));
  return { command: process.execPath, args: ["--import", "tsx", source] };
}

/** A running demo. */
export interface Demo {
  dir: string;
  logFile: string;
  /** Where the documents the bot sends (`/export`) are saved, inside `dir`. */
  filesDir: string;
  /** Opens the admins' Mini App in a browser as the demo's admin (signed with the demo token). */
  adminAppLink: string;
  sandbox: Sandbox;
  emulator: TelegramEmulator;
  bot: ChildProcess;
  /** Resolves when the bot process has exited. */
  botExited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The bot's last log lines, to show when it stopped unexpectedly. */
  logTail(lines?: number): string;
  /** SIGTERM to the bot (SIGKILL if it does not stop in time), then everything else. Idempotent. */
  stop(): Promise<void>;
}

/** Starts the sandbox, the emulator and the bot; resolves once the bot long-polls. */
export async function startDemo(): Promise<Demo> {
  const dir = mkdtempSync(join(tmpdir(), "giftbot-demo-"));
  const logFile = join(dir, "bot.log");
  const filesDir = join(dir, "files");
  let sandbox: Sandbox | undefined;
  let emulator: TelegramEmulator | undefined;
  let bot: ChildProcess | undefined;
  let botExited: Demo["botExited"] | undefined;
  let stopping: Promise<void> | undefined;

  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (bot !== undefined && botExited !== undefined && bot.exitCode === null) {
        bot.kill("SIGTERM");
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<"late">((resolve) => {
          timer = setTimeout(() => resolve("late"), STOP_TIMEOUT_MS);
        });
        if ((await Promise.race([botExited, late])) === "late") bot.kill("SIGKILL");
        clearTimeout(timer);
        await botExited;
      }
      await emulator?.close();
      await sandbox?.close();
      rmSync(dir, { recursive: true, force: true });
    })();
    return stopping;
  };
  const logTail = (lines = 20): string => {
    try {
      return readFileSync(logFile, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
    } catch {
      return "(no log)";
    }
  };

  try {
    sandbox = await startSandbox();
    emulator = await startTelegramEmulator({ filesDir });
    // The people exist before the bot starts, so it may message the admin from the first moment.
    await setUpDemoPeople(new TelegramEmulatorClient(emulator.url));
    const mnemonic = (await mnemonicNew(24)).join(" ");
    const adminAppPort = await freePort();
    const { command, args } = botCommand();
    const log = openSync(logFile, "a");
    const child = spawn(command, args, {
      env: {
        PATH: process.env.PATH ?? "",
        ...demoEnvironment({
          sandboxUrl: sandbox.url,
          emulator,
          mnemonic,
          databasePath: join(dir, "giftbot.sqlite"),
          adminAppPort,
        }),
      },
      stdio: ["ignore", log, log],
      // Its own process group: a Ctrl-C in this terminal reaches only the demo, which then
      // stops the bot with one SIGTERM (a second signal would make the bot exit at once).
      detached: true,
    });
    // The child holds its own copy of the descriptor; this process has no more use for it.
    closeSync(log);
    bot = child;
    const exited: Demo["botExited"] = new Promise((resolve) => {
      child.once("exit", (code, signal) => resolve({ code, signal }));
    });
    botExited = exited;

    const polling = emulator.waitFor((e) => e.pollPending, { timeoutMs: START_TIMEOUT_MS });
    polling.catch(() => undefined);
    const started = await Promise.race([
      polling.then(() => "polling" as const),
      exited.then(() => "exited" as const),
    ]);
    if (started === "exited") {
      throw new Error(`the bot stopped at start. Its last log lines:\n${logTail()}`);
    }
    return {
      dir,
      logFile,
      filesDir,
      adminAppLink: launchUrl(
        adminAppPage(adminAppPort),
        signInitData(emulator.token, DEMO_ADMIN),
        "light",
      ),
      sandbox,
      emulator,
      bot: child,
      botExited: exited,
      logTail,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
