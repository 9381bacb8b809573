/**
 * A typed client for a running emulator's `/__emulator/` control API, for code in another
 * process than the emulator: the terminal chat and end-to-end tests of the real bot process.
 */
import type { PressedButton, SentText } from "./emulator.js";
import { EmulatorControlError, EmulatorTimeoutError } from "./errors.js";
import type {
  ApiChat,
  ApiUser,
  CallbackAnswer,
  ChatEvent,
  ChatMemberStatus,
  ChatViewMessage,
  NewGroup,
  NewUser,
  RecordedCall,
} from "./types.js";

/** Talks to an emulator over HTTP; `baseUrl` is the emulator's `url` (no trailing slash needed). */
export class TelegramEmulatorClient {
  readonly baseUrl: string;

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl.replace(/\/+$/, "");
  }

  /** The bot's id and username. */
  info(): Promise<{ botId: number; botUsername: string; apiRoot: string }> {
    return this.get("info");
  }

  /** Adds or updates a person. */
  async addUser(user: NewUser): Promise<ApiUser> {
    return (await this.post<{ user: ApiUser }>("users", user)).user;
  }

  /** Adds or updates a group; the bot is a member. */
  async addGroup(group: NewGroup): Promise<ApiChat> {
    return (await this.post<{ chat: ApiChat }>("groups", group)).chat;
  }

  /** Sets someone's status in a group. */
  async setChatMember(chatId: number, userId: number, status: ChatMemberStatus): Promise<void> {
    await this.post("members", { chatId, userId, status });
  }

  /** The person blocks or unblocks the bot. */
  async blockBot(userId: number, blocked = true): Promise<void> {
    await this.post("block", { userId, blocked });
  }

  /** The person writes text in a chat (their private chat: chatId = userId). */
  sendText(
    userId: number,
    chatId: number,
    text: string,
    options: { replyToMessageId?: number } = {},
  ): Promise<SentText> {
    return this.post("send-text", { userId, chatId, text, ...options });
  }

  /** The person sends a file (a document, with an optional caption) in a chat. */
  sendDocument(
    userId: number,
    chatId: number,
    file: { fileName: string; content: Uint8Array; caption?: string },
    options: { replyToMessageId?: number } = {},
  ): Promise<SentText> {
    const { fileName, content, caption } = file;
    return this.post("send-document", {
      userId,
      chatId,
      fileName,
      contentBase64: Buffer.from(content).toString("base64"),
      ...(caption === undefined ? {} : { caption }),
      ...options,
    });
  }

  /** The person presses a button carrying this callback data (not checked against the keyboard). */
  pressButton(
    userId: number,
    chatId: number,
    messageId: number,
    callbackData: string,
  ): Promise<PressedButton> {
    return this.post("press-button", { userId, chatId, messageId, callbackData });
  }

  /** The person presses the button at row, col (from 0) of a message's inline keyboard. */
  pressButtonAt(
    userId: number,
    chatId: number,
    messageId: number,
    row: number,
    col: number,
  ): Promise<PressedButton> {
    return this.post("press-button-at", { userId, chatId, messageId, row, col });
  }

  /** Makes the next `times` calls of `method` fail with this Bot API error. */
  async injectApiError(
    method: string,
    error: { errorCode: number; description: string; retryAfter?: number },
    options: { times?: number } = {},
  ): Promise<void> {
    await this.post("inject-error", { method, ...error, times: options.times ?? 1 });
  }

  /** The chat's messages as the person sees them, and the latest event number. */
  chat(chatId: number): Promise<{ messages: ChatViewMessage[]; lastEventSeq: number }> {
    return this.get("chat", { chat: chatId });
  }

  /**
   * Events after `after`, held by the server until there is one or `timeoutMs` passes (then
   * `events` is empty). This is how a watcher follows chats without busy polling.
   */
  events(
    after: number,
    options: { chatId?: number; timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<{ events: ChatEvent[]; lastEventSeq: number }> {
    const query: Record<string, number> = { after };
    if (options.chatId !== undefined) query.chat = options.chatId;
    if (options.timeoutMs !== undefined) query.timeout_ms = options.timeoutMs;
    return this.get("events", query, options.signal);
  }

  /** Bot API calls after call number `after`, optionally of one method. */
  async calls(options: { method?: string; after?: number } = {}): Promise<RecordedCall[]> {
    const query: Record<string, string | number> = { after: options.after ?? 0 };
    if (options.method !== undefined) query.method = options.method;
    return (await this.get<{ calls: RecordedCall[] }>("calls", query)).calls;
  }

  /** The first call of `method` after call number `after` (default: any), held until it comes. */
  async waitForCall(
    method: string,
    options: { after?: number; timeoutMs?: number } = {},
  ): Promise<RecordedCall> {
    const query: Record<string, string | number> = { method, after: options.after ?? 0 };
    if (options.timeoutMs !== undefined) query.timeout_ms = options.timeoutMs;
    return (await this.get<{ call: RecordedCall }>("wait-call", query)).call;
  }

  /** Resolves once a bot is long polling (a held getUpdates), e.g. a spawned bot is up. */
  async waitForPolling(options: { timeoutMs?: number } = {}): Promise<void> {
    const query: Record<string, number> = {};
    if (options.timeoutMs !== undefined) query.timeout_ms = options.timeoutMs;
    await this.get("wait-polling", query);
  }

  /** Every answerCallbackQuery so far. */
  async callbackAnswers(): Promise<CallbackAnswer[]> {
    return (await this.get<{ answers: CallbackAnswer[] }>("callback-answers")).answers;
  }

  /** The bot's next message in a chat with an id above `after` (default: the last one now). */
  async nextBotMessage(
    chatId: number,
    options: { after?: number; timeoutMs?: number } = {},
  ): Promise<ChatViewMessage> {
    const query: Record<string, number> = { chat: chatId };
    if (options.after !== undefined) query.after = options.after;
    if (options.timeoutMs !== undefined) query.timeout_ms = options.timeoutMs;
    return (await this.get<{ message: ChatViewMessage }>("next-bot-message", query)).message;
  }

  /** Commands the bot set for a scope and language. */
  async commands(
    scope: Record<string, unknown> = { type: "default" },
    languageCode = "",
  ): Promise<Array<{ command: string; description: string }>> {
    const query = { scope: JSON.stringify(scope), language_code: languageCode };
    return (
      await this.get<{ commands: Array<{ command: string; description: string }> }>(
        "commands",
        query,
      )
    ).commands;
  }

  private get<T>(
    path: string,
    query: Record<string, string | number> = {},
    signal?: AbortSignal,
  ): Promise<T> {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) search.set(key, String(value));
    const suffix = search.size > 0 ? `?${search.toString()}` : "";
    return this.request<T>(`${this.baseUrl}/__emulator/${path}${suffix}`, {
      method: "GET",
      signal: signal ?? null,
    });
  }

  private post<T>(path: string, body: unknown): Promise<T> {
    return this.request<T>(`${this.baseUrl}/__emulator/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  }

  private async request<T>(url: string, init: RequestInit): Promise<T> {
    const response = await fetch(url, init);
    const body: unknown = await response.json();
    if (response.ok) return body as T;
    const message =
      typeof body === "object" && body !== null && "error" in body
        ? String(body.error)
        : response.statusText;
    if (response.status === 408) throw new EmulatorTimeoutError(message);
    throw new EmulatorControlError(message, response.status);
  }
}
