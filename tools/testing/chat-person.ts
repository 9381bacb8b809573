/**
 * A person chatting with the bot in a private chat, for readable specs: send commands and
 * text, press buttons by their label on the bot's latest message that shows them, and read
 * what the bot sent to this chat. Everything goes through `bot.handleUpdate` with real update
 * objects and is observed through the recording Telegram fake.
 */
import type { Message, Update, User } from "grammy/types";
import type { RecordedCall, TelegramFake } from "./telegram-fake.js";
import type { UpdateFactory } from "./updates.js";

export interface ChatWorld {
  send(update: Update): Promise<void>;
  readonly telegram: TelegramFake;
  readonly updates: UpdateFactory;
}

export interface ChatPerson {
  readonly user: User;
  readonly chatId: number;
  command(name: string, args?: string): Promise<void>;
  say(text: string): Promise<void>;
  /** Presses a button with exactly this callback data on message `messageId`. */
  press(data: string, messageId: number): Promise<void>;
  /** Presses the button labelled `label` on the newest bot message in this chat that has it. */
  pressButton(label: string): Promise<void>;
  /** A stars flow up to its summary: /stars, the recipient, an amount button (e.g. "⭐ 50"). */
  starsSummary(recipient: string, amountButton: string): Promise<Message>;
  /** A whole stars gift: {@link starsSummary}, then Confirm. */
  giftStars(recipient: string, amountButton: string): Promise<void>;
  /** Finds the newest message with that button: its id and the button's data. */
  findButton(label: string): { messageId: number; data: string };
  /** The bot's messages in this chat as they look now, oldest first. */
  messages(): Message[];
  /** The newest bot message in this chat. */
  lastMessage(): Message;
  /** Calls addressed to this chat (or answering this person's button presses) after `since`. */
  callsSince(since: number): RecordedCall[];
}

/** The text of a message's inline keyboard as rows of labels (empty when it has none). */
export function buttonsOf(message: Message | undefined): string[][] {
  return message?.reply_markup?.inline_keyboard.map((row) => row.map((b) => b.text)) ?? [];
}

export function chatPerson(world: ChatWorld, user: User): ChatPerson {
  const chatId = user.id;
  const pressedIds = new Set<string>();

  function findButton(label: string): { messageId: number; data: string } {
    const messages = world.telegram.messagesIn(chatId);
    for (let i = messages.length - 1; i >= 0; i--) {
      const message = messages[i];
      for (const row of message?.reply_markup?.inline_keyboard ?? []) {
        for (const button of row) {
          if (button.text === label && "callback_data" in button && message) {
            return { messageId: message.message_id, data: button.callback_data };
          }
        }
      }
    }
    throw new Error(`No button labelled "${label}" in chat ${chatId}`);
  }

  async function press(data: string, messageId: number): Promise<void> {
    const shown = world.telegram.message(chatId, messageId);
    const update = world.updates.callback(user, data, messageId, chatId, {
      ...(shown?.text !== undefined ? { text: shown.text } : {}),
      ...(shown?.reply_markup ? { reply_markup: shown.reply_markup } : {}),
    });
    if (update.callback_query) pressedIds.add(update.callback_query.id);
    await world.send(update);
  }

  async function pressButton(label: string): Promise<void> {
    const { messageId, data } = findButton(label);
    await press(data, messageId);
  }

  function lastMessage(): Message {
    const last = world.telegram.messagesIn(chatId).at(-1);
    if (last === undefined) throw new Error(`The bot sent nothing to chat ${chatId}`);
    return last;
  }

  async function starsSummary(recipient: string, amountButton: string): Promise<Message> {
    await world.send(world.updates.command(user, "stars"));
    await world.send(world.updates.text(user, recipient));
    await pressButton(amountButton);
    return lastMessage();
  }

  return {
    user,
    chatId,
    command: (name, args) => world.send(world.updates.command(user, name, args)),
    say: (text) => world.send(world.updates.text(user, text)),
    press,
    pressButton,
    starsSummary,
    async giftStars(recipient, amountButton) {
      await starsSummary(recipient, amountButton);
      await pressButton("✅ Confirm");
    },
    findButton,
    messages: () => world.telegram.messagesIn(chatId),
    lastMessage,
    callsSince: (since) =>
      world.telegram
        .callsSince(since)
        .filter(
          (c) =>
            Number(c.payload.chat_id) === chatId ||
            pressedIds.has(String(c.payload.callback_query_id)),
        ),
  };
}
