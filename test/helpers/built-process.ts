/**
 * End-to-end tests drive the REAL bot process (`node dist/src/main.js`, built by `pretest`)
 * against the Telegram emulator and the sandbox, both running in the test process so a test can
 * act as a person and inject faults. Everything a test starts is stopped when it finishes:
 * bot processes are SIGKILLed if still alive, then the emulator and the sandbox close.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { mnemonicNew } from "@ton/crypto";
import { onTestFinished } from "vitest";
import { RUN_MARKER } from "./leftovers.js";
import type { PurchaseIntent } from "../../src/ledger/types.js";
import { startSandbox } from "../../tools/sandbox/server.js";
import type { Sandbox, SandboxOptions } from "../../tools/sandbox/types.js";
import { openSqliteStorage } from "../../src/storage/sqlite/open.js";
import { TelegramEmulatorClient } from "../../tools/telegram-emulator/client.js";
import {
  DEMO_ADMIN,
  DEMO_GROUP,
  DEMO_USER,
  setUpDemoPeople,
} from "../../tools/telegram-emulator/demo-people.js";
import type { TelegramEmulator } from "../../tools/telegram-emulator/emulator.js";
import { startTelegramEmulator } from "../../tools/telegram-emulator/server.js";
import type { ChatViewMessage } from "../../tools/telegram-emulator/types.js";
import { tempDir } from "./temp-dir.js";

export { DEMO_ADMIN, DEMO_GROUP, DEMO_USER };

const ROOT = resolve(import.meta.dirname, "../..");
/** The built bot: `npm test` builds it first (pretest). */
const MAIN_JS = join(ROOT, "dist/src/main.js");

/** The webhook secret of the e2e tests (never a real one). */
export const WEBHOOK_SECRET = "e2e-webhook-secret_0123456789";

/** Webhook mode on a free local port, at `https://bot.example.org/telegram/hook`. */
export function webhookEnv(secret: string = WEBHOOK_SECRET): Record<string, string> {
  return {
    BOT_MODE: "webhook",
    HOST: "127.0.0.1",
    PORT: "0",
    WEBHOOK_URL: "https://bot.example.org/telegram/hook",
    WEBHOOK_SECRET: secret,
  };
}

/** POSTs `update` to the webhook at `url` as Telegram would, with `secret` when given. */
export function postUpdate(url: string, update: unknown, secret?: string): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(secret === undefined ? {} : { "x-telegram-bot-api-secret-token": secret }),
    },
    body: JSON.stringify(update),
  });
}

/** Bounds for every wait in these tests. */
export const WAIT_MS = 8_000;

/** One phrase for every e2e test: generating one costs a noticeable fraction of a second. */
let phrase: Promise<string> | undefined;
function demoPhrase(): Promise<string> {
  phrase ??= mnemonicNew(24).then((words) => words.join(" "));
  return phrase;
}

export interface World {
  sandbox: Sandbox;
  emulator: TelegramEmulator;
  dir: string;
  databasePath: string;
  /** The bot's environment for this world (local peers only, .env never read). */
  env(overrides?: Record<string, string>): Promise<Record<string, string>>;
  /** The intents in the bot's database file, newest first (open it only while no bot runs, or read-only use). */
  intents(): Promise<PurchaseIntent[]>;
}

/** A sandbox, an emulator with the demo people, and a temp folder; all closed after the test. */
export async function startWorld(
  options: {
    sandbox?: SandboxOptions;
    /** Settings every bot of this world gets (e.g. DATABASE_URL: the world on PostgreSQL). */
    env?: Record<string, string>;
  } = {},
): Promise<World> {
  if (!existsSync(MAIN_JS)) {
    throw new Error(`${MAIN_JS} is missing: run the tests with npm test (it builds first)`);
  }
  const dir = tempDir("giftbot-e2e-");
  const sandbox = await startSandbox({ quota: false, ...options.sandbox });
  onTestFinished(() => sandbox.close());
  const emulator = await startTelegramEmulator();
  onTestFinished(() => emulator.close());
  await setUpDemoPeople(new TelegramEmulatorClient(emulator.url));
  const databasePath = join(dir, "giftbot.sqlite");
  return {
    sandbox,
    emulator,
    dir,
    databasePath,
    env: async (overrides = {}) => ({
      ENV_FILE: "none",
      BOT_TOKEN: emulator.token,
      TELEGRAM_API_ROOT: emulator.apiRoot,
      GIFT_API_BASE_URL: sandbox.url,
      WALLET_MNEMONIC: await demoPhrase(),
      MARKETPLACE_COOKIE: "stel_ssid=e2e",
      ADMIN_IDS: String(DEMO_ADMIN.id),
      ALLOWED_USER_IDS: String(DEMO_USER.id),
      ALLOWED_CHAT_IDS: String(DEMO_GROUP.id),
      DATABASE_PATH: databasePath,
      SHUTDOWN_GRACE_SECONDS: "5",
      SERVICE_TIMEOUT_MS: "5000",
      LOG_LEVEL: "info",
      ...options.env,
      ...overrides,
    }),
    intents: async () => {
      const storage = await openSqliteStorage(databasePath);
      try {
        return await storage.openLedger({}).recent({ limit: 100 });
      } finally {
        await storage.close();
      }
    },
  };
}

export interface BotProcess {
  child: ChildProcess;
  /** The environment it was started with (secrets included: for scans only). */
  env: Record<string, string>;
  /** Every JSON log line so far. */
  logs: Array<Record<string, unknown>>;
  /** Everything written, as text (for secret scans and failure messages). */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The first log line (past or future) that matches. */
  waitForLog(
    predicate: (line: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
}

/**
 * Spawns the built bot with `env` (plus PATH only); SIGKILLed after the test if still alive.
 * `args` and `cwd` run it another way (the container's relative entry command); `command`
 * runs something else that starts it (`npm start`), in a process group of its own when
 * `detached` (a terminal's job).
 */
export function spawnBot(
  env: Record<string, string>,
  args: string[] = [MAIN_JS],
  cwd?: string,
  how: { command?: string; detached?: boolean } = {},
): BotProcess {
  const child = spawn(how.command ?? process.execPath, args, {
    ...(cwd ? { cwd } : {}),
    detached: how.detached ?? false,
    // The run's marker, so the leftover check finds this process whatever its command line.
    env: { PATH: process.env.PATH ?? "", [RUN_MARKER]: process.env[RUN_MARKER] ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const logs: Array<Record<string, unknown>> = [];
  const listeners = new Set<() => void>();
  let text = "";
  let partial = "";
  let closed = false;
  child.stdout.on("data", (chunk: Buffer) => {
    text += chunk.toString();
    partial += chunk.toString();
    const lines = partial.split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      if (line.trim() === "") continue;
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        logs.push({ msg: line });
      }
    }
    for (const listener of listeners) listener();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    text += chunk.toString();
  });
  const exited: BotProcess["exited"] = new Promise((resolve) => {
    // "close", not "exit": the last log lines may still be in the pipe when the process exits.
    child.once("close", (code, signal) => {
      closed = true;
      resolve({ code, signal });
      for (const listener of listeners) listener();
    });
  });
  onTestFinished(async () => {
    if (how.detached === true && child.pid !== undefined) {
      // The whole job: whatever it started stays in its group, even once orphaned.
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // The group is gone already.
      }
      await exited;
    } else if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await exited;
    }
  });
  const waitForLog: BotProcess["waitForLog"] = (predicate, timeoutMs = WAIT_MS) =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const found = logs.find(predicate);
        if (found !== undefined) {
          done();
          resolve(found);
        } else if (closed) {
          done();
          reject(new Error(`the bot exited before the log line came:\n${text}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no such log line within ${timeoutMs} ms:\n${text}`));
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      listeners.add(check);
      check();
    });
  return { child, env, logs, output: () => text, exited, waitForLog };
}

/** Spawns the bot and resolves once it long-polls the emulator. */
export async function startBot(
  world: World,
  overrides: Record<string, string> = {},
): Promise<BotProcess> {
  const bot = spawnBot(await world.env(overrides));
  const polling = world.emulator.waitFor((e) => e.pollPending, { timeoutMs: WAIT_MS });
  const started = await Promise.race([polling.then(() => true), bot.exited.then(() => false)]);
  polling.catch(() => undefined);
  if (!started) throw new Error(`the bot exited at start:\n${bot.output()}`);
  return bot;
}

/** A person in a chat with the bot, acting through the emulator. */
export class Person {
  constructor(
    readonly emulator: TelegramEmulator,
    readonly userId: number,
    readonly chatId: number = userId,
  ) {}

  /** Sends text and resolves with the bot's next message in this chat. */
  async say(text: string, options: { replyTo?: number } = {}): Promise<ChatViewMessage> {
    const sent = this.emulator.sendText(this.userId, this.chatId, text, {
      ...(options.replyTo === undefined ? {} : { replyToMessageId: options.replyTo }),
    });
    return this.emulator.nextBotMessage(this.chatId, {
      after: sent.messageId,
      timeoutMs: WAIT_MS,
    });
  }

  /** Presses a button by its label; resolves with the callback query's answer once given. */
  async press(message: ChatViewMessage, label: string): Promise<{ text?: string | undefined }> {
    const { callbackQueryId } = this.emulator.pressButtonLabeled(
      this.userId,
      this.chatId,
      message.id,
      label,
    );
    const answer = await this.emulator.waitFor(
      (e) => e.callbackAnswers.find((a) => a.callbackQueryId === callbackQueryId),
      { timeoutMs: WAIT_MS },
    );
    return { text: answer.text };
  }

  /** Presses a button and resolves with the bot's next new message in this chat. */
  async pressForMessage(message: ChatViewMessage, label: string): Promise<ChatViewMessage> {
    const after = this.lastMessageId();
    this.emulator.pressButtonLabeled(this.userId, this.chatId, message.id, label);
    return this.emulator.nextBotMessage(this.chatId, { after, timeoutMs: WAIT_MS });
  }

  /** Resolves with message `id` once its text matches. */
  waitForText(id: number, pattern: RegExp): Promise<ChatViewMessage> {
    return this.emulator.waitFor(
      (e) => e.chat(this.chatId).find((m) => m.id === id && pattern.test(m.text)),
      { timeoutMs: WAIT_MS },
    );
  }

  /** Resolves with the first bot message (old or new) whose text matches. */
  waitForMessage(pattern: RegExp): Promise<ChatViewMessage> {
    return this.emulator.waitFor(
      (e) => e.chat(this.chatId).find((m) => m.fromBot && pattern.test(m.text)),
      { timeoutMs: WAIT_MS },
    );
  }

  message(id: number): ChatViewMessage | undefined {
    return this.emulator.chat(this.chatId).find((m) => m.id === id);
  }

  lastMessageId(): number {
    return this.emulator.chat(this.chatId).at(-1)?.id ?? 0;
  }
}

/** The labels of a message's buttons, row by row. */
export function buttons(message: ChatViewMessage | undefined): string[][] {
  return (message?.replyMarkup?.inline_keyboard ?? []).map((row) => row.map((b) => b.text));
}

/** The callback data of the button labelled `label`. */
export function callbackData(message: ChatViewMessage, label: string): string {
  for (const row of message.replyMarkup?.inline_keyboard ?? []) {
    for (const button of row) {
      if (button.text === label && typeof button.callback_data === "string") {
        return button.callback_data;
      }
    }
  }
  throw new Error(`no button "${label}" on message ${message.id}`);
}

/**
 * Goes from /stars to the summary: recipient, then the amount button. Resolves with the summary.
 */
export async function starsSummary(
  person: Person,
  recipient: string,
  amountLabel = "⭐ 50",
): Promise<ChatViewMessage> {
  const ask = await person.say("/stars");
  if (!/Who should get the stars/.test(ask.text)) throw new Error(`unexpected: ${ask.text}`);
  const amount = await person.say(recipient);
  if (!/How many stars/.test(amount.text)) throw new Error(`unexpected: ${amount.text}`);
  return person.pressForMessage(amount, amountLabel);
}

/**
 * The process's whole output holds none of its secrets: the token (nor its secret half), the
 * cookie, any two consecutive words of the phrase, the webhook secret.
 */
export function secretsIn(output: string, env: Record<string, string>): string[] {
  const found: string[] = [];
  const token = env.BOT_TOKEN ?? "";
  const tokenSecret = token.slice(token.indexOf(":") + 1);
  if (tokenSecret !== "" && output.includes(tokenSecret)) found.push("BOT_TOKEN");
  if (env.MARKETPLACE_COOKIE && output.includes(env.MARKETPLACE_COOKIE)) {
    found.push("MARKETPLACE_COOKIE");
  }
  if (env.WEBHOOK_SECRET && output.includes(env.WEBHOOK_SECRET)) found.push("WEBHOOK_SECRET");
  const words = (env.WALLET_MNEMONIC ?? "").split(" ");
  for (let i = 1; i < words.length; i++) {
    if (output.includes(`${words[i - 1]} ${words[i]}`)) {
      found.push("WALLET_MNEMONIC");
      break;
    }
  }
  return found;
}
