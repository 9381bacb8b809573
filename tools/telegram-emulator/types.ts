/**
 * The slice of Telegram Bot API objects the emulator produces and stores. Kept as plain JSON
 * shapes (not grammY's deep unions) because the emulator builds them field by field and sends
 * them over HTTP exactly as Telegram would.
 */

/** A Telegram user (a person or the bot), as in `Message.from`. */
export interface ApiUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
}

/** Chat kinds the emulator knows; channels are out of scope for this bot. */
type ChatType = "private" | "group" | "supergroup";

/** A chat as embedded in messages. */
export interface ApiChat {
  id: number;
  type: ChatType;
  title?: string;
  username?: string;
  first_name?: string;
  last_name?: string;
}

/** A text entity; offsets and lengths are in UTF-16 code units, like Telegram's. */
export interface MessageEntity {
  type: string;
  offset: number;
  length: number;
  url?: string;
  language?: string;
}

/** One inline keyboard button; only the fields this bot may use are typed. */
export interface InlineKeyboardButton {
  text: string;
  callback_data?: string;
  url?: string;
  [other: string]: unknown;
}

/** An inline keyboard, the only reply markup Telegram keeps on a message. */
export interface InlineKeyboardMarkup {
  inline_keyboard: InlineKeyboardButton[][];
}

/** A file the bot uploaded (multipart), as the emulator keeps it: its name and size only. */
export interface UploadedFile {
  fileName: string;
  size: number;
  /** The bytes, kept only until the emulator has saved them (`filesDir`). */
  content?: Buffer;
}

/** A document in a message, as Telegram describes one. */
export interface ApiDocument {
  file_id: string;
  file_unique_id: string;
  file_name: string;
  mime_type?: string;
  file_size: number;
}

/** A message as Telegram returns and delivers it (text, or a document with its caption). */
export interface ApiMessage {
  message_id: number;
  from: ApiUser;
  chat: ApiChat;
  date: number;
  edit_date?: number;
  /** A text message's text; absent on a document's message, as on Telegram (see `caption`). */
  text?: string;
  document?: ApiDocument;
  caption?: string;
  entities?: MessageEntity[];
  reply_markup?: InlineKeyboardMarkup;
  reply_to_message?: ApiMessage;
  /** An invoice in Stars the bot sent (./stars-api.ts). */
  invoice?: Record<string, unknown>;
  /** A person's payment of an invoice (Telegram's service message). */
  successful_payment?: Record<string, unknown>;
}

/** A button press delivered to the bot. */
interface ApiCallbackQuery {
  id: string;
  from: ApiUser;
  message: ApiMessage;
  chat_instance: string;
  data: string;
}

/** An update as returned by getUpdates. */
export interface ApiUpdate {
  update_id: number;
  message?: ApiMessage;
  callback_query?: ApiCallbackQuery;
  /** Telegram asks the bot before charging a person for an invoice. */
  pre_checkout_query?: {
    id: string;
    from: ApiUser;
    currency: string;
    total_amount: number;
    invoice_payload: string;
  };
}

/** Membership statuses, as in Telegram's ChatMember variants. */
export type ChatMemberStatus =
  "creator" | "administrator" | "member" | "left" | "kicked" | "restricted";

/** One Bot API call the bot made, kept so tests can assert on what the bot did. */
export interface RecordedCall {
  /** Position in the call log, from 1. */
  seq: number;
  /** Method name as the bot spelled it. */
  method: string;
  /** Parameters after decoding (JSON, form or query), with JSON-valued form fields parsed. */
  payload: Record<string, unknown>;
  ok: boolean;
  result?: unknown;
  error?: { error_code: number; description: string };
  /** Milliseconds since the epoch. */
  at: number;
}

/** What the bot answered to a button press. */
export interface CallbackAnswer {
  callbackQueryId: string;
  chatId: number;
  messageId: number;
  userId: number;
  data: string;
  text?: string;
  showAlert: boolean;
  url?: string;
  at: number;
}

/** A message as the person sees it in the chat right now. */
export interface ChatViewMessage {
  id: number;
  chatId: number;
  fromBot: boolean;
  from: ApiUser;
  text: string;
  replyMarkup?: InlineKeyboardMarkup;
  parseMode?: string;
  edited: boolean;
  replyToMessageId?: number;
  date: number;
  /** Where the emulator saved a document's bytes, when it was given a `filesDir`. */
  savedFile?: string;
  /** The full message as Telegram would return it now. */
  message: ApiMessage;
}

/** Something that changed in a chat, in order; the terminal chat and waits follow these. */
export type ChatEvent =
  | { seq: number; chatId: number; type: "message"; message: ChatViewMessage }
  | { seq: number; chatId: number; type: "edited"; message: ChatViewMessage }
  | { seq: number; chatId: number; type: "deleted"; messageId: number }
  | { seq: number; chatId: number; type: "callback_answer"; answer: CallbackAnswer }
  | { seq: number; chatId: number; type: "chat_action"; action: string };

/** A person the emulator can act as. */
export interface NewUser {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
  /**
   * Whether the person has already opened a private chat with the bot. Telegram refuses to let
   * a bot write first (403); the chat opens by itself when the person sends anything.
   */
  startedBot?: boolean;
}

/** A group or supergroup the bot is in. */
export interface NewGroup {
  /** Negative, like Telegram's group ids. */
  id: number;
  title: string;
  type: "group" | "supergroup";
}
