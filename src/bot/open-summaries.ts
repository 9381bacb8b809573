/**
 * The summaries (draft intents with Confirm buttons) a person has open in a chat, with the
 * message that shows each one. When the person starts a new flow or sends /cancel, the open
 * drafts are cancelled in the ledger and their keyboards removed, so an old summary can never
 * buy anything later.
 */
import type { KeyValue, KeyValueStores } from "../storage/types.js";

export interface OpenSummary {
  intentId: string;
  chatId: number;
  messageId: number;
}

/** Bounded: a person never has more than a few open; older entries are dropped first. */
const MAX_OPEN = 10;

export class OpenSummaryStore {
  readonly #store: KeyValue<OpenSummary[]>;

  constructor(stores: KeyValueStores) {
    this.#store = stores<OpenSummary[]>("open-summaries");
  }

  list(chatId: number, userId: number): OpenSummary[] {
    return this.#store.read(key(chatId, userId)) ?? [];
  }

  add(userId: number, summary: OpenSummary): void {
    const list = this.list(summary.chatId, userId).filter((s) => s.intentId !== summary.intentId);
    list.push(summary);
    this.#store.write(key(summary.chatId, userId), list.slice(-MAX_OPEN));
  }

  remove(chatId: number, userId: number, intentId: string): void {
    const list = this.list(chatId, userId);
    const rest = list.filter((s) => s.intentId !== intentId);
    if (rest.length === list.length) return;
    if (rest.length === 0) this.#store.delete(key(chatId, userId));
    else this.#store.write(key(chatId, userId), rest);
  }

  clear(chatId: number, userId: number): void {
    this.#store.delete(key(chatId, userId));
  }
}

function key(chatId: number, userId: number): string {
  return `${chatId}:${userId}`;
}
