/**
 * A fake Telegram Bot API behind grammY's `client.fetch`, the one interception point that also
 * sees calls made inside conversations (stack facts). It records every outgoing call (method and
 * payload) in order and answers with realistic results: sent messages get increasing message ids
 * per chat, edits return the edited message, everything else `true` unless a canned answer is set.
 *
 * Waiting is event-based: `waitForCall` resolves when a matching call is recorded.
 */
import type { ApiClientOptions } from "grammy";
import type { Chat, Message, UserFromGetMe } from "grammy/types";
import { readMultipart } from "../telegram-emulator/multipart.js";
import { AnswerDropped } from "../telegram-emulator/stars.js";

/** One outgoing Bot API call as the bot made it. */
export interface RecordedCall {
  /** Bot API method name, e.g. `sendMessage`. */
  method: string;
  /**
   * The JSON payload the bot sent (already parsed); for an upload (multipart/form-data, e.g.
   * sendDocument with an InputFile), its text fields, and each file as `{ filename, text }`.
   */
  payload: Record<string, unknown>;
  /** Order of the call among all recorded calls, from 1. */
  seq: number;
  /** What the fake answered (`result`, e.g. the sent Message), or undefined for an error. */
  result?: unknown;
}

/** A canned answer: the `result` to return, or an error Telegram would send. */
export type CannedAnswer =
  | { ok: true; result: unknown }
  | { ok: false; error_code: number; description: string; parameters?: Record<string, unknown> };

/**
 * A canned answer; `fallback` gives what the fake would have answered without it. Throwing
 * {@link AnswerDropped} drops the answer: the connection resets, or no answer ever comes (until
 * the caller aborts).
 */
type AnswerFn = (
  payload: Record<string, unknown>,
  call: RecordedCall,
  fallback: () => CannedAnswer,
) => CannedAnswer;

export interface TelegramFakeOptions {
  /** The bot itself, used as `from` of the messages it sends. */
  botInfo?: UserFromGetMe;
  /** Canned answers per method (getChatMember, getChatAdministrators, ...). */
  answers?: Record<string, AnswerFn>;
}

export interface TelegramFake {
  /** Pass as `client.fetch` (createBot's `deps.fetch`). */
  fetch: NonNullable<ApiClientOptions["fetch"]>;
  /** Every call so far, in order. */
  readonly calls: readonly RecordedCall[];
  /** Calls of one method. */
  callsOf(method: string): RecordedCall[];
  /** Calls recorded after the given sequence number (see `mark`). */
  callsSince(seq: number): RecordedCall[];
  /** The current last sequence number, to look only at later calls. */
  mark(): number;
  /** Sets (or replaces) the canned answer of a method. */
  answer(method: string, fn: AnswerFn): void;
  /** Resolves when a call matching the predicate is (or already was) recorded after `since`. */
  waitForCall(
    predicate: (call: RecordedCall) => boolean,
    options?: { since?: number },
  ): Promise<RecordedCall>;
  /** Drops the recorded calls (message ids keep counting). */
  clear(): void;
  /** The bot's messages in a chat as the person sees them now (edits applied), oldest first. */
  messagesIn(chatId: number): Message[];
  /** One message as it is now, or undefined. */
  message(chatId: number, messageId: number): Message | undefined;
  /**
   * A file people can send: `getFile` answers its path, and its download URL
   * (`/file/bot<token>/<path>`) its content.
   */
  addFile(fileId: string, content: string | Uint8Array): void;
}

/** Telegram's limits on a message's text and a file's caption, in UTF-16 units. */
const TELEGRAM_MAX_TEXT = 4096;
const TELEGRAM_MAX_CAPTION = 1024;

/** The bot every test talks to unless told otherwise. */
export const TEST_BOT_INFO: UserFromGetMe = {
  id: 7_000_000_001,
  is_bot: true,
  first_name: "Gift Bot",
  username: "gift_test_bot",
  can_join_groups: true,
  can_read_all_group_messages: false,
  supports_inline_queries: false,
  can_connect_to_business: false,
  has_main_web_app: false,
  has_topics_enabled: false,
  allows_users_to_create_topics: false,
} as UserFromGetMe;

export function createTelegramFake(options: TelegramFakeOptions = {}): TelegramFake {
  const botInfo = options.botInfo ?? TEST_BOT_INFO;
  const calls: RecordedCall[] = [];
  const answers = new Map<string, AnswerFn>(Object.entries(options.answers ?? {}));
  const nextMessageId = new Map<number, number>();
  const messages = new Map<string, Message>();
  const waiters = new Set<{
    since: number;
    test: (c: RecordedCall) => boolean;
    done: (c: RecordedCall) => void;
  }>();
  let seq = 0;
  const files = new Map<string, Uint8Array>();

  function chatOf(chatId: unknown): Chat {
    const id = Number(chatId);
    return id > 0
      ? { id, type: "private", first_name: "Person" }
      : { id, type: "supergroup", title: "Group" };
  }

  function sent(payload: Record<string, unknown>): Message {
    const chat = chatOf(payload.chat_id);
    // Realistic ids: per chat, increasing, starting well above the person's own message ids.
    const messageId = (nextMessageId.get(chat.id) ?? 1000) + 1;
    nextMessageId.set(chat.id, messageId);
    const message = {
      message_id: messageId,
      date: Math.floor(Date.now() / 1000),
      chat,
      from: botInfo,
      text: typeof payload.text === "string" ? payload.text : "",
      ...(payload.reply_markup ? { reply_markup: payload.reply_markup } : {}),
    } as Message;
    messages.set(`${chat.id}:${messageId}`, message);
    return message;
  }

  function edited(payload: Record<string, unknown>): CannedAnswer {
    if (payload.inline_message_id !== undefined) return { ok: true, result: true };
    const key = `${Number(payload.chat_id)}:${Number(payload.message_id)}`;
    const old = messages.get(key);
    if (old === undefined) {
      return { ok: false, error_code: 400, description: "Bad Request: message to edit not found" };
    }
    const next: Record<string, unknown> = { ...old, edit_date: Math.floor(Date.now() / 1000) };
    if (typeof payload.text === "string") next.text = payload.text;
    if (payload.reply_markup !== undefined) next.reply_markup = payload.reply_markup;
    else delete next.reply_markup;
    messages.set(key, next as unknown as Message);
    return { ok: true, result: next };
  }

  function defaultAnswer(method: string, payload: Record<string, unknown>): CannedAnswer {
    const tooLong = overTelegramLimits(payload);
    if (tooLong !== undefined) return { ok: false, error_code: 400, description: tooLong };
    switch (method) {
      case "getMe":
        return { ok: true, result: botInfo };
      case "sendMessage":
        return { ok: true, result: sent(payload) };
      case "editMessageText":
      case "editMessageReplyMarkup":
        return edited(payload);
      case "getChatMember":
        return {
          ok: true,
          result: {
            status: "member",
            user: { id: Number(payload.user_id), is_bot: false, first_name: "Member" },
          },
        };
      case "getChatAdministrators":
        return { ok: true, result: [] };
      case "getFile": {
        const fileId = String(payload.file_id);
        const content = files.get(fileId);
        return content === undefined
          ? { ok: false, error_code: 400, description: "Bad Request: invalid file_id" }
          : {
              ok: true,
              result: {
                file_id: fileId,
                file_unique_id: fileId,
                file_size: content.byteLength,
                file_path: `documents/${fileId}`,
              },
            };
      }
      case "deleteMessage":
        // The message is gone for everyone: messagesIn no longer lists it.
        messages.delete(`${Number(payload.chat_id)}:${Number(payload.message_id)}`);
        return { ok: true, result: true };
      default:
        return { ok: true, result: true };
    }
  }

  /** Records the call, answers it and wakes whoever waits for it. */
  const respond = (method: string, payload: Record<string, unknown>): Response | AnswerDropped => {
    const call: RecordedCall = { method, payload, seq: ++seq };
    calls.push(call);
    const custom = answers.get(method);
    const fallback = () => defaultAnswer(method, payload);
    let answer: CannedAnswer;
    try {
      answer = custom ? custom(payload, call, fallback) : fallback();
    } catch (error) {
      if (!(error instanceof AnswerDropped)) throw error;
      wake(call);
      return error;
    }
    if (answer.ok) call.result = answer.result;
    wake(call);
    return new Response(JSON.stringify(answer), {
      status: answer.ok ? 200 : answer.error_code,
      headers: { "content-type": "application/json" },
    });
  };

  function wake(call: RecordedCall): void {
    for (const waiter of [...waiters]) {
      if (call.seq > waiter.since && waiter.test(call)) {
        waiters.delete(waiter);
        waiter.done(call);
      }
    }
  }

  // Not async (the type-checked lint): an upload's multipart body is read first, then answered.
  const fakeFetch = (
    url: unknown,
    init?: {
      body?: unknown;
      headers?: ConstructorParameters<typeof Headers>[0];
      signal?: AbortSignal | null;
    },
  ): Promise<Response> => {
    const download = /\/file\/bot[^/]+\/documents\/([^/]+)$/.exec(String(url));
    if (download !== null) {
      const content = files.get(download[1] ?? "");
      return Promise.resolve(
        content === undefined ? new Response("", { status: 404 }) : new Response(content),
      );
    }
    const method = String(url).split("/").pop() ?? "";
    const body = init?.body;
    if (isStream(body)) {
      const contentType = new Headers(init?.headers).get("content-type") ?? "";
      return multipartPayload(body, contentType).then((payload) => {
        const answer = respond(method, payload);
        return answer instanceof AnswerDropped ? dropped(answer, undefined) : answer;
      });
    }
    const payload =
      typeof body === "string" && body.length > 0
        ? (JSON.parse(body) as Record<string, unknown>)
        : {};
    const answer = respond(method, payload);
    return answer instanceof AnswerDropped
      ? dropped(answer, init?.signal ?? undefined)
      : Promise.resolve(answer);
  };

  return {
    fetch: fakeFetch,
    get calls() {
      return calls;
    },
    callsOf: (method) => calls.filter((c) => c.method === method),
    callsSince: (since) => calls.filter((c) => c.seq > since),
    mark: () => seq,
    answer: (method, fn) => {
      answers.set(method, fn);
    },
    waitForCall(predicate, { since = 0 } = {}) {
      const found = calls.find((c) => c.seq > since && predicate(c));
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => {
        waiters.add({ since, test: predicate, done: resolve });
      });
    },
    clear: () => {
      calls.length = 0;
    },
    messagesIn: (chatId) =>
      [...messages.values()]
        .filter((m) => m.chat.id === chatId)
        .sort((a, b) => a.message_id - b.message_id),
    message: (chatId, messageId) => messages.get(`${chatId}:${messageId}`),
    addFile: (fileId, content) => {
      files.set(fileId, typeof content === "string" ? new TextEncoder().encode(content) : content);
    },
  };
}

/** What fetch does when the answer never comes: a reset, or a wait until the caller aborts. */
function dropped(drop: AnswerDropped, signal: AbortSignal | undefined): Promise<Response> {
  if (drop.how === "reset") return Promise.reject(new TypeError("fetch failed: socket hang up"));
  return new Promise((_resolve, reject) => {
    const abort = () => {
      reject(signal?.reason instanceof Error ? signal.reason : new Error("aborted"));
    };
    if (signal?.aborted === true) abort();
    else signal?.addEventListener("abort", abort, { once: true });
  });
}

/**
 * Telegram's own refusal of a text or caption over its length limits (4,096 and 1,024
 * characters), so a test sees what a person would: the message never arrives.
 */
function overTelegramLimits(payload: Record<string, unknown>): string | undefined {
  if (typeof payload.text === "string" && payload.text.length > TELEGRAM_MAX_TEXT) {
    return "Bad Request: message is too long";
  }
  if (typeof payload.caption === "string" && payload.caption.length > TELEGRAM_MAX_CAPTION) {
    return "Bad Request: message caption is too long";
  }
  return undefined;
}

function isStream(body: unknown): body is AsyncIterable<Uint8Array> {
  return typeof body === "object" && body !== null && Symbol.asyncIterator in body;
}

/** An upload as grammY streams it: fields (non-string ones JSON), files as their text. */
async function multipartPayload(
  body: AsyncIterable<Uint8Array>,
  contentType: string,
): Promise<Record<string, unknown>> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  const { fields, files } = await readMultipart(Buffer.concat(chunks), contentType);
  const payload: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) payload[name] = parseField(value);
  for (const [name, file] of Object.entries(files)) {
    payload[name] = { filename: file.fileName, text: file.content.toString("utf8") };
  }
  return payload;
}

/** grammY sends non-string fields of an upload as JSON. */
function parseField(value: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** The inline keyboard of a recorded call, as rows of `[label, callback_data]`. */
export function keyboardOf(call: RecordedCall | undefined): [string, string][][] | undefined {
  const markup = call?.payload.reply_markup as
    { inline_keyboard?: { text: string; callback_data?: string }[][] } | undefined;
  return markup?.inline_keyboard?.map((row) =>
    row.map((button) => [button.text, button.callback_data ?? ""] as [string, string]),
  );
}
