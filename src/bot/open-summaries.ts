/**
 * The summaries (draft intents with Confirm buttons) a person has open in a chat, with the
 * message that shows each one. When the person starts a new flow or sends /cancel, the open
 * drafts are cancelled in the ledger and their keyboards removed, so an old summary can never
 * buy anything later.
 */
import { LRUCache } from "lru-cache";
import type { KeyValue, KeyValueStores } from "../storage/types.js";

export interface OpenSummary {
  intentId: string;
  chatId: number;
  messageId: number;
}

/** Bounded: a person never has more than a few open; older entries are dropped first. */
const MAX_OPEN = 10;

/** People and chats whose list is remembered in memory; the least recently used are read again. */
const MAX_REMEMBERED = 2_000;

/**
 * Kept in the kv store, so a restart still finds them. Asked at every flow's start, summary and
 * Confirm, so each list read is remembered in memory too (written through: the bot's one
 * process is the only writer).
 */
export class OpenSummaryStore {
  readonly #store: KeyValue<OpenSummary[]>;
  readonly #known = new LRUCache<string, readonly OpenSummary[]>({ max: MAX_REMEMBERED });

  constructor(stores: KeyValueStores) {
    this.#store = stores<OpenSummary[]>("open-summaries");
  }

  async list(chatId: number, userId: number): Promise<OpenSummary[]> {
    const at = key(chatId, userId);
    let list = this.#known.get(at);
    if (list === undefined) {
      list = (await this.#store.read(at)) ?? [];
      this.#known.set(at, list);
    }
    return [...list];
  }

  async add(userId: number, summary: OpenSummary): Promise<void> {
    const list = (await this.list(summary.chatId, userId)).filter(
      (s) => s.intentId !== summary.intentId,
    );
    list.push(summary);
    await this.#write(key(summary.chatId, userId), list.slice(-MAX_OPEN));
  }

  async remove(chatId: number, userId: number, intentId: string): Promise<void> {
    const list = await this.list(chatId, userId);
    const rest = list.filter((s) => s.intentId !== intentId);
    if (rest.length === list.length) return;
    await this.#write(key(chatId, userId), rest);
  }

  async clear(chatId: number, userId: number): Promise<void> {
    await this.#write(key(chatId, userId), []);
  }

  async #write(at: string, list: OpenSummary[]): Promise<void> {
    if (list.length === 0) await this.#store.delete(at);
    else await this.#store.write(at, list);
    this.#known.set(at, list);
  }
}

function key(chatId: number, userId: number): string {
  return `${chatId}:${userId}`;
}
