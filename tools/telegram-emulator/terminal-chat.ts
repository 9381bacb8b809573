/**
 * A chat in the terminal against a running emulator, so a person can use the bot without
 * Telegram: type as a user (or the admin, or in the demo group), see the bot's messages and
 * edits with numbered buttons, press a button by its number.
 *
 *   tsx tools/telegram-emulator/terminal-chat.ts [EMULATOR_URL [SANDBOX_URL]]
 *   (or EMULATOR_URL and SANDBOX_URL in the env; without a sandbox, :expire-session and the
 *   other sandbox commands are unavailable)
 *
 * It follows the emulator with held `/__emulator/events` requests: no busy polling.
 */
import { createInterface, type Interface } from "node:readline";
import { pathToFileURL } from "node:url";
import { SandboxControlClient } from "../sandbox/control-client.js";
import { TelegramEmulatorClient } from "./client.js";
import { DEMO_ADMIN, DEMO_GROUP, DEMO_USER, setUpDemoPeople } from "./demo-people.js";
import type { ChatEvent, ChatViewMessage, InlineKeyboardButton } from "./types.js";

const HELP = `Commands:
  <text>            send a message (or a /command) as the current person
  <N> or :press N   press button N of the last bot message with buttons
  :reply ID <text>  reply to message #ID
  :as admin|user|ID act as the demo admin, the demo user, or any user id
  :group            talk in the demo group ("${DEMO_GROUP.title}")
  :private          talk in your private chat with the bot
  :who              show who you are and where
  :expire-session   the sandbox's marketplace session expires: purchases are refused
  :restore-session  the marketplace session is valid again
  :drain-wallet     the sandbox's wallet is emptied: purchases are refused (insufficient funds)
  :refill-wallet    the wallet gets its starting balance back
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

interface Identity {
  id: number;
  name: string;
}

/** Runs the terminal chat until `:quit` or the end of input. */
export async function runTerminalChat(options: TerminalChatOptions): Promise<void> {
  const client = new TelegramEmulatorClient(options.url);
  const output = options.output ?? process.stdout;
  const input = options.input ?? process.stdin;
  const interactive =
    "isTTY" in output && output.isTTY === true && "isTTY" in input && input.isTTY === true;
  const rl: Interface = createInterface({ input, output, terminal: interactive });
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
  let me: Identity = { id: DEMO_USER.id, name: DEMO_USER.first_name };
  let chatId: number = me.id;
  /** Messages of the chats we have seen, as the person sees them now. */
  const known = new Map<number, Map<number, ChatViewMessage>>();
  const names = new Map<number, string>([
    [DEMO_ADMIN.id, DEMO_ADMIN.first_name],
    [DEMO_USER.id, DEMO_USER.first_name],
  ]);

  const chatLabel = (id: number): string =>
    id === DEMO_GROUP.id
      ? `group "${DEMO_GROUP.title}"`
      : `private chat of ${names.get(id) ?? `user ${id}`}`;

  const remember = (message: ChatViewMessage): void => {
    const messages = known.get(message.chatId) ?? new Map<number, ChatViewMessage>();
    messages.set(message.id, message);
    known.set(message.chatId, messages);
  };

  const show = (message: ChatViewMessage, note = ""): void => {
    const where = message.chatId === chatId ? "" : `[${chatLabel(message.chatId)}] `;
    const who = message.fromBot ? `@${bot.botUsername}` : message.from.first_name;
    const reply =
      message.replyToMessageId === undefined ? "" : ` (reply to #${message.replyToMessageId})`;
    print(`${where}#${message.id} ${who}${note}${reply}: ${message.text}`);
    let number = 0;
    for (const row of message.replyMarkup?.inline_keyboard ?? []) {
      const cells = row.map((button) => {
        number += 1;
        return `[${number}] ${buttonLabel(button)}`;
      });
      print(`    ${cells.join("   ")}`);
    }
  };

  const lastWithButtons = (): ChatViewMessage | undefined => {
    const messages = [...(known.get(chatId)?.values() ?? [])].sort((a, b) => b.id - a.id);
    return messages.find(
      (message) => message.fromBot && (message.replyMarkup?.inline_keyboard.length ?? 0) > 0,
    );
  };

  const loadChat = async (): Promise<number> => {
    const { messages, lastEventSeq } = await client.chat(chatId);
    known.set(chatId, new Map(messages.map((message) => [message.id, message])));
    return lastEventSeq;
  };

  const describe = (): void =>
    print(`You are ${me.name} (id ${me.id}), in the ${chatLabel(chatId)}.`);

  const handleEvent = (event: ChatEvent): void => {
    switch (event.type) {
      case "message":
        remember(event.message);
        // What you typed yourself is already on your screen.
        if (event.message.fromBot || event.message.from.id !== me.id) show(event.message);
        break;
      case "edited": {
        const before = known.get(event.chatId)?.get(event.message.id);
        remember(event.message);
        // Only the buttons went away (the flow moved on): say so instead of repeating the text.
        const buttons = (message?: ChatViewMessage) =>
          message?.replyMarkup?.inline_keyboard.length ?? 0;
        if (
          before?.text === event.message.text &&
          buttons(before) > 0 &&
          buttons(event.message) === 0
        ) {
          print(`(#${event.message.id} buttons removed)`);
        } else {
          show(event.message, " (edited)");
        }
        break;
      }
      case "deleted":
        known.get(event.chatId)?.delete(event.messageId);
        print(`(#${event.messageId} deleted)`);
        break;
      case "callback_answer":
        if (event.answer.text !== undefined) {
          print(`${event.answer.showAlert ? "(alert)" : "(toast)"} ${event.answer.text}`);
        }
        break;
      case "chat_action":
        if (event.chatId === chatId) print(`(@${bot.botUsername} is ${event.action}...)`);
        break;
    }
  };

  // Follow the emulator's events with held requests; a failure waits a second, a few failures end.
  const stop = new AbortController();
  let after = await loadChat();
  const follow = async (): Promise<void> => {
    let failures = 0;
    while (!stop.signal.aborted) {
      try {
        const { events } = await client.events(after, { timeoutMs: 20_000, signal: stop.signal });
        failures = 0;
        for (const event of events) {
          after = Math.max(after, event.seq);
          handleEvent(event);
        }
      } catch (error) {
        if (stop.signal.aborted) return;
        failures += 1;
        print(`(emulator unreachable: ${error instanceof Error ? error.message : String(error)})`);
        if (failures >= 5) {
          rl.close();
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  };
  const following = follow();

  const press = async (number: number): Promise<void> => {
    const message = lastWithButtons();
    if (message === undefined) {
      print("(no bot message with buttons here)");
      return;
    }
    let count = 0;
    for (const [row, buttons] of (message.replyMarkup?.inline_keyboard ?? []).entries()) {
      for (const [col, button] of buttons.entries()) {
        count += 1;
        if (count !== number) continue;
        if (typeof button.callback_data !== "string") {
          print(`(button ${number} opens ${button.url ?? "something the terminal cannot open"})`);
          return;
        }
        print(`(you pressed "${button.text}")`);
        await client.pressButtonAt(me.id, chatId, message.id, row, col);
        return;
      }
    }
    print(`(message #${message.id} has no button ${number})`);
  };

  const switchTo = async (target: string): Promise<void> => {
    if (target === "admin") me = { id: DEMO_ADMIN.id, name: DEMO_ADMIN.first_name };
    else if (target === "user") me = { id: DEMO_USER.id, name: DEMO_USER.first_name };
    else if (/^\d+$/.test(target)) {
      const id = Number(target);
      const name = names.get(id) ?? `User${id}`;
      if (!names.has(id)) {
        await client.addUser({ id, first_name: name, username: `user${id}`, language_code: "en" });
        await client.setChatMember(DEMO_GROUP.id, id, "member");
        names.set(id, name);
      }
      me = { id, name };
    } else {
      print("(use :as admin, :as user or :as <user id>)");
      return;
    }
    if (chatId !== DEMO_GROUP.id) chatId = me.id;
    await loadChat();
    describe();
  };

  const sandbox =
    options.sandboxUrl === undefined ? undefined : new SandboxControlClient(options.sandboxUrl);
  const steerSandbox = async (
    command: "expire-session" | "restore-session" | "drain-wallet" | "refill-wallet",
  ): Promise<void> => {
    if (sandbox === undefined) {
      print("(no sandbox: give the chat SANDBOX_URL, or run it through npm run demo)");
      return;
    }
    const steps = {
      "expire-session": [
        () => sandbox.expireSession(),
        "the marketplace session expired: the service refuses purchases until :restore-session",
      ],
      "restore-session": [() => sandbox.restoreSession(), "the marketplace session is valid again"],
      "drain-wallet": [
        () => sandbox.drainWallet(),
        "the wallet is empty: the service refuses purchases for insufficient funds",
      ],
      "refill-wallet": [() => sandbox.refillWallet(), "the wallet has its starting balance again"],
    } as const;
    const [act, said] = steps[command];
    await act();
    print(`(sandbox: ${said})`);
  };

  const handleLine = async (line: string): Promise<boolean> => {
    const text = line.trim();
    if (text === "") return true;
    if (/^\d+$/.test(text)) {
      await press(Number(text));
      return true;
    }
    if (!text.startsWith(":")) {
      await client.sendText(me.id, chatId, text);
      return true;
    }
    const [command = "", ...rest] = text.slice(1).split(/\s+/);
    switch (command) {
      case "quit":
      case "q":
        return false;
      case "help":
        print(HELP);
        break;
      case "who":
        describe();
        break;
      case "press":
        await press(Number(rest[0]));
        break;
      case "as":
        await switchTo(rest[0] ?? "");
        break;
      case "group":
        chatId = DEMO_GROUP.id;
        await loadChat();
        describe();
        break;
      case "private":
        chatId = me.id;
        await loadChat();
        describe();
        break;
      case "reply": {
        const replyTo = Number(rest[0]);
        const body = rest.slice(1).join(" ");
        if (!Number.isInteger(replyTo) || body === "") print("(use :reply <message id> <text>)");
        else await client.sendText(me.id, chatId, body, { replyToMessageId: replyTo });
        break;
      }
      case "expire-session":
      case "restore-session":
      case "drain-wallet":
      case "refill-wallet":
        await steerSandbox(command);
        break;
      default:
        print(`(unknown command :${command}; :help lists them)`);
    }
    return true;
  };

  print(`Connected to the Telegram emulator at ${client.baseUrl} (bot @${bot.botUsername}).`);
  describe();
  print("Type :help for commands.");
  if (interactive) rl.prompt();

  // Lines are handled one at a time, in order, even when they arrive faster than the emulator answers.
  let queue = Promise.resolve(true);
  await new Promise<void>((resolve) => {
    rl.on("line", (line) => {
      queue = queue.then(async (running) => {
        if (!running) return false;
        try {
          const keepGoing = await handleLine(line);
          if (!keepGoing) rl.close();
          else if (interactive) rl.prompt();
          return keepGoing;
        } catch (error) {
          print(`(error: ${error instanceof Error ? error.message : String(error)})`);
          return true;
        }
      });
    });
    rl.on("close", () => resolve());
  });
  await queue;
  stop.abort();
  await following;
  print("Bye.");
}

function buttonLabel(button: InlineKeyboardButton): string {
  return typeof button.url === "string" ? `${button.text} ↗` : button.text;
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  const url = process.argv[2] ?? process.env.EMULATOR_URL;
  const sandboxUrl = process.argv[3] ?? (process.env.SANDBOX_URL || undefined);
  if (url === undefined || url === "") {
    process.stderr.write(
      "usage: tsx tools/telegram-emulator/terminal-chat.ts <EMULATOR_URL> (or set EMULATOR_URL)\n",
    );
    process.exit(2);
  }
  runTerminalChat({ url, sandboxUrl }).then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(
        `terminal chat failed: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}
