/**
 * A chat in the terminal against a running emulator, so a person can use the bot without
 * Telegram: type as a user (or the admin, or in the demo group), see the bot's messages and
 * edits with numbered buttons, press a button with `#N` (on the bot's latest message that has
 * buttons). What a typed line means is decided in chat-input.ts; this module shows the chat and
 * carries the lines out.
 *
 *   tsx tools/telegram-emulator/terminal-chat.ts [EMULATOR_URL [SANDBOX_URL]]
 *   (or EMULATOR_URL and SANDBOX_URL in the env; without a sandbox, :expire-session and the
 *   other sandbox commands are unavailable)
 *
 * It follows the emulator with held `/__emulator/events` requests: no busy polling.
 */
import { readFile, stat } from "node:fs/promises";
import { basename, resolve } from "node:path";
import { createInterface, type Interface } from "node:readline";
import { pathToFileURL } from "node:url";
import { SandboxControlClient } from "../sandbox/control-client.js";
import { findButton, numberSentAsTextHint, parseChatLine } from "./chat-input.js";
import { TelegramEmulatorClient } from "./client.js";
import { DEMO_ADMIN, DEMO_GROUP, DEMO_USER, setUpDemoPeople } from "./demo-people.js";
import type { ChatEvent, ChatViewMessage, InlineKeyboardButton } from "./types.js";

/** The chat's `:help`. */
export const TERMINAL_CHAT_HELP = `Commands:
  <text>            send a message (or a /command) as the current person; numbers are sent too
  #N or :press N    press button N of the bot's latest message that has buttons
  :press N #M       press button N of message #M
  :reply M <text>   reply to message #M (yours are numbered too)
  :file <path>      send a file from this computer, as Telegram sends a document (a
                    giveaway's .txt or .csv list, say); a relative path starts in this folder
  :as admin|user|ID act as the demo admin, the demo user, or any user id
  :group            talk in the demo group ("${DEMO_GROUP.title}")
  :private          talk in your private chat with the bot
  :who              show who you are and where
  :expire-session   the sandbox's marketplace session expires: purchases are refused
  :restore-session  the marketplace session is valid again
  :drain-wallet     the sandbox's wallet is emptied: purchases are refused (insufficient funds)
  :refill-wallet    the wallet gets its starting balance back
  :unknown-outcome  the next purchase goes through but its answer is lost: its outcome is
                    unknown to the bot (as the admin: /pending, then Delivered or Not delivered)
  :help             this help
  :quit             leave`;

/** Where the terminal chat reads and writes; a test can pass its own streams. */
export interface TerminalChatOptions {
  url: string;
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  /** The Gift Purchase Service sandbox behind the bot, for :expire-session and the like. */
  sandboxUrl?: string;
}

/**
 * The largest file `:file` sends: the emulator's control API carries it as base64 in a JSON body
 * of at most 1 MB. Bots' own limits are smaller (a giveaway's list: 64 KB).
 */
const MAX_FILE_BYTES = 512 * 1024;

interface Identity {
  id: number;
  name: string;
}

type SandboxCommand =
  "expire-session" | "restore-session" | "drain-wallet" | "refill-wallet" | "unknown-outcome";

/** What each sandbox command does and what the chat says after it. */
const SANDBOX_COMMANDS: Record<
  SandboxCommand,
  { act: (sandbox: SandboxControlClient) => Promise<void>; said: string }
> = {
  "expire-session": {
    act: (sandbox) => sandbox.expireSession(),
    said: "the marketplace session expired: the service refuses purchases until :restore-session",
  },
  "restore-session": {
    act: (sandbox) => sandbox.restoreSession(),
    said: "the marketplace session is valid again",
  },
  "drain-wallet": {
    act: (sandbox) => sandbox.drainWallet(),
    said: "the wallet is empty: the service refuses purchases for insufficient funds",
  },
  "refill-wallet": {
    act: (sandbox) => sandbox.refillWallet(),
    said: "the wallet has its starting balance again",
  },
  "unknown-outcome": {
    act: (sandbox) => sandbox.loseNextPurchaseAnswer(),
    said: "the next purchase will go through, but its answer is lost on the way back: the bot cannot know whether it was delivered",
  },
};

function isSandboxCommand(name: string): name is SandboxCommand {
  return Object.hasOwn(SANDBOX_COMMANDS, name);
}

/** One person's view of the emulator's chats, and what their typed lines do. */
class TerminalChat {
  private me: Identity = { id: DEMO_USER.id, name: DEMO_USER.first_name };
  private chatId: number = DEMO_USER.id;
  /** Messages of the chats we have seen, as the person sees them now. */
  private readonly known = new Map<number, Map<number, ChatViewMessage>>();
  private readonly names = new Map<number, string>([
    [DEMO_ADMIN.id, DEMO_ADMIN.first_name],
    [DEMO_USER.id, DEMO_USER.first_name],
  ]);

  constructor(
    private readonly client: TelegramEmulatorClient,
    private readonly botUsername: string,
    private readonly sandbox: SandboxControlClient | undefined,
    readonly print: (line: string) => void,
  ) {}

  /** Loads the current chat's messages; returns the emulator's event position to follow from. */
  async loadChat(): Promise<number> {
    const { messages, lastEventSeq } = await this.client.chat(this.chatId);
    this.known.set(this.chatId, new Map(messages.map((message) => [message.id, message])));
    return lastEventSeq;
  }

  describe(): void {
    this.print(
      `You are ${this.me.name} (id ${this.me.id}), in the ${this.chatLabel(this.chatId)}.`,
    );
  }

  /** Carries out one typed line; false when the chat should end. */
  async handleLine(line: string): Promise<boolean> {
    const input = parseChatLine(line);
    switch (input.type) {
      case "empty":
        return true;
      case "invalid":
        this.print(input.message);
        return true;
      case "text":
        await this.sendText(input.text);
        return true;
      case "press":
        await this.press(input.button, input.messageId);
        return true;
      case "command":
        return this.runCommand(input.name, input.args, input.rest);
    }
  }

  handleEvent(event: ChatEvent): void {
    switch (event.type) {
      case "message":
        this.remember(event.message);
        this.show(event.message);
        break;
      case "edited":
        this.showEdit(event.message);
        break;
      case "deleted":
        this.known.get(event.chatId)?.delete(event.messageId);
        this.print(`(#${event.messageId} deleted)`);
        break;
      case "callback_answer":
        if (event.answer.text !== undefined) {
          this.print(`${event.answer.showAlert ? "(alert)" : "(toast)"} ${event.answer.text}`);
        }
        break;
      case "chat_action":
        if (event.chatId === this.chatId) {
          this.print(`(@${this.botUsername} is ${event.action}...)`);
        }
        break;
    }
  }

  private async runCommand(name: string, args: string[], rest: string): Promise<boolean> {
    switch (name) {
      case "quit":
      case "q":
        return false;
      case "help":
        this.print(TERMINAL_CHAT_HELP);
        break;
      case "who":
        this.describe();
        break;
      case "as":
        await this.switchTo(args[0] ?? "");
        break;
      case "group":
        await this.enterChat(DEMO_GROUP.id);
        break;
      case "private":
        await this.enterChat(this.me.id);
        break;
      case "reply":
        await this.reply(args[0], rest.slice((args[0] ?? "").length).trim());
        break;
      case "file":
        await this.sendFile(rest);
        break;
      default:
        if (isSandboxCommand(name)) await this.steerSandbox(name);
        else this.print(`(unknown command :${name}; :help lists them)`);
    }
    return true;
  }

  private async sendText(text: string): Promise<void> {
    // Judged on the chat as it was when the line was typed, before the bot's answer arrives.
    const hint = numberSentAsTextHint(text, this.messagesHere());
    await this.client.sendText(this.me.id, this.chatId, text);
    if (hint !== undefined) this.print(hint);
  }

  private async reply(target: string | undefined, body: string): Promise<void> {
    const replyTo = Number(/^#?(\d+)$/.exec(target ?? "")?.[1]);
    if (!Number.isInteger(replyTo) || body === "") {
      this.print("(use :reply <message #> <text>)");
      return;
    }
    await this.client.sendText(this.me.id, this.chatId, body, { replyToMessageId: replyTo });
  }

  /** Sends a local file as a document, the way a person attaches one in Telegram. */
  private async sendFile(path: string): Promise<void> {
    if (path === "") {
      this.print("(use :file <path>, e.g. :file tools/demo/giveaway-list.csv)");
      return;
    }
    const fullPath = resolve(path);
    const size = await stat(fullPath).then(
      (info) => (info.isFile() ? info.size : undefined),
      () => undefined,
    );
    if (size === undefined) {
      this.print(`(no file at ${fullPath})`);
      return;
    }
    if (size === 0 || size > MAX_FILE_BYTES) {
      this.print(
        `(${basename(fullPath)} has ${size} bytes: the terminal chat sends files of 1 byte to ${MAX_FILE_BYTES / 1024} KB)`,
      );
      return;
    }
    const content = await readFile(fullPath);
    await this.client.sendDocument(this.me.id, this.chatId, {
      fileName: basename(fullPath),
      content,
    });
  }

  private async press(number: number, messageId?: number): Promise<void> {
    const found = findButton(this.messagesHere(), number, messageId);
    if (typeof found === "string") {
      this.print(found);
      return;
    }
    // An invoice's Pay button: the emulator asks the bot, then charges (tools/telegram-emulator/stars-api.ts).
    if (typeof found.button.callback_data !== "string" && found.button.pay !== true) {
      this.print(
        `(button ${number} opens ${found.button.url ?? "something the terminal cannot open"})`,
      );
      return;
    }
    this.print(`(you pressed "${found.button.text}" on #${found.message.id})`);
    await this.client.pressButtonAt(
      this.me.id,
      this.chatId,
      found.message.id,
      found.row,
      found.column,
    );
  }

  private async switchTo(target: string): Promise<void> {
    if (target === "admin") this.me = { id: DEMO_ADMIN.id, name: DEMO_ADMIN.first_name };
    else if (target === "user") this.me = { id: DEMO_USER.id, name: DEMO_USER.first_name };
    else if (/^\d+$/.test(target)) this.me = await this.someone(Number(target));
    else {
      this.print("(use :as admin, :as user or :as <user id>)");
      return;
    }
    await this.enterChat(this.chatId === DEMO_GROUP.id ? DEMO_GROUP.id : this.me.id);
  }

  /** Any user by id, added to the emulator (and the demo group) the first time. */
  private async someone(id: number): Promise<Identity> {
    const name = this.names.get(id) ?? `User${id}`;
    if (!this.names.has(id)) {
      await this.client.addUser({
        id,
        first_name: name,
        username: `user${id}`,
        language_code: "en",
      });
      await this.client.setChatMember(DEMO_GROUP.id, id, "member");
      this.names.set(id, name);
    }
    return { id, name };
  }

  private async enterChat(chatId: number): Promise<void> {
    this.chatId = chatId;
    await this.loadChat();
    this.describe();
  }

  private async steerSandbox(command: SandboxCommand): Promise<void> {
    if (this.sandbox === undefined) {
      this.print("(no sandbox: give the chat SANDBOX_URL, or run it through npm run demo)");
      return;
    }
    const { act, said } = SANDBOX_COMMANDS[command];
    await act(this.sandbox);
    this.print(`(sandbox: ${said})`);
  }

  private messagesHere(): Iterable<ChatViewMessage> {
    return this.known.get(this.chatId)?.values() ?? [];
  }

  private remember(message: ChatViewMessage): void {
    const messages = this.known.get(message.chatId) ?? new Map<number, ChatViewMessage>();
    messages.set(message.id, message);
    this.known.set(message.chatId, messages);
  }

  private showEdit(message: ChatViewMessage): void {
    const before = this.known.get(message.chatId)?.get(message.id);
    this.remember(message);
    // Only the buttons went away (the flow moved on): say so instead of repeating the text.
    const buttons = (m?: ChatViewMessage) => m?.replyMarkup?.inline_keyboard.length ?? 0;
    if (before?.text === message.text && buttons(before) > 0 && buttons(message) === 0) {
      this.print(`(#${message.id} buttons removed)`);
    } else {
      this.show(message, " (edited)");
    }
  }

  private show(message: ChatViewMessage, note = ""): void {
    for (const line of formatMessage(message, {
      botUsername: this.botUsername,
      where: message.chatId === this.chatId ? "" : `[${this.chatLabel(message.chatId)}] `,
      mine: !message.fromBot && message.from.id === this.me.id,
      note,
    })) {
      this.print(line);
    }
  }

  private chatLabel(id: number): string {
    return id === DEMO_GROUP.id
      ? `group "${DEMO_GROUP.title}"`
      : `private chat of ${this.names.get(id) ?? `user ${id}`}`;
  }
}

/**
 * A message as the terminal shows it: `#id who: text`, then its buttons numbered row by row.
 * The person's own messages are shown too (marked "you"), so their numbers can be replied to.
 */
export function formatMessage(
  message: ChatViewMessage,
  view: { botUsername: string; where: string; mine: boolean; note: string },
): string[] {
  const who = message.fromBot
    ? `@${view.botUsername}`
    : `${message.from.first_name}${view.mine ? " (you)" : ""}`;
  const reply =
    message.replyToMessageId === undefined ? "" : ` (reply to #${message.replyToMessageId})`;
  const document = message.message.document;
  const body =
    document === undefined
      ? message.text
      : `📎 ${document.file_name} (${document.file_size} bytes)${message.text === "" ? "" : ` ${message.text}`}`;
  const lines = [`${view.where}#${message.id} ${who}${view.note}${reply}: ${body}`];
  if (message.savedFile !== undefined) lines.push(`    saved as ${message.savedFile}`);
  let number = 0;
  for (const row of message.replyMarkup?.inline_keyboard ?? []) {
    const cells = row.map((button) => {
      number += 1;
      return `[${number}] ${buttonLabel(button)}`;
    });
    lines.push(`    ${cells.join("   ")}`);
  }
  return lines;
}

function buttonLabel(button: InlineKeyboardButton): string {
  return typeof button.url === "string" ? `${button.text} ↗` : button.text;
}

/**
 * Follows the emulator's events with held requests until `signal` aborts; a failure waits a
 * second, five failures in a row give up (and `onGiveUp` ends the chat).
 */
async function followEvents(
  client: TelegramEmulatorClient,
  chat: TerminalChat,
  from: number,
  signal: AbortSignal,
  onGiveUp: () => void,
): Promise<void> {
  let after = from;
  let failures = 0;
  // A call, not a property read: TypeScript would keep `signal.aborted` narrowed across awaits.
  const stopped = () => signal.aborted;
  while (!stopped()) {
    try {
      const { events } = await client.events(after, { timeoutMs: 20_000, signal });
      failures = 0;
      for (const event of events) {
        after = Math.max(after, event.seq);
        chat.handleEvent(event);
      }
    } catch (error) {
      if (stopped()) return;
      failures += 1;
      chat.print(`(emulator unreachable: ${errorMessage(error)})`);
      if (failures >= 5) {
        onGiveUp();
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}

/** Handles the lines one at a time, in order, even when they arrive faster than the emulator answers. */
function readLines(rl: Interface, chat: TerminalChat, interactive: boolean): Promise<void> {
  let queue = Promise.resolve(true);
  return new Promise<void>((resolve) => {
    rl.on("line", (line) => {
      queue = queue.then(async (running) => {
        if (!running) return false;
        try {
          const keepGoing = await chat.handleLine(line);
          if (!keepGoing) rl.close();
          else if (interactive) rl.prompt();
          return keepGoing;
        } catch (error) {
          chat.print(`(error: ${errorMessage(error)})`);
          return true;
        }
      });
    });
    rl.on("close", () => resolve(queue.then(() => undefined)));
  });
}

/** Runs the terminal chat until `:quit` or the end of input. */
export async function runTerminalChat(options: TerminalChatOptions): Promise<void> {
  const client = new TelegramEmulatorClient(options.url);
  const output = options.output ?? process.stdout;
  const input = options.input ?? process.stdin;
  const interactive =
    "isTTY" in output && output.isTTY === true && "isTTY" in input && input.isTTY === true;
  const rl = createInterface({ input, output, terminal: interactive });
  rl.setPrompt("> ");
  const print = (line: string): void => {
    if (interactive) {
      output.write(`\r\x1b[K${line}\n`);
      rl.prompt(true);
    } else {
      output.write(`${line}\n`);
    }
  };

  await setUpDemoPeople(client);
  const bot = await client.info();
  const sandbox =
    options.sandboxUrl === undefined ? undefined : new SandboxControlClient(options.sandboxUrl);
  const chat = new TerminalChat(client, bot.botUsername, sandbox, print);
  const stop = new AbortController();
  const following = followEvents(client, chat, await chat.loadChat(), stop.signal, () =>
    rl.close(),
  );

  print(`Connected to the Telegram emulator at ${client.baseUrl} (bot @${bot.botUsername}).`);
  chat.describe();
  print("Type :help for commands.");
  if (interactive) rl.prompt();
  await readLines(rl, chat, interactive);
  stop.abort();
  await following;
  print("Bye.");
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  const url = process.argv[2] ?? process.env.EMULATOR_URL;
  const sandboxUrl = process.argv[3] ?? (process.env.SANDBOX_URL || undefined);
  if (url === undefined || url === "") {
    process.stderr.write(
      "usage: tsx tools/telegram-emulator/terminal-chat.ts <EMULATOR_URL> [SANDBOX_URL] (or set EMULATOR_URL, SANDBOX_URL)\n",
    );
    process.exit(2);
  }
  runTerminalChat({ url, sandboxUrl }).then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`terminal chat failed: ${errorMessage(error)}\n`);
      process.exit(1);
    },
  );
}
