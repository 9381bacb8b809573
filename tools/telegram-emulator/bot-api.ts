/**
 * The Bot API methods the bot uses, answered the way Telegram answers them (results, 400/403/409
 * refusals with Telegram's wording), so the bot's error handling meets real shapes in demos and
 * end-to-end tests. Every call lands in the call log.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { BotApiError, badRequest } from "./errors.js";
import { getFile } from "./files.js";
import { AnswerDropped } from "./stars.js";
import { STARS_HANDLERS } from "./stars-api.js";
import { formatText } from "./formatting.js";
import {
  isRecord,
  optionalBool,
  optionalInt,
  optionalJson,
  optionalString,
  type Params,
  requiredInt,
} from "./params.js";
import {
  asBotApiError,
  type ChatState,
  type EmulatorState,
  isAdministrator,
  isPresent,
  nowSeconds,
  type StoredMessage,
} from "./state.js";
import type {
  ApiMessage,
  ApiUpdate,
  ApiUser,
  ChatMemberStatus,
  InlineKeyboardButton,
  InlineKeyboardMarkup,
  MessageEntity,
  UploadedFile,
} from "./types.js";

/** Telegram's answer envelope. */
export type BotApiResponse =
  | { ok: true; result: unknown }
  | {
      ok: false;
      error_code: number;
      description: string;
      parameters?: { retry_after?: number };
      /** The answer never reaches the bot (a fault): the connection resets, or hangs. */
      dropped?: "hang" | "reset";
    };

type Handler = (state: EmulatorState, params: Params, signal?: AbortSignal) => unknown;

const MAX_TEXT_LENGTH = 4096;
const JSON_FIELDS = [
  "reply_markup",
  "reply_parameters",
  "commands",
  "scope",
  "allowed_updates",
  "entities",
  "link_preview_options",
  "menu_button",
];
const CHAT_ACTIONS = new Set([
  "typing",
  "upload_photo",
  "record_video",
  "upload_video",
  "record_voice",
  "upload_voice",
  "upload_document",
  "choose_sticker",
  "find_location",
  "record_video_note",
  "upload_video_note",
]);
const BUTTON_ACTIONS = [
  "callback_data",
  "url",
  "login_url",
  "switch_inline_query",
  "switch_inline_query_current_chat",
  "switch_inline_query_chosen_chat",
  "copy_text",
  "callback_game",
  "pay",
  "web_app",
];

// ---------------------------------------------------------------- chats and messages

function chatIdParam(state: EmulatorState, params: Params): number {
  const raw = params.chat_id;
  if (raw === undefined || raw === null || raw === "") throw badRequest("chat_id is empty");
  if (typeof raw === "string" && raw.startsWith("@")) {
    for (const chat of state.chats.values()) {
      if (chat.chat.username !== undefined && `@${chat.chat.username}` === raw) return chat.chat.id;
    }
    throw badRequest("chat not found");
  }
  return requiredInt(params, "chat_id");
}

/** The chat the bot may write to, or Telegram's refusal for why it may not. */
function writableChat(state: EmulatorState, chatId: number): ChatState {
  const chat = state.requireChat(chatId);
  if (chat.chat.type === "private") {
    const person = state.people.get(chatId);
    if (person?.blocked) throw new BotApiError(403, "Forbidden: bot was blocked by the user");
    if (!person?.startedBot) {
      throw new BotApiError(403, "Forbidden: bot can't initiate conversation with a user");
    }
    return chat;
  }
  const kind = chat.chat.type === "supergroup" ? "supergroup chat" : "group chat";
  const status = chat.members.get(state.bot.id);
  if (status === "kicked") throw new BotApiError(403, `Forbidden: bot was kicked from the ${kind}`);
  if (!isPresent(status))
    throw new BotApiError(403, `Forbidden: bot is not a member of the ${kind}`);
  return chat;
}

function readButton(button: unknown): InlineKeyboardButton {
  if (!isRecord(button) || typeof button.text !== "string") {
    throw badRequest("can't parse inline keyboard button: InlineKeyboardButton must be an Object");
  }
  if (button.text === "") throw badRequest("BUTTON_TEXT_INVALID");
  const actions = BUTTON_ACTIONS.filter((key) => button[key] !== undefined);
  if (actions.length !== 1) {
    throw badRequest(
      "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard",
    );
  }
  if (button.callback_data !== undefined) {
    const data = button.callback_data;
    if (typeof data !== "string" || data === "" || Buffer.byteLength(data, "utf8") > 64) {
      throw badRequest("BUTTON_DATA_INVALID");
    }
  }
  if (button.url !== undefined) {
    if (typeof button.url !== "string" || !/^(https?|tg):\/\/\S+$/.test(button.url)) {
      throw badRequest("BUTTON_URL_INVALID");
    }
  }
  return structuredClone(button) as InlineKeyboardButton;
}

/**
 * The inline keyboard to keep on the message. Other markups (reply keyboards, force_reply) are
 * accepted and logged but, as on Telegram, not attached to the returned message.
 */
function readInlineKeyboard(params: Params): InlineKeyboardMarkup | undefined {
  const markup = optionalJson(params, "reply_markup");
  if (markup === undefined) return undefined;
  if (!isRecord(markup)) throw badRequest("can't parse reply keyboard markup JSON object");
  if (markup.inline_keyboard === undefined) return undefined;
  const rows = markup.inline_keyboard;
  if (!Array.isArray(rows) || !rows.every((row) => Array.isArray(row))) {
    throw badRequest(
      'can\'t parse inline keyboard: field "inline_keyboard" must be an Array of Arrays',
    );
  }
  const keyboard = (rows as unknown[][])
    .map((row) => row.map(readButton))
    .filter((row) => row.length > 0);
  return keyboard.length === 0 ? undefined : { inline_keyboard: keyboard };
}

function readText(params: Params): { text: string; entities: MessageEntity[]; parseMode?: string } {
  const raw = optionalString(params, "text") ?? "";
  const parseMode = optionalString(params, "parse_mode");
  const formatted = formatText(raw, parseMode);
  if (parseMode === undefined || parseMode === "") {
    const given = optionalJson(params, "entities");
    if (Array.isArray(given)) formatted.entities = structuredClone(given) as MessageEntity[];
  }
  if (formatted.text.trim() === "") throw badRequest("message text is empty");
  if (formatted.text.length > MAX_TEXT_LENGTH) throw badRequest("message is too long");
  return parseMode === undefined || parseMode === "" ? formatted : { ...formatted, parseMode };
}

/** A copy of a message fit to embed as `reply_to_message` (Telegram does not nest deeper). */
export function asReplied(message: ApiMessage): ApiMessage {
  const copy = structuredClone(message);
  delete copy.reply_to_message;
  return copy;
}

function replyTarget(state: EmulatorState, params: Params, chatId: number): ApiMessage | undefined {
  const parameters = optionalJson(params, "reply_parameters");
  let messageId = optionalInt(params, "reply_to_message_id");
  let targetChat = chatId;
  let allowWithout = optionalBool(params, "allow_sending_without_reply") ?? false;
  if (isRecord(parameters)) {
    messageId = optionalInt(parameters, "message_id");
    targetChat = optionalInt(parameters, "chat_id") ?? chatId;
    allowWithout = optionalBool(parameters, "allow_sending_without_reply") ?? allowWithout;
  }
  if (messageId === undefined) return undefined;
  const target = state.findMessage(targetChat, messageId);
  if (target === undefined) {
    if (allowWithout) return undefined;
    throw badRequest("message to be replied not found");
  }
  return asReplied(target.message);
}

function sendMessage(state: EmulatorState, params: Params): ApiMessage {
  const chat = writableChat(state, chatIdParam(state, params));
  const { text, entities, parseMode } = readText(params);
  const keyboard = readInlineKeyboard(params);
  const replied = replyTarget(state, params, chat.chat.id);
  const stored = state.addMessage(
    chat,
    (messageId) => {
      const message: ApiMessage = {
        message_id: messageId,
        from: { ...state.bot },
        chat: { ...chat.chat },
        date: nowSeconds(),
        text,
      };
      if (entities.length > 0) message.entities = entities;
      if (replied !== undefined) message.reply_to_message = replied;
      if (keyboard !== undefined) message.reply_markup = keyboard;
      return message;
    },
    parseMode,
  );
  return structuredClone(stored.message);
}

/**
 * A document upload (the bot's `/export`). Only uploads are taken: the emulator keeps the file's
 * name and size, and saves its bytes into `filesDir` when it has one (the demo's folder), so the
 * terminal chat can say where to open it.
 */
function sendDocument(state: EmulatorState, params: Params): ApiMessage {
  const chat = writableChat(state, chatIdParam(state, params));
  const file = uploadedFile(params, params.document);
  const caption = optionalString(params, "caption") ?? "";
  const keyboard = readInlineKeyboard(params);
  const stored = state.addMessage(
    chat,
    (messageId) => {
      const message: ApiMessage = {
        message_id: messageId,
        from: { ...state.bot },
        chat: { ...chat.chat },
        date: nowSeconds(),
        document: {
          file_id: `document-${chat.chat.id}-${messageId}`,
          file_unique_id: `document-${chat.chat.id}-${messageId}`,
          file_name: file.fileName,
          file_size: file.size,
        },
      };
      if (caption !== "") message.caption = caption;
      if (keyboard !== undefined) message.reply_markup = keyboard;
      return message;
    },
    undefined,
    (messageId) => saveUpload(state.filesDir, messageId, file),
  );
  // The call log keeps the upload's name and size, not its bytes.
  delete file.content;
  return structuredClone(stored.message);
}

/**
 * Writes an upload's bytes as `<filesDir>/<message id>-<file name>` (the name reduced to safe
 * characters: it comes from the bot); the path, or undefined without a folder or bytes.
 */
function saveUpload(
  filesDir: string | undefined,
  messageId: number,
  file: UploadedFile,
): string | undefined {
  if (filesDir === undefined || file.content === undefined) return undefined;
  const name = basename(file.fileName)
    .replace(/[^A-Za-z0-9._-]/g, "_")
    .slice(0, 100);
  mkdirSync(filesDir, { recursive: true });
  const path = join(filesDir, `${messageId}-${name}`);
  writeFileSync(path, file.content);
  return path;
}

/** The upload a `document` param names: the file itself, or `attach://field` pointing at it. */
function uploadedFile(params: Params, value: unknown): UploadedFile {
  const target =
    typeof value === "string" && value.startsWith("attach://")
      ? params[value.slice("attach://".length)]
      : value;
  if (isRecord(target) && typeof target.fileName === "string" && typeof target.size === "number") {
    // The same object as in the params, so dropping its bytes later also keeps them out of the
    // call log.
    return target as unknown as UploadedFile;
  }
  throw badRequest("the emulator takes documents only as uploaded files");
}

function editableMessage(state: EmulatorState, params: Params): StoredMessage {
  if (params.inline_message_id !== undefined) {
    throw badRequest("inline messages are not supported by the emulator");
  }
  const chatId = chatIdParam(state, params);
  const messageId = requiredInt(params, "message_id");
  state.requireChat(chatId);
  const stored = state.findMessage(chatId, messageId);
  if (stored === undefined) throw badRequest("message to edit not found");
  if (stored.message.from.id !== state.bot.id) throw badRequest("message can't be edited");
  return stored;
}

const NOT_MODIFIED =
  "message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message";

function applyEdit(
  state: EmulatorState,
  stored: StoredMessage,
  change: {
    /** Undefined for a document's message: only its keyboard changes. */
    text: string | undefined;
    entities: MessageEntity[];
    parseMode?: string;
    keyboard?: InlineKeyboardMarkup;
  },
): ApiMessage {
  const { message } = stored;
  const same =
    message.text === change.text &&
    JSON.stringify(message.entities ?? []) === JSON.stringify(change.entities) &&
    JSON.stringify(message.reply_markup) === JSON.stringify(change.keyboard);
  if (same) throw badRequest(NOT_MODIFIED);
  if (change.text !== undefined) message.text = change.text;
  if (change.entities.length > 0) message.entities = change.entities;
  else delete message.entities;
  // As on Telegram, an edit without reply_markup removes the inline keyboard.
  if (change.keyboard !== undefined) message.reply_markup = change.keyboard;
  else delete message.reply_markup;
  message.edit_date = nowSeconds();
  stored.edited = true;
  if (change.parseMode !== undefined) stored.parseMode = change.parseMode;
  else delete stored.parseMode;
  state.addEvent({ chatId: message.chat.id, type: "edited", message: state.view(stored) });
  return structuredClone(message);
}

function editMessageText(state: EmulatorState, params: Params): ApiMessage {
  const stored = editableMessage(state, params);
  if (stored.message.text === undefined)
    throw badRequest("there is no text in the message to edit");
  const text = readText(params);
  const keyboard = readInlineKeyboard(params);
  return applyEdit(state, stored, keyboard === undefined ? text : { ...text, keyboard });
}

function editMessageReplyMarkup(state: EmulatorState, params: Params): ApiMessage {
  const stored = editableMessage(state, params);
  const keyboard = readInlineKeyboard(params);
  const change = {
    text: stored.message.text,
    entities: stored.message.entities ?? [],
    ...(stored.parseMode === undefined ? {} : { parseMode: stored.parseMode }),
  };
  return applyEdit(state, stored, keyboard === undefined ? change : { ...change, keyboard });
}

function deleteMessage(state: EmulatorState, params: Params): boolean {
  const chat = state.requireChat(chatIdParam(state, params));
  const messageId = requiredInt(params, "message_id");
  const stored = state.findMessage(chat.chat.id, messageId);
  if (stored === undefined) throw badRequest("message to delete not found");
  const own = stored.message.from.id === state.bot.id;
  const botIsAdmin = isAdministrator(chat.members.get(state.bot.id));
  if (!own && chat.chat.type !== "private" && !botIsAdmin) {
    throw badRequest("message can't be deleted");
  }
  stored.deleted = true;
  state.addEvent({ chatId: chat.chat.id, type: "deleted", messageId });
  return true;
}

function answerCallbackQuery(state: EmulatorState, params: Params): boolean {
  const id = optionalString(params, "callback_query_id");
  const query = id === undefined ? undefined : state.issuedQueries.get(id);
  if (id === undefined || query === undefined || query.answered) {
    throw badRequest("query is too old and response timeout expired or query ID is invalid");
  }
  const text = optionalString(params, "text");
  if (text !== undefined && text.length > 200) throw badRequest("MESSAGE_TOO_LONG");
  query.answered = true;
  const answer = {
    callbackQueryId: id,
    chatId: query.chatId,
    messageId: query.messageId,
    userId: query.userId,
    data: query.data,
    showAlert: optionalBool(params, "show_alert") ?? false,
    at: Date.now(),
    ...(text === undefined || text === "" ? {} : { text }),
    ...(params.url === undefined ? {} : { url: optionalString(params, "url") }),
  };
  state.callbackAnswers.push(answer);
  state.addEvent({ chatId: query.chatId, type: "callback_answer", answer });
  return true;
}

function sendChatAction(state: EmulatorState, params: Params): boolean {
  const chat = writableChat(state, chatIdParam(state, params));
  const action = optionalString(params, "action") ?? "";
  if (!CHAT_ACTIONS.has(action)) throw badRequest("wrong parameter action in request");
  state.addEvent({ chatId: chat.chat.id, type: "chat_action", action });
  return true;
}

// ---------------------------------------------------------------- members and chats

function memberUser(state: EmulatorState, userId: number): ApiUser {
  if (userId === state.bot.id) return { ...state.bot };
  const person = state.people.get(userId);
  if (person === undefined) throw badRequest("user not found");
  return { ...person.user };
}

/** A ChatMember object for a status, with the fields Telegram includes for it. */
function chatMember(user: ApiUser, status: ChatMemberStatus): Record<string, unknown> {
  switch (status) {
    case "creator":
      return { status, user, is_anonymous: false };
    case "administrator":
      return {
        status,
        user,
        can_be_edited: false,
        is_anonymous: false,
        can_manage_chat: true,
        can_delete_messages: true,
        can_manage_video_chats: true,
        can_restrict_members: true,
        can_promote_members: false,
        can_change_info: true,
        can_invite_users: true,
        can_post_stories: false,
        can_edit_stories: false,
        can_delete_stories: false,
        can_pin_messages: true,
      };
    case "restricted":
      return {
        status,
        user,
        is_member: true,
        can_send_messages: false,
        can_send_audios: false,
        can_send_documents: false,
        can_send_photos: false,
        can_send_videos: false,
        can_send_video_notes: false,
        can_send_voice_notes: false,
        can_send_polls: false,
        can_send_other_messages: false,
        can_add_web_page_previews: false,
        can_change_info: false,
        can_invite_users: false,
        can_pin_messages: false,
        can_manage_topics: false,
        until_date: 0,
      };
    case "kicked":
      return { status, user, until_date: 0 };
    default:
      return { status, user };
  }
}

function getChatMember(state: EmulatorState, params: Params): Record<string, unknown> {
  const chat = state.requireChat(chatIdParam(state, params));
  const userId = requiredInt(params, "user_id");
  const user = memberUser(state, userId);
  if (chat.chat.type === "private") {
    if (userId !== chat.chat.id && userId !== state.bot.id) throw badRequest("user not found");
    return chatMember(user, "member");
  }
  return chatMember(user, chat.members.get(userId) ?? "left");
}

function getChatAdministrators(
  state: EmulatorState,
  params: Params,
): Array<Record<string, unknown>> {
  const chat = state.requireChat(chatIdParam(state, params));
  if (chat.chat.type === "private") {
    throw badRequest("there are no administrators in the private chat");
  }
  const admins = [...chat.members].filter(([, status]) => isAdministrator(status));
  admins.sort(([, a], [, b]) => (a === "creator" ? -1 : b === "creator" ? 1 : 0));
  return admins.map(([userId, status]) => chatMember(memberUser(state, userId), status));
}

function getChat(state: EmulatorState, params: Params): Record<string, unknown> {
  const chat = state.requireChat(chatIdParam(state, params));
  return { ...chat.chat, accent_color_id: 0, max_reaction_count: 11 };
}

function leaveChat(state: EmulatorState, params: Params): boolean {
  const chat = state.requireChat(chatIdParam(state, params));
  if (chat.chat.type === "private") {
    throw badRequest("chat member status can't be changed in private chats");
  }
  chat.members.set(state.bot.id, "left");
  state.changed();
  return true;
}

// ---------------------------------------------------------------- commands

function commandsKey(params: Params): string {
  const scope = optionalJson(params, "scope") ?? { type: "default" };
  if (!isRecord(scope) || typeof scope.type !== "string") {
    throw badRequest("can't parse BotCommandScope JSON object");
  }
  const normalized: Record<string, unknown> = { type: scope.type };
  if (["chat", "chat_administrators", "chat_member"].includes(scope.type)) {
    normalized.chat_id = requiredInt(scope, "chat_id");
  }
  if (scope.type === "chat_member") normalized.user_id = requiredInt(scope, "user_id");
  const known = [
    "default",
    "all_private_chats",
    "all_group_chats",
    "all_chat_administrators",
    "chat",
    "chat_administrators",
    "chat_member",
  ];
  if (!known.includes(scope.type)) throw badRequest("wrong bot command scope type specified");
  const language = optionalString(params, "language_code") ?? "";
  if (language !== "" && !/^[a-z]{2}$/.test(language)) {
    throw badRequest("invalid language code specified");
  }
  return commandsScopeKey(normalized, language);
}

/** The key under which commands of one scope and language are kept. */
export function commandsScopeKey(scope: Record<string, unknown>, languageCode: string): string {
  return `${JSON.stringify(scope)}|${languageCode}`;
}

function setMyCommands(state: EmulatorState, params: Params): boolean {
  const key = commandsKey(params);
  const commands = optionalJson(params, "commands");
  if (!Array.isArray(commands)) throw badRequest("can't parse commands JSON object");
  if (commands.length > 100) throw badRequest("too many commands specified");
  const list = commands.map((entry) => {
    if (
      !isRecord(entry) ||
      typeof entry.command !== "string" ||
      typeof entry.description !== "string"
    ) {
      throw badRequest("can't parse BotCommand JSON object");
    }
    if (!/^[a-z0-9_]{1,32}$/.test(entry.command)) throw badRequest("BOT_COMMAND_INVALID");
    if (entry.description.length < 1 || entry.description.length > 256) {
      throw badRequest("BOT_COMMAND_DESCRIPTION_INVALID");
    }
    return { command: entry.command, description: entry.description };
  });
  if (list.length === 0) state.commands.delete(key);
  else state.commands.set(key, list);
  return true;
}

/**
 * The menu button of one private chat (`chat_id`) or the bot's default: `commands`, `default`
 * or a `web_app` with its text and https URL (Telegram refuses plain http; the emulator, like a
 * local Bot API server in test mode, takes http on this machine too).
 */
function setChatMenuButton(state: EmulatorState, params: Params): boolean {
  const key = params.chat_id === undefined ? "" : chatIdParam(state, params);
  if (key !== "") {
    const chat = state.requireChat(key);
    if (chat.chat.type !== "private") throw badRequest("chat_id must be a private chat");
  }
  const button = optionalJson(params, "menu_button") ?? { type: "default" };
  if (!isRecord(button) || typeof button.type !== "string") {
    throw badRequest("can't parse menu button JSON object");
  }
  if (button.type === "web_app") {
    const webApp = button.web_app;
    const url = isRecord(webApp) ? webApp.url : undefined;
    if (typeof button.text !== "string" || button.text === "" || typeof url !== "string") {
      throw badRequest("can't parse menu button JSON object");
    }
    if (!/^https:\/\/|^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(url)) {
      throw badRequest("BUTTON_URL_INVALID");
    }
  } else if (button.type !== "default" && button.type !== "commands") {
    throw badRequest("unsupported menu button type");
  }
  if (button.type === "default") state.menuButtons.delete(key);
  else state.menuButtons.set(key, structuredClone(button));
  return true;
}

function getChatMenuButton(state: EmulatorState, params: Params): unknown {
  const key = params.chat_id === undefined ? "" : chatIdParam(state, params);
  return structuredClone(
    state.menuButtons.get(key) ?? state.menuButtons.get("") ?? { type: "commands" },
  );
}

function getMyCommands(state: EmulatorState, params: Params): unknown {
  return structuredClone(state.commands.get(commandsKey(params)) ?? []);
}

function deleteMyCommands(state: EmulatorState, params: Params): boolean {
  state.commands.delete(commandsKey(params));
  return true;
}

// ---------------------------------------------------------------- updates and webhooks

function confirmUpTo(state: EmulatorState, offset: number | undefined): void {
  if (offset === undefined || offset === 0) return;
  if (offset < 0) {
    state.updates = state.updates.slice(offset);
    return;
  }
  state.updates = state.updates.filter((update) => update.update_id >= offset);
}

function deliverable(state: EmulatorState, limit: number): ApiUpdate[] {
  // Updates of kinds the bot did not ask for are dropped, as Telegram never delivers them.
  state.updates = state.updates.filter((update) => state.isAllowed(update));
  return structuredClone(state.updates.slice(0, limit));
}

async function getUpdates(
  state: EmulatorState,
  params: Params,
  signal?: AbortSignal,
): Promise<ApiUpdate[]> {
  if (state.webhook !== undefined) {
    throw new BotApiError(
      409,
      "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
    );
  }
  const limit = Math.min(Math.max(optionalInt(params, "limit") ?? 100, 1), 100);
  const timeout = Math.max(optionalInt(params, "timeout") ?? 0, 0);
  const allowed = optionalJson(params, "allowed_updates");
  if (Array.isArray(allowed))
    state.allowedUpdates = allowed.filter((kind) => typeof kind === "string");
  confirmUpTo(state, optionalInt(params, "offset"));
  // Only one getUpdates may be pending: the older one ends with Telegram's conflict.
  state.activePoll?.supersede();
  const ready = deliverable(state, limit);
  if (ready.length > 0 || timeout === 0) return ready;

  const controller = new AbortController();
  const onOuterAbort = (): void => controller.abort();
  signal?.addEventListener("abort", onOuterAbort, { once: true });
  return new Promise<ApiUpdate[]>((resolve, reject) => {
    const poll = {
      supersede: () => {
        reject(
          new BotApiError(
            409,
            "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
          ),
        );
        controller.abort();
      },
    };
    state.activePoll = poll;
    state
      .waitFor(
        () => {
          const updates = deliverable(state, limit);
          return updates.length > 0 ? updates : undefined;
        },
        { timeoutMs: timeout * 1000, signal: controller.signal, what: "updates" },
      )
      // The timeout, a closed emulator or a client that went away all answer an empty batch.
      .then(resolve, () => resolve([]))
      .finally(() => {
        if (state.activePoll === poll) state.activePoll = undefined;
        signal?.removeEventListener("abort", onOuterAbort);
      });
    // Whoever waits for a bot to be polling may go on now.
    state.changed();
  });
}

function setWebhook(state: EmulatorState, params: Params): boolean {
  const url = optionalString(params, "url") ?? "";
  if (url === "") {
    state.webhook = undefined;
    return true;
  }
  if (!/^https?:\/\/\S+$/.test(url)) throw badRequest("bad webhook: Wrong HTTP URL specified");
  const secretToken = optionalString(params, "secret_token");
  if (secretToken !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secretToken)) {
    throw badRequest("secret token contains unallowed characters");
  }
  const allowed = optionalJson(params, "allowed_updates");
  if (optionalBool(params, "drop_pending_updates")) state.updates = [];
  state.activePoll?.supersede();
  state.webhook = {
    url,
    maxConnections: optionalInt(params, "max_connections") ?? 40,
    ...(secretToken === undefined ? {} : { secretToken }),
    ...(Array.isArray(allowed) ? { allowedUpdates: allowed.map(String) } : {}),
  };
  return true;
}

function deleteWebhook(state: EmulatorState, params: Params): boolean {
  state.webhook = undefined;
  if (optionalBool(params, "drop_pending_updates")) state.updates = [];
  return true;
}

function getWebhookInfo(state: EmulatorState): Record<string, unknown> {
  const info: Record<string, unknown> = {
    url: state.webhook?.url ?? "",
    has_custom_certificate: false,
    pending_update_count: state.updates.length,
  };
  if (state.webhook !== undefined) {
    info.max_connections = state.webhook.maxConnections;
    if (state.webhook.allowedUpdates !== undefined)
      info.allowed_updates = state.webhook.allowedUpdates;
  }
  return info;
}

function getMe(state: EmulatorState): Record<string, unknown> {
  return {
    ...state.bot,
    can_join_groups: true,
    can_read_all_group_messages: false,
    supports_inline_queries: false,
    can_connect_to_business: false,
    has_main_web_app: false,
  };
}

/** Methods by lower-case name: Telegram's method names are case-insensitive. */
const HANDLERS = new Map<string, { name: string; handler: Handler }>(
  Object.entries({
    getMe,
    getUpdates,
    setWebhook,
    deleteWebhook,
    getWebhookInfo,
    sendMessage,
    sendDocument,
    editMessageText,
    editMessageReplyMarkup,
    deleteMessage,
    answerCallbackQuery,
    sendChatAction,
    setMyCommands,
    getMyCommands,
    deleteMyCommands,
    setChatMenuButton,
    getChatMenuButton,
    getChatMember,
    getChatAdministrators,
    getChat,
    leaveChat,
    getFile,
    ...STARS_HANDLERS,
  } satisfies Record<string, Handler>).map(([name, handler]) => [
    name.toLowerCase(),
    { name, handler },
  ]),
);

function decodeJsonFields(params: Params): Params {
  const decoded: Params = { ...params };
  for (const field of JSON_FIELDS) {
    const value = decoded[field];
    if (typeof value === "string" && value !== "") {
      try {
        decoded[field] = JSON.parse(value) as unknown;
      } catch {
        // Left as text: the method itself answers Telegram's "can't parse" refusal.
      }
    }
  }
  return decoded;
}

/**
 * Runs one Bot API call and records it. `signal` ends a held getUpdates when the HTTP client
 * goes away.
 */
export async function callBotApi(
  state: EmulatorState,
  method: string,
  rawParams: Params,
  signal?: AbortSignal,
): Promise<BotApiResponse> {
  const params = decodeJsonFields(rawParams);
  const entry = HANDLERS.get(method.toLowerCase());
  const name = entry?.name ?? method;
  const run = (): unknown => {
    if (entry === undefined) throw new BotApiError(404, "Not Found");
    const injected = state.takeInjectedError(entry.name);
    if (injected !== undefined) throw injected;
    return entry.handler(state, params, signal);
  };
  if (name === "getUpdates") {
    // The only method that waits: it cannot hold the waiters meanwhile.
    const response = await respond(run).catch(errorResponse);
    return state.atomically(() => record(state, name, params, response));
  }
  // Every other method is synchronous: its effects and its log entry appear together.
  return state.atomically(() => {
    let response: BotApiResponse;
    try {
      response = { ok: true, result: run() };
    } catch (thrown) {
      response = errorResponse(thrown);
    }
    return record(state, name, params, response);
  });
}

async function respond(run: () => unknown): Promise<BotApiResponse> {
  return { ok: true, result: await run() };
}

function errorResponse(thrown: unknown): BotApiResponse {
  if (thrown instanceof AnswerDropped) {
    return { ok: false, error_code: 0, description: thrown.message, dropped: thrown.how };
  }
  const error = asBotApiError(thrown);
  const response: BotApiResponse = {
    ok: false,
    error_code: error.errorCode,
    description: error.description,
  };
  if (error.parameters !== undefined) response.parameters = error.parameters;
  return response;
}

function record(
  state: EmulatorState,
  method: string,
  payload: Params,
  response: BotApiResponse,
): BotApiResponse {
  state.recordCall({
    method,
    payload,
    ok: response.ok,
    ...(response.ok
      ? { result: response.result }
      : { error: { error_code: response.error_code, description: response.description } }),
  });
  return response;
}
