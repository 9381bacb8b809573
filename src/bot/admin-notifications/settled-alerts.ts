/**
 * The messages that show an unknown outcome with the buttons to settle it (each admin's alert,
 * each /pending listing), remembered per intent and admin with their evidence, so that once the
 * outcome is settled (by any admin, or by the service's late answer) every one of them is
 * edited into its settled state and loses its buttons: no message goes on saying "Purchases
 * stay on hold" above buttons that can no longer do anything.
 *
 * Kept in the key-value store (a restart still finds them), one small list per intent and
 * admin chat: an admin's messages are shown one at a time, so two writes never race on a list.
 */
import type { KeyValue, KeyValueStores } from "../../storage/types.js";

/** One message with the settle buttons: where it is, and its evidence (without title and hint). */
export interface AlertMessage {
  messageId: number;
  body: string;
}

/** An admin is shown one intent a handful of times at most (the alert, a few /pending). */
const MAX_PER_CHAT = 20;

export class SettledAlerts {
  readonly #store: KeyValue<AlertMessage[]>;

  constructor(stores: KeyValueStores) {
    this.#store = stores<AlertMessage[]>("alert-messages");
  }

  /** Remembers a message with the settle buttons of `intentId` in admin chat `chatId`. */
  async remember(intentId: string, chatId: number, message: AlertMessage): Promise<void> {
    const at = key(intentId, chatId);
    const list = ((await this.#store.read(at)) ?? []).filter(
      (m) => m.messageId !== message.messageId,
    );
    list.push(message);
    await this.#store.write(at, list.slice(-MAX_PER_CHAT));
  }

  /** Whether this message is remembered (its settlement edits it; nobody else need). */
  async shows(intentId: string, chatId: number, messageId: number): Promise<boolean> {
    const list = (await this.#store.read(key(intentId, chatId))) ?? [];
    return list.some((m) => m.messageId === messageId);
  }

  /** The messages of `intentId` in `chatId`, forgotten as they are handed out. */
  async take(intentId: string, chatId: number): Promise<AlertMessage[]> {
    const at = key(intentId, chatId);
    const list = (await this.#store.read(at)) ?? [];
    if (list.length > 0) await this.#store.delete(at);
    return list;
  }
}

function key(intentId: string, chatId: number): string {
  return `${intentId}:${chatId}`;
}
