/**
 * A lean in-process Telegram for `client.fetch`, answering like tools/testing/telegram-fake.ts
 * (sent messages get per-chat increasing ids, edits return the message) but keeping only what
 * the bench's simulated people need: each chat's last text and the newest message with buttons.
 * The recording fake keeps every call and scans all messages to find a button, which would make
 * the bench measure the fake; both bots in the comparison use this same stub.
 */
import type { ApiClientOptions } from "grammy";
import type { UserFromGetMe } from "grammy/types";

/** The newest bot message in a chat that still shows buttons. */
interface ShownKeyboard {
  messageId: number;
  /** Callback data of every button, row by row. */
  data: string[];
  text: string;
}

interface ChatView {
  nextId: number;
  lastText: string;
  keyboard: ShownKeyboard | undefined;
}

export interface TelegramStub {
  fetch: NonNullable<ApiClientOptions["fetch"]>;
  /** Calls answered so far. */
  readonly calls: number;
  keyboard(chatId: number): ShownKeyboard | undefined;
  /** The text of the last message sent or edited in the chat. */
  lastText(chatId: number): string | undefined;
  /** Called after each answered call (method, chat id when the call has one). */
  onCall?: (method: string, chatId: number | undefined, text: string | undefined) => void;
  /** Forgets every chat (message ids start again). */
  reset(): void;
}

type Markup = { inline_keyboard?: { callback_data?: string }[][] } | undefined;

function buttonData(markup: Markup): string[] | undefined {
  const rows = markup?.inline_keyboard;
  if (rows === undefined) return undefined;
  return rows.flatMap((row) => row.map((b) => b.callback_data ?? ""));
}

export function createTelegramStub(botInfo: UserFromGetMe): TelegramStub {
  let chats = new Map<number, ChatView>();
  let calls = 0;

  const view = (chatId: number): ChatView => {
    let chat = chats.get(chatId);
    if (chat === undefined) {
      chat = { nextId: 1001, lastText: "", keyboard: undefined };
      chats.set(chatId, chat);
    }
    return chat;
  };

  const stub: TelegramStub = {
    fetch: undefined as unknown as TelegramStub["fetch"],
    get calls() {
      return calls;
    },
    keyboard: (chatId) => chats.get(chatId)?.keyboard,
    lastText: (chatId) => chats.get(chatId)?.lastText,
    reset: () => {
      chats = new Map();
    },
  };

  const answer = (method: string, p: Record<string, unknown>): unknown => {
    const chatId = p.chat_id === undefined ? undefined : Number(p.chat_id);
    const text = typeof p.text === "string" ? p.text : undefined;
    let result: unknown = true;
    if (chatId !== undefined && (method === "sendMessage" || method.startsWith("edit"))) {
      const chat = view(chatId);
      const messageId = method === "sendMessage" ? chat.nextId++ : Number(p.message_id);
      const data = buttonData(p.reply_markup as Markup);
      if (text !== undefined) chat.lastText = text;
      if (data !== undefined) {
        chat.keyboard = { messageId, data, text: text ?? chat.keyboard?.text ?? "" };
      } else if (method !== "sendMessage" && chat.keyboard?.messageId === messageId) {
        chat.keyboard = undefined;
      }
      result = {
        message_id: messageId,
        date: Math.floor(Date.now() / 1000),
        chat: { id: chatId, type: "private", first_name: "Person" },
        from: botInfo,
        text: text ?? "",
        ...(p.reply_markup ? { reply_markup: p.reply_markup } : {}),
      };
    } else if (method === "getMe") {
      result = botInfo;
    }
    stub.onCall?.(method, chatId, text);
    return result;
  };

  const fetch = (url: unknown, init?: { body?: unknown }): Promise<Response> => {
    calls++;
    const method = String(url).split("/").pop() ?? "";
    const body = init?.body;
    const payload =
      typeof body === "string" && body.length > 0
        ? (JSON.parse(body) as Record<string, unknown>)
        : {};
    const result = answer(method, payload);
    const response = new Response(JSON.stringify({ ok: true, result }), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
    return Promise.resolve(response);
  };
  stub.fetch = fetch;
  return stub;
}
