/**
 * The emulator's world: people, chats, messages, the update queue, the call log and the events
 * that waiters follow. It knows nothing of HTTP; the Bot API methods (bot-api.ts) and the control
 * API (emulator.ts) both work on it, so in-process tests and the HTTP server see the same state.
 */
import { BotStarsModel } from "./stars.js";
import { BotApiError, badRequest, EmulatorClosedError, EmulatorTimeoutError } from "./errors.js";
import type { StoredFile } from "./files.js";
import type {
  ApiChat,
  ApiMessage,
  ApiUpdate,
  ApiUser,
  CallbackAnswer,
  ChatEvent,
  ChatMemberStatus,
  ChatViewMessage,
  RecordedCall,
} from "./types.js";

/** A message and what the person can see of it. */
export interface StoredMessage {
  message: ApiMessage;
  parseMode?: string;
  edited: boolean;
  deleted: boolean;
  /** Where a document's bytes were saved (the emulator's `filesDir`). */
  savedFile?: string;
}

/** One chat with its messages and (for groups) its members. */
export interface ChatState {
  chat: ApiChat;
  nextMessageId: number;
  messages: Map<number, StoredMessage>;
  /** Group membership by user id, the bot included. Private chats leave it empty. */
  members: Map<number, ChatMemberStatus>;
}

/** A person the emulator knows. */
export interface PersonState {
  user: ApiUser;
  /** The private chat with the bot is open (the person wrote to it, or was set up so). */
  startedBot: boolean;
  blocked: boolean;
}

/** A callback query the bot may still answer. */
export interface IssuedQuery {
  chatId: number;
  messageId: number;
  userId: number;
  data: string;
  answered: boolean;
}

/** An error to answer instead of running a method, for testing the bot's retries. */
export interface InjectedError {
  method: string;
  error: BotApiError;
  remaining: number;
}

interface Waiter {
  check: () => boolean;
}

/** Telegram's default `allowed_updates`: everything but these three. */
const NOT_DELIVERED_BY_DEFAULT = new Set([
  "chat_member",
  "message_reaction",
  "message_reaction_count",
]);

/** Seconds since the epoch, the unit of every Telegram date. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** Whether a membership status means the user is in the chat. */
export function isPresent(status: ChatMemberStatus | undefined): boolean {
  return (
    status === "creator" ||
    status === "administrator" ||
    status === "member" ||
    status === "restricted"
  );
}

/** Whether a membership status is an administrator's (the creator included). */
export function isAdministrator(status: ChatMemberStatus | undefined): boolean {
  return status === "creator" || status === "administrator";
}

/** The shared state of one emulated bot. */
export class EmulatorState {
  readonly bot: ApiUser;
  readonly people = new Map<number, PersonState>();
  readonly chats = new Map<number, ChatState>();
  readonly calls: RecordedCall[] = [];
  readonly callbackAnswers: CallbackAnswer[] = [];
  readonly events: ChatEvent[] = [];
  readonly issuedQueries = new Map<string, IssuedQuery>();
  readonly commands = new Map<string, Array<{ command: string; description: string }>>();
  /** Menu buttons set per private chat (setChatMenuButton with chat_id); key "" is the default. */
  readonly menuButtons = new Map<number | "", Record<string, unknown>>();
  readonly injectedErrors: InjectedError[] = [];
  /** The bot's own Telegram Stars (./stars.ts). */
  readonly stars = new BotStarsModel();
  /** Pre-checkout queries waiting for the bot's answer, by id. */
  readonly checkouts = new Map<string, { userId: number; chatId: number; messageId: number }>();
  webhook:
    | { url: string; secretToken?: string; maxConnections: number; allowedUpdates?: string[] }
    | undefined;
  allowedUpdates: string[] = [];
  /** Where uploaded documents are saved (the demo's folder); unset: only their name and size are kept. */
  filesDir: string | undefined;
  /** Files people sent, by file_id, for getFile and their download. */
  readonly files = new Map<string, StoredFile>();
  /** The getUpdates request now waiting, which a newer one ends with 409 Conflict. */
  activePoll: { supersede: () => void } | undefined;
  /** Unconfirmed updates, oldest first. */
  updates: ApiUpdate[] = [];
  closed = false;
  private nextUpdateId = 1;
  private nextQueryId = 1;
  private readonly waiters = new Set<Waiter>();
  private held = 0;
  private dirty = false;

  constructor(botId: number, botUsername: string) {
    this.bot = { id: botId, is_bot: true, first_name: "Gift Bot", username: botUsername };
  }

  /** The chat or Telegram's "chat not found". */
  requireChat(chatId: number): ChatState {
    const chat = this.chats.get(chatId);
    if (chat === undefined) throw badRequest("chat not found");
    return chat;
  }

  /** The next id for a callback query, unique for the emulator's life. */
  newQueryId(): string {
    const id = String(4_000_000_000_000 + this.nextQueryId);
    this.nextQueryId += 1;
    return id;
  }

  /** Queues an update and wakes whoever waits; returns its id. */
  enqueue(update: Omit<ApiUpdate, "update_id">): number {
    const full: ApiUpdate = { update_id: this.nextUpdateId, ...structuredClone(update) };
    this.nextUpdateId += 1;
    this.updates.push(full);
    this.changed();
    return full.update_id;
  }

  /** Whether an update's kind passes the bot's current `allowed_updates`. */
  isAllowed(update: ApiUpdate): boolean {
    const kind = Object.keys(update).find((key) => key !== "update_id") ?? "";
    if (this.allowedUpdates.length === 0) return !NOT_DELIVERED_BY_DEFAULT.has(kind);
    return this.allowedUpdates.includes(kind);
  }

  /** Records a chat event and wakes waiters. */
  addEvent(event: DistributiveOmit<ChatEvent, "seq">): void {
    this.events.push({ ...event, seq: this.events.length + 1 });
    this.changed();
  }

  /** Appends to the call log and wakes waiters. */
  recordCall(call: Omit<RecordedCall, "seq" | "at">): RecordedCall {
    const recorded: RecordedCall = { ...call, seq: this.calls.length + 1, at: Date.now() };
    this.calls.push(recorded);
    this.changed();
    return recorded;
  }

  /** Stores a new message in its chat, records the event, and returns the stored copy. */
  addMessage(
    chat: ChatState,
    build: (messageId: number) => ApiMessage,
    parseMode?: string,
    savedFile?: (messageId: number) => string | undefined,
  ): StoredMessage {
    const messageId = chat.nextMessageId;
    chat.nextMessageId += 1;
    const stored: StoredMessage = { message: build(messageId), edited: false, deleted: false };
    if (parseMode !== undefined) stored.parseMode = parseMode;
    const saved = savedFile?.(messageId);
    if (saved !== undefined) stored.savedFile = saved;
    chat.messages.set(messageId, stored);
    this.addEvent({ chatId: chat.chat.id, type: "message", message: this.view(stored) });
    return stored;
  }

  /** A live (not deleted) message or undefined. */
  findMessage(chatId: number, messageId: number): StoredMessage | undefined {
    const stored = this.chats.get(chatId)?.messages.get(messageId);
    return stored === undefined || stored.deleted ? undefined : stored;
  }

  /** A message as the person sees it. */
  view(stored: StoredMessage): ChatViewMessage {
    const { message } = stored;
    const view: ChatViewMessage = {
      id: message.message_id,
      chatId: message.chat.id,
      fromBot: message.from.id === this.bot.id,
      from: { ...message.from },
      text: message.text ?? message.caption ?? "",
      edited: stored.edited,
      date: message.date,
      message: structuredClone(message),
    };
    if (message.reply_markup !== undefined)
      view.replyMarkup = structuredClone(message.reply_markup);
    if (stored.parseMode !== undefined) view.parseMode = stored.parseMode;
    if (stored.savedFile !== undefined) view.savedFile = stored.savedFile;
    if (message.reply_to_message !== undefined) {
      view.replyToMessageId = message.reply_to_message.message_id;
    }
    return view;
  }

  /**
   * Resolves with the first truthy value `probe` returns, checked now and after every change
   * (call, update, event); rejects after `timeoutMs` or when the emulator closes.
   */
  waitFor<T>(
    probe: () => T | undefined | null | false,
    options: { timeoutMs?: number; what?: string; signal?: AbortSignal } = {},
  ): Promise<T> {
    const timeoutMs = options.timeoutMs ?? 5_000;
    return new Promise<T>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const waiter: Waiter = {
        check: () => {
          if (this.closed) {
            finish();
            reject(new EmulatorClosedError());
            return true;
          }
          let value: T | undefined | null | false;
          try {
            value = probe();
          } catch (error) {
            finish();
            reject(error instanceof Error ? error : new Error(String(error)));
            return true;
          }
          if (value === undefined || value === null || value === false) return false;
          finish();
          resolve(value);
          return true;
        },
      };
      const onAbort = (): void => {
        finish();
        reject(new EmulatorTimeoutError(`${options.what ?? "a change"} (cancelled)`));
      };
      const finish = (): void => {
        this.waiters.delete(waiter);
        if (timer !== undefined) clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
      };
      if (waiter.check()) return;
      this.waiters.add(waiter);
      timer = setTimeout(() => {
        finish();
        reject(new EmulatorTimeoutError(options.what ?? "a matching change", timeoutMs));
      }, timeoutMs);
      options.signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Re-checks every waiter; called after each mutation. */
  changed(): void {
    if (this.held > 0) {
      this.dirty = true;
      return;
    }
    for (const waiter of [...this.waiters]) waiter.check();
  }

  /**
   * Runs `work` with waiters woken only once at the end, so a waiter never sees a half-done
   * call (say, the bot's message in the chat before the call that sent it is in the log).
   */
  atomically<T>(work: () => T): T {
    this.held += 1;
    try {
      return work();
    } finally {
      this.held -= 1;
      if (this.held === 0 && this.dirty) {
        this.dirty = false;
        this.changed();
      }
    }
  }

  /** Takes an injected error for this method, if one is armed. */
  takeInjectedError(method: string): BotApiError | undefined {
    const index = this.injectedErrors.findIndex((entry) => entry.method === method);
    const entry = this.injectedErrors[index];
    if (entry === undefined) return undefined;
    entry.remaining -= 1;
    if (entry.remaining <= 0) this.injectedErrors.splice(index, 1);
    return entry.error;
  }

  /** Wakes every waiter so it sees the emulator is closed. */
  close(): void {
    this.closed = true;
    this.changed();
  }
}

/** `Omit` that keeps a union a union. */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Rethrows anything that is not a BotApiError as a 500, like a server fault would look. */
export function asBotApiError(error: unknown): BotApiError {
  if (error instanceof BotApiError) return error;
  return new BotApiError(500, "Internal Server Error");
}
