/**
 * What a line typed in the terminal chat means, decided without side effects so it can be unit
 * tested. The rule a newcomer can rely on: whatever does not start with `#<digits>` or `:` is a
 * message to the bot, numbers included (a bot asking "Send the number of stars" gets the number).
 * Buttons are pressed only with `#N` or `:press N`, on the bot's latest message that has buttons
 * unless a message is named (`:press N #M`). The bot takes the buttons off a step it has left, so
 * that is the keyboard the person is looking at, even when the bot's last word was a file (a
 * giveaway's list) or a "send that again" after a mistyped amount.
 */
import type { ChatViewMessage, InlineKeyboardButton } from "./types.js";

/** One typed line, parsed. */
export type ChatInput =
  | { type: "empty" }
  /** A message to the bot, as typed (trimmed). */
  | { type: "text"; text: string }
  /**
   * Press button `button` (1-based, counted row by row) of message `messageId`, or of the bot's
   * latest message that has buttons.
   */
  | { type: "press"; button: number; messageId?: number }
  /** A `:command` with its words after it; `rest` keeps the text after the first word as typed. */
  | { type: "command"; name: string; args: string[]; rest: string }
  /** A malformed `#…` or `:press`: what to print instead. */
  | { type: "invalid"; message: string };

const PRESS_USAGE =
  "(use #N or :press N to press button N of the bot's latest message with buttons, :press N #M for message #M)";

/** Parses one line of the terminal chat. */
export function parseChatLine(line: string): ChatInput {
  const text = line.trim();
  if (text === "") return { type: "empty" };
  const shortPress = /^#(\d+)$/.exec(text);
  if (shortPress) return press(shortPress[1]);
  if (!text.startsWith(":")) return { type: "text", text };
  const [name = "", ...args] = text.slice(1).split(/\s+/);
  if (name === "press") return parsePress(args);
  const rest = text.slice(1 + name.length).trim();
  return { type: "command", name, args, rest };
}

function parsePress(args: string[]): ChatInput {
  const [button, message, ...extra] = args;
  if (button === undefined || extra.length > 0 || !/^\d+$/.test(button)) {
    return { type: "invalid", message: PRESS_USAGE };
  }
  if (message === undefined) return press(button);
  const id = /^#?(\d+)$/.exec(message)?.[1];
  if (id === undefined) return { type: "invalid", message: PRESS_USAGE };
  const parsed = press(button);
  return parsed.type === "press" ? { ...parsed, messageId: Number(id) } : parsed;
}

function press(digits: string | undefined): ChatInput {
  const button = Number(digits);
  if (!Number.isSafeInteger(button) || button < 1) return { type: "invalid", message: PRESS_USAGE };
  return { type: "press", button };
}

/** The bot's newest message in a chat (by message id), with or without buttons. */
export function latestBotMessage(messages: Iterable<ChatViewMessage>): ChatViewMessage | undefined {
  let latest: ChatViewMessage | undefined;
  for (const message of messages) {
    if (message.fromBot && (latest === undefined || message.id > latest.id)) latest = message;
  }
  return latest;
}

/** A button found by its number: where it sits, for pressing it by position. */
export interface FoundButton {
  message: ChatViewMessage;
  row: number;
  column: number;
  button: InlineKeyboardButton;
}

/**
 * The button a press means, among the messages of the current chat: button `number` of message
 * `messageId` when given, else of the bot's latest message that has buttons. A string says why
 * there is none.
 */
export function findButton(
  messages: Iterable<ChatViewMessage>,
  number: number,
  messageId?: number,
): FoundButton | string {
  const all = [...messages];
  if (messageId === undefined) {
    if (latestBotMessage(all) === undefined) return "(no bot message here yet)";
    const message = latestBotMessage(all.filter((m) => buttonCount(m) > 0));
    if (message === undefined) return "(no bot message here has buttons now)";
    return buttonOf(message, number);
  }
  const message = all.find((m) => m.id === messageId);
  if (message === undefined) return `(no message #${messageId} here)`;
  if (!message.fromBot) return `(message #${message.id} is not the bot's)`;
  return buttonOf(message, number);
}

function buttonCount(message: ChatViewMessage): number {
  return (message.replyMarkup?.inline_keyboard ?? []).reduce((n, row) => n + row.length, 0);
}

/** Button `number` of a message, counted row by row, or why it has none. */
function buttonOf(message: ChatViewMessage, number: number): FoundButton | string {
  const rows = message.replyMarkup?.inline_keyboard ?? [];
  let count = 0;
  for (const [row, buttons] of rows.entries()) {
    for (const [column, button] of buttons.entries()) {
      count += 1;
      if (count === number) return { message, row, column, button };
    }
  }
  if (count === 0) return `(message #${message.id} has no buttons)`;
  return `(message #${message.id} has no button ${number}; it has ${count})`;
}

/**
 * A reminder printed after a number was sent as text while `#<that number>` would have pressed a
 * button: the person may have meant to press it.
 */
export function numberSentAsTextHint(
  text: string,
  messages: Iterable<ChatViewMessage>,
): string | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  const found = findButton(messages, Number(text));
  if (typeof found === "string") return undefined;
  return `(sent "${text}" as a message; to press button ${text}, "${found.button.text}" of #${found.message.id}, type #${text})`;
}
