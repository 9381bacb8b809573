import { PassThrough } from "node:stream";
import { Bot } from "grammy";
import { afterEach } from "vitest";
import type {
  TelegramEmulator,
  TelegramEmulatorOptions,
} from "../../../tools/telegram-emulator/emulator.js";
import { startTelegramEmulator } from "../../../tools/telegram-emulator/server.js";
import { runTerminalChat } from "../../../tools/telegram-emulator/terminal-chat.js";

/** A person for the tests. */
export const ALICE = { id: 501, first_name: "Alice", username: "alice", language_code: "en" };
/** Another person. */
export const BOB = { id: 502, first_name: "Bob", username: "bob_b", language_code: "ru" };
/** A supergroup. */
export const GROUP = { id: -100500, title: "Friends", type: "supergroup" as const };

const cleanups: Array<() => Promise<void>> = [];

/** Runs at the end of each test: last registered first, so bots stop before their emulator closes. */
afterEach(async () => {
  const failures: unknown[] = [];
  for (const cleanup of cleanups.splice(0).reverse()) {
    await cleanup().catch((error: unknown) => failures.push(error));
  }
  if (failures.length > 0) throw failures[0];
});

/** Registers something to undo when the test finishes. */
export function onCleanup(cleanup: () => Promise<void> | void): void {
  cleanups.push(async () => cleanup());
}

/** An emulator closed when the test finishes. */
export async function startEmulator(
  options: TelegramEmulatorOptions = {},
): Promise<TelegramEmulator> {
  const emulator = await startTelegramEmulator({ botUsername: "gift_test_bot", ...options });
  onCleanup(() => emulator.close());
  return emulator;
}

/** A real grammY bot pointed at the emulator. */
export function botFor(emulator: TelegramEmulator, token = emulator.token): Bot {
  return new Bot(token, { client: { apiRoot: emulator.apiRoot } });
}

/**
 * Starts the bot's long polling (short timeout) and resolves once it polls; the bot is stopped
 * (and waited for) when the test finishes, before its emulator closes.
 */
export async function runBot(bot: Bot): Promise<void> {
  let started!: () => void;
  const ready = new Promise<void>((resolve) => {
    started = resolve;
  });
  const done = bot.start({ timeout: 2, onStart: () => started() });
  onCleanup(async () => {
    await bot.stop();
    await done;
  });
  await ready;
}

/**
 * The terminal chat in this process, on streams, with event-based waits on its output: each wait
 * looks only at output after what the previous wait matched.
 */
export function chatOnStreams(url: string, sandboxUrl: string | undefined) {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = "";
  let consumed = 0;
  const listeners = new Set<() => void>();
  output.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
    for (const listener of [...listeners]) listener();
  });
  const done = runTerminalChat({ url, sandboxUrl, input, output });
  onCleanup(async () => {
    input.end();
    await done;
  });
  const waitFor = (pattern: RegExp): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const match = pattern.exec(text.slice(consumed));
        if (match === null) return;
        consumed += match.index + match[0].length;
        listeners.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`no ${pattern} in terminal output:\n${text}`));
      }, 8_000);
      listeners.add(check);
      check();
    });
  return { type: (line: string) => input.write(`${line}\n`), waitFor };
}
