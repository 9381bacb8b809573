/**
 * The emulator's control side: people and groups, what a person does in Telegram (write, reply,
 * press a button), and ways to observe what the bot did — all in-process. The HTTP server
 * (server.ts) exposes the same operations so another process can drive a running emulator.
 */
import { payInvoice } from "./stars-api.js";
import { asReplied, type BotApiResponse, callBotApi, commandsScopeKey } from "./bot-api.js";
import { BotApiError, EmulatorControlError, EmulatorTimeoutError } from "./errors.js";
import { storePersonFile } from "./files.js";
import type { Params } from "./params.js";
import {
  type ChatState,
  EmulatorState,
  isAdministrator,
  isPresent,
  nowSeconds,
  type PersonState,
} from "./state.js";
import type {
  ApiChat,
  ApiMessage,
  ApiUpdate,
  ApiUser,
  CallbackAnswer,
  ChatEvent,
  ChatMemberStatus,
  ChatViewMessage,
  MessageEntity,
  NewGroup,
  NewUser,
  RecordedCall,
} from "./types.js";

/** How the emulated bot looks and behaves. */
export interface TelegramEmulatorOptions {
  /** Listen address; default 127.0.0.1. */
  host?: string;
  /** Listen port; default 0 (any free port). */
  port?: number;
  /** The token the bot must use; the digits before ":" become the bot's user id. */
  token?: string;
  /** The bot's @username without "@"; default "giftbot_demo_bot". */
  botUsername?: string;
  /**
   * Telegram's group privacy mode (default on): in groups the bot only gets commands, replies to
   * its own messages, and everything once it is an administrator.
   */
  privacyMode?: boolean;
  /**
   * A folder to save the documents the bot sends (its `/export` CSV) into, so a person can open
   * them; created when needed. Unset: only a document's name and size are kept.
   */
  filesDir?: string;
}

/** What a person's text message produced. */
export interface SentText {
  messageId: number;
  /** Absent when the bot does not get the message (privacy mode in a group). */
  updateId?: number;
}

/** What a button press produced. */
export interface PressedButton {
  updateId: number;
  callbackQueryId: string;
}

/** Bounds for waits. */
export interface WaitOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** A test-only token; never a real one. */
const DEFAULT_EMULATOR_TOKEN = "7000000001:emulator-token-for-local-use";
/** The bot's username when none is given. */
const DEFAULT_BOT_USERNAME = "giftbot_demo_bot";

const GROUP_TYPES: readonly string[] = ["group", "supergroup"];
const COMMAND = /^\/[a-zA-Z0-9_]{1,32}(?:@[a-zA-Z0-9_]{3,32})?(?![\w@])/;

/** Entities Telegram would detect in a typed text: commands, @mentions and links. */
function detectEntities(text: string): MessageEntity[] {
  const entities: MessageEntity[] = [];
  const patterns: Array<[RegExp, string]> = [
    [/(?<=^|\s)\/[a-zA-Z0-9_]{1,32}(?:@[a-zA-Z0-9_]{3,32})?(?![\w@/])/g, "bot_command"],
    [/(?<=^|[\s(])@[a-zA-Z0-9_]{4,32}(?!\w)/g, "mention"],
    [/(?<=^|\s)(?:https?:\/\/|t\.me\/|telegram\.me\/)\S+/g, "url"],
  ];
  for (const [pattern, type] of patterns) {
    for (const match of text.matchAll(pattern)) {
      entities.push({ type, offset: match.index, length: match[0].length });
    }
  }
  return entities.sort((a, b) => a.offset - b.offset);
}

/** An emulated Telegram for one bot. */
export class TelegramEmulator {
  /** @internal The shared world; the Bot API and the control API both act on it. */
  readonly state: EmulatorState;
  /** The token the bot must use. */
  readonly token: string;
  /** Root to give grammY as `client.apiRoot`, e.g. "http://127.0.0.1:41234". */
  apiRoot = "";
  /** Base URL of the server; the control API lives under `${url}/__emulator/`. */
  url = "";
  private readonly privacyMode: boolean;
  private closeServer: () => Promise<void> = async () => {};

  constructor(options: TelegramEmulatorOptions = {}) {
    this.token = options.token ?? DEFAULT_EMULATOR_TOKEN;
    const botId = Number(/^(\d+):/.exec(this.token)?.[1] ?? "7000000001");
    this.state = new EmulatorState(botId, options.botUsername ?? DEFAULT_BOT_USERNAME);
    this.state.filesDir = options.filesDir;
    this.privacyMode = options.privacyMode ?? true;
  }

  /** @internal Called by the server once it listens. */
  attach(url: string, close: () => Promise<void>): void {
    this.url = url;
    this.apiRoot = url;
    this.closeServer = close;
  }

  /** The bot as a Telegram user (what getMe answers). */
  get botInfo(): ApiUser {
    return { ...this.state.bot };
  }

  /** Every Bot API call so far, in order. */
  get calls(): readonly RecordedCall[] {
    return this.state.calls;
  }

  /** Every answerCallbackQuery the bot made, in order. */
  get callbackAnswers(): readonly CallbackAnswer[] {
    return this.state.callbackAnswers;
  }

  /** Runs one Bot API call as the HTTP server would. */
  callApi(method: string, params: Params, signal?: AbortSignal): Promise<BotApiResponse> {
    return callBotApi(this.state, method, params, signal);
  }

  // ------------------------------------------------------------ people and chats

  /** Adds (or updates) a person; their private chat with the bot exists from now on. */
  addUser(user: NewUser): ApiUser {
    if (!Number.isInteger(user.id) || user.id <= 0) {
      throw new EmulatorControlError("a user id must be a positive integer");
    }
    if (user.id === this.state.bot.id) throw new EmulatorControlError("that id is the bot's");
    const apiUser: ApiUser = { id: user.id, is_bot: false, first_name: user.first_name };
    if (user.last_name !== undefined) apiUser.last_name = user.last_name;
    if (user.username !== undefined) apiUser.username = user.username;
    if (user.language_code !== undefined) apiUser.language_code = user.language_code;
    const existing = this.state.people.get(user.id);
    this.state.people.set(user.id, {
      user: apiUser,
      startedBot: user.startedBot ?? existing?.startedBot ?? false,
      blocked: existing?.blocked ?? false,
    });
    const chat: ApiChat = { id: user.id, type: "private", first_name: user.first_name };
    if (user.last_name !== undefined) chat.last_name = user.last_name;
    if (user.username !== undefined) chat.username = user.username;
    const state = this.state.chats.get(user.id);
    if (state === undefined) {
      this.state.chats.set(user.id, {
        chat,
        nextMessageId: 1,
        messages: new Map(),
        members: new Map(),
      });
    } else {
      state.chat = chat;
    }
    this.state.changed();
    return { ...apiUser };
  }

  /** Adds a group with the bot as a member (make it an admin with setChatMember). */
  addGroup(group: NewGroup): ApiChat {
    if (!Number.isInteger(group.id) || group.id >= 0) {
      throw new EmulatorControlError("a group id must be a negative integer");
    }
    // The control endpoint passes a caller's JSON through, so the type is checked, not trusted.
    if (!GROUP_TYPES.includes(group.type)) {
      throw new EmulatorControlError('a group type is "group" or "supergroup"');
    }
    const chat: ApiChat = { id: group.id, type: group.type, title: group.title };
    const existing = this.state.chats.get(group.id);
    if (existing !== undefined) {
      existing.chat = chat;
    } else {
      const members = new Map<number, ChatMemberStatus>([[this.state.bot.id, "member"]]);
      this.state.chats.set(group.id, { chat, nextMessageId: 1, messages: new Map(), members });
    }
    this.state.changed();
    return { ...chat };
  }

  /** Sets someone's status in a group (the bot's own id works too). */
  setChatMember(chatId: number, userId: number, status: ChatMemberStatus): void {
    const chat = this.groupChat(chatId);
    if (userId !== this.state.bot.id) this.person(userId);
    const statuses = ["creator", "administrator", "member", "left", "kicked", "restricted"];
    if (!statuses.includes(status)) throw new EmulatorControlError(`unknown status "${status}"`);
    chat.members.set(userId, status);
    this.state.changed();
  }

  /** The person blocks (or unblocks) the bot: sends to them then fail with 403. */
  blockBot(userId: number, blocked = true): void {
    this.person(userId).blocked = blocked;
    this.state.changed();
  }

  // ------------------------------------------------------------ what a person does

  /**
   * The person writes `text` in a chat (their private chat: chatId = userId). A leading command
   * gets its bot_command entity; a reply embeds the stored message. Returns the message id and,
   * when the bot gets it, the update id.
   */
  sendText(
    userId: number,
    chatId: number,
    text: string,
    options: { replyToMessageId?: number } = {},
  ): SentText {
    if (text === "") throw new EmulatorControlError("a message needs text");
    const entities = detectEntities(text);
    return this.postAs(userId, chatId, options.replyToMessageId, (message) => {
      message.text = text;
      if (entities.length > 0) message.entities = entities;
    });
  }

  /**
   * The person sends a file (a document, with an optional caption) in a chat. The bot can
   * `getFile` its `file_id` and download the bytes from `<apiRoot>/file/bot<token>/<file_path>`.
   */
  sendDocument(
    userId: number,
    chatId: number,
    file: { fileName: string; content: Buffer; caption?: string },
    options: { replyToMessageId?: number } = {},
  ): SentText {
    if (file.fileName.trim() === "" || /[/\\]/.test(file.fileName)) {
      throw new EmulatorControlError("a file needs a name without a folder");
    }
    if (file.content.length === 0) throw new EmulatorControlError("a file needs content");
    // Checked before the file is kept: a refused send leaves nothing behind.
    this.chatFor(this.person(userId), chatId);
    const document = storePersonFile(this.state, file.fileName, file.content);
    return this.postAs(userId, chatId, options.replyToMessageId, (message) => {
      message.document = document;
      if (file.caption !== undefined && file.caption !== "") message.caption = file.caption;
    });
  }

  /**
   * A person's message in a chat (their private chat: chatId = userId), filled in by `fill`; a
   * reply embeds the stored message. Returns its id and, when the bot gets it, the update id.
   */
  private postAs(
    userId: number,
    chatId: number,
    replyToMessageId: number | undefined,
    fill: (message: ApiMessage) => void,
  ): SentText {
    const person = this.person(userId);
    const chat = this.chatFor(person, chatId);
    let replied: ApiMessage | undefined;
    if (replyToMessageId !== undefined) {
      const target = this.state.findMessage(chatId, replyToMessageId);
      if (target === undefined) {
        throw new EmulatorControlError(`no message ${replyToMessageId} in chat ${chatId}`, 404);
      }
      replied = asReplied(target.message);
    }
    if (chat.chat.type === "private") {
      person.startedBot = true;
      person.blocked = false;
    }
    const stored = this.state.addMessage(chat, (messageId) => {
      const message: ApiMessage = {
        message_id: messageId,
        from: { ...person.user },
        chat: { ...chat.chat },
        date: nowSeconds(),
      };
      fill(message);
      if (replied !== undefined) message.reply_to_message = replied;
      return message;
    });
    const sent: SentText = { messageId: stored.message.message_id };
    if (this.botSees(chat, stored.message)) {
      sent.updateId = this.state.enqueue({ message: stored.message });
    }
    return sent;
  }

  /**
   * The person presses a button carrying `callbackData` on a bot message. The data is not
   * checked against the keyboard: a modified client can send anything, and tests of forged or
   * stale buttons need exactly that. Use pressButtonAt for a button that is really there.
   */
  pressButton(
    userId: number,
    chatId: number,
    messageId: number,
    callbackData: string,
  ): PressedButton {
    const person = this.person(userId);
    const chat = this.chatFor(person, chatId);
    const stored = this.state.findMessage(chatId, messageId);
    if (stored === undefined) {
      throw new EmulatorControlError(`no message ${messageId} in chat ${chatId}`, 404);
    }
    if (stored.message.from.id !== this.state.bot.id) {
      throw new EmulatorControlError(`message ${messageId} is not the bot's`);
    }
    const callbackQueryId = this.state.newQueryId();
    this.state.issuedQueries.set(callbackQueryId, {
      chatId,
      messageId,
      userId,
      data: callbackData,
      answered: false,
    });
    const updateId = this.state.enqueue({
      callback_query: {
        id: callbackQueryId,
        from: { ...person.user },
        message: stored.message,
        chat_instance: chatInstance(chat.chat.id),
        data: callbackData,
      },
    });
    return { updateId, callbackQueryId };
  }

  /** Presses the button at `row`, `col` (from 0) of a message's inline keyboard, as a client would. */
  pressButtonAt(
    userId: number,
    chatId: number,
    messageId: number,
    row: number,
    col: number,
  ): PressedButton {
    const stored = this.state.findMessage(chatId, messageId);
    const button = stored?.message.reply_markup?.inline_keyboard[row]?.[col];
    if (button === undefined) {
      throw new EmulatorControlError(
        `message ${messageId} has no button at row ${row}, column ${col}`,
        404,
      );
    }
    // An invoice's "Pay": Telegram asks the bot first (the pre-checkout query).
    if (button.pay === true) {
      return { updateId: payInvoice(this.state, userId, chatId, messageId), callbackQueryId: "" };
    }
    if (typeof button.callback_data !== "string") {
      throw new EmulatorControlError(`button "${button.text}" has no callback data`);
    }
    return this.pressButton(userId, chatId, messageId, button.callback_data);
  }

  /** Presses the first button whose text is `text` on a message's inline keyboard. */
  pressButtonLabeled(
    userId: number,
    chatId: number,
    messageId: number,
    text: string,
  ): PressedButton {
    const rows =
      this.state.findMessage(chatId, messageId)?.message.reply_markup?.inline_keyboard ?? [];
    for (const [row, buttons] of rows.entries()) {
      const col = buttons.findIndex((button) => button.text === text);
      if (col !== -1) return this.pressButtonAt(userId, chatId, messageId, row, col);
    }
    throw new EmulatorControlError(`message ${messageId} has no button "${text}"`, 404);
  }

  // ------------------------------------------------------------ observation

  /** The chat's messages as the person sees them now (deleted ones gone, edits applied). */
  chat(chatId: number): ChatViewMessage[] {
    const chat = this.state.chats.get(chatId);
    if (chat === undefined) throw new EmulatorControlError(`no chat ${chatId}`, 404);
    return [...chat.messages.values()]
      .filter((stored) => !stored.deleted)
      .sort((a, b) => a.message.message_id - b.message.message_id)
      .map((stored) => this.state.view(stored));
  }

  /** Chat events after sequence number `after` (optionally of one chat). */
  events(after = 0, chatId?: number): ChatEvent[] {
    return this.state.events.filter(
      (event) => event.seq > after && (chatId === undefined || event.chatId === chatId),
    );
  }

  /** The sequence number of the latest chat event (0 when none). */
  get lastEventSeq(): number {
    return this.state.events.length;
  }

  /** Commands set for a scope (default: {type:"default"}) and language (default ""). */
  commands(
    scope: Record<string, unknown> = { type: "default" },
    languageCode = "",
  ): Array<{ command: string; description: string }> {
    return structuredClone(this.state.commands.get(commandsScopeKey(scope, languageCode)) ?? []);
  }

  /** Whether a getUpdates request is being held right now (a bot is long polling). */
  get pollPending(): boolean {
    return this.state.activePoll !== undefined;
  }

  /** Updates the bot has not confirmed yet. */
  pendingUpdates(): ApiUpdate[] {
    return structuredClone(this.state.updates);
  }

  /** The stored webhook, if the bot set one. */
  get webhook(): { url: string; secretToken?: string } | undefined {
    return this.state.webhook === undefined ? undefined : { ...this.state.webhook };
  }

  /**
   * Makes the next `times` calls of `method` fail with this error (e.g. 429 with retry_after),
   * to see the bot's retries at work.
   */
  injectApiError(
    method: string,
    error: { errorCode: number; description: string; retryAfter?: number },
    options: { times?: number } = {},
  ): void {
    const parameters =
      error.retryAfter === undefined ? undefined : { retry_after: error.retryAfter };
    this.state.injectedErrors.push({
      method,
      error: new BotApiError(error.errorCode, error.description, parameters),
      remaining: options.times ?? 1,
    });
  }

  // ------------------------------------------------------------ waiting (event-based)

  /**
   * Resolves with the first truthy value of `probe`, checked now and after every call, update
   * and event; rejects with EmulatorTimeoutError after `timeoutMs` (default 5 s).
   */
  waitFor<T>(
    probe: (emulator: this) => T | undefined | null | false,
    options: WaitOptions = {},
  ): Promise<T> {
    return this.state.waitFor(() => probe(this), { ...options, what: "a matching change" });
  }

  /** The first call of `method` (after call `afterSeq`, default: any) that matches `predicate`. */
  waitForCall(
    method: string,
    predicate: (call: RecordedCall) => boolean = () => true,
    options: WaitOptions & { afterSeq?: number } = {},
  ): Promise<RecordedCall> {
    const after = options.afterSeq ?? 0;
    return this.state.waitFor(
      () =>
        this.state.calls.find(
          (call) => call.seq > after && call.method === method && predicate(call),
        ),
      { ...options, what: `a ${method} call` },
    );
  }

  /** Events after `after`, held until there is at least one; `[]` when the bound passes. */
  async waitForEvents(
    after: number,
    options: WaitOptions & { chatId?: number } = {},
  ): Promise<ChatEvent[]> {
    try {
      return await this.state.waitFor(
        () => {
          const events = this.events(after, options.chatId);
          return events.length > 0 ? events : undefined;
        },
        { ...options, what: "chat events" },
      );
    } catch (error) {
      if (error instanceof EmulatorTimeoutError) return [];
      throw error;
    }
  }

  /**
   * The bot's next message in a chat: the first one with an id above `after` (default: the last
   * message id in the chat now), even if it arrived before this call when `after` is given.
   */
  nextBotMessage(
    chatId: number,
    options: WaitOptions & { after?: number } = {},
  ): Promise<ChatViewMessage> {
    const chat = this.state.chats.get(chatId);
    if (chat === undefined)
      return Promise.reject(new EmulatorControlError(`no chat ${chatId}`, 404));
    const after = options.after ?? chat.nextMessageId - 1;
    return this.state.waitFor(
      () => {
        for (const stored of chat.messages.values()) {
          const { message } = stored;
          if (
            !stored.deleted &&
            message.message_id > after &&
            message.from.id === this.state.bot.id
          ) {
            return this.state.view(stored);
          }
        }
        return undefined;
      },
      { ...options, what: `a bot message in chat ${chatId}` },
    );
  }

  /** Ends held requests and waits, and stops the server. */
  async close(): Promise<void> {
    this.state.close();
    await this.closeServer();
  }

  // ------------------------------------------------------------ helpers

  private person(userId: number): PersonState {
    const person = this.state.people.get(userId);
    if (person === undefined)
      throw new EmulatorControlError(`no user ${userId}; add it first`, 404);
    return person;
  }

  private groupChat(chatId: number): ChatState {
    const chat = this.state.chats.get(chatId);
    if (chat === undefined || chat.chat.type === "private") {
      throw new EmulatorControlError(`no group ${chatId}; add it first`, 404);
    }
    return chat;
  }

  /** The chat a person acts in: their own private chat, or a group they are in. */
  private chatFor(person: PersonState, chatId: number): ChatState {
    if (chatId === person.user.id) {
      const chat = this.state.chats.get(chatId);
      if (chat === undefined) throw new EmulatorControlError(`no chat ${chatId}`, 404);
      return chat;
    }
    const chat = this.groupChat(chatId);
    const status = chat.members.get(person.user.id);
    if (!isPresent(status) || status === "restricted") {
      throw new EmulatorControlError(`user ${person.user.id} cannot write in chat ${chatId}`, 403);
    }
    return chat;
  }

  /** Telegram's group privacy mode decides which group messages reach the bot. */
  private botSees(chat: ChatState, message: ApiMessage): boolean {
    if (chat.chat.type === "private") return true;
    if (!isPresent(chat.members.get(this.state.bot.id))) return false;
    if (!this.privacyMode || isAdministrator(chat.members.get(this.state.bot.id))) return true;
    if (message.reply_to_message?.from.id === this.state.bot.id) return true;
    const command = COMMAND.exec(message.text ?? message.caption ?? "")?.[0];
    if (command === undefined) return false;
    const addressee = command.split("@")[1];
    return (
      addressee === undefined || addressee.toLowerCase() === this.state.bot.username?.toLowerCase()
    );
  }
}

/** A stable, chat-specific chat_instance like Telegram's opaque one. */
function chatInstance(chatId: number): string {
  return BigInt.asUintN(63, BigInt(chatId) * 2654435761n + 1469598103934665603n).toString();
}
