/**
 * Real Telegram update objects for `bot.handleUpdate`: private text messages (with
 * `bot_command` entities for commands) and callback queries, with increasing update ids and
 * message ids, as Telegram would send them.
 */
import type { InlineKeyboardMarkup, Update, User } from "grammy/types";

export interface TestUser {
  id: number;
  first_name: string;
  language_code?: string;
  username?: string;
}

/** A person; `language_code` defaults to English. */
export function testUser(id: number, overrides: Partial<TestUser> = {}): User {
  return {
    id,
    is_bot: false,
    first_name: overrides.first_name ?? `Person${id}`,
    language_code: overrides.language_code ?? "en",
    ...(overrides.username ? { username: overrides.username } : {}),
  };
}

export interface UpdateFactory {
  /** A private-chat text message; a leading `/command` gets its bot_command entity. */
  text(from: User, text: string): Update;
  /** `/name args` in a private chat. */
  command(from: User, name: string, args?: string): Update;
  /**
   * A text message in a group (`chatId` < 0), optionally replying to another person's message
   * (how a group administrator points at the member to gift).
   */
  groupText(
    from: User,
    chatId: number,
    text: string,
    replyTo?: { from: User; text?: string },
  ): Update;
  /**
   * A press of an inline button on the bot's message `messageId` (in the person's private chat
   * unless `chatId` says otherwise). `message` carries the pressed message's current text and
   * keyboard, as Telegram includes them.
   */
  callback(
    from: User,
    data: string,
    messageId: number,
    chatId?: number,
    message?: { text?: string; reply_markup?: InlineKeyboardMarkup },
  ): Update;
}

export function createUpdateFactory(start = 1): UpdateFactory {
  let updateId = start;
  let messageId = 1;
  const now = () => Math.floor(Date.now() / 1000);

  function text(from: User, body: string): Update {
    const command = /^\/[A-Za-z0-9_]+(@[A-Za-z0-9_]+)?/.exec(body);
    return {
      update_id: updateId++,
      message: {
        message_id: messageId++,
        date: now(),
        chat: { id: from.id, type: "private", first_name: from.first_name },
        from,
        text: body,
        ...(command
          ? { entities: [{ type: "bot_command", offset: 0, length: command[0].length }] }
          : {}),
      },
    };
  }

  function groupText(
    from: User,
    chatId: number,
    body: string,
    replyTo?: { from: User; text?: string },
  ): Update {
    const command = /^\/[A-Za-z0-9_]+(@[A-Za-z0-9_]+)?/.exec(body);
    const chat = { id: chatId, type: "supergroup" as const, title: "Group" };
    return {
      update_id: updateId++,
      message: {
        message_id: messageId++,
        date: now(),
        chat,
        from,
        text: body,
        ...(command
          ? { entities: [{ type: "bot_command" as const, offset: 0, length: command[0].length }] }
          : {}),
        ...(replyTo
          ? {
              reply_to_message: {
                message_id: messageId++,
                date: now(),
                chat,
                from: replyTo.from,
                text: replyTo.text ?? "",
              },
            }
          : {}),
      },
    } as Update;
  }

  return {
    text,
    groupText,
    command: (from, name, args) => text(from, args ? `/${name} ${args}` : `/${name}`),
    callback(from, data, onMessage, chatId = from.id, shown = {}) {
      return {
        update_id: updateId++,
        callback_query: {
          id: `cq-${updateId}`,
          from,
          chat_instance: `ci-${chatId}`,
          data,
          message: {
            message_id: onMessage,
            date: now(),
            chat:
              chatId > 0
                ? { id: chatId, type: "private", first_name: from.first_name }
                : { id: chatId, type: "supergroup", title: "Group" },
            text: shown.text ?? "",
            ...(shown.reply_markup ? { reply_markup: shown.reply_markup } : {}),
          },
        },
      };
    },
  };
}
