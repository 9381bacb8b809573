/**
 * The group premium prompts that are waiting for a duration: who started each one and for
 * whom, keyed by the prompt message. The buttons carry only the duration; everything that
 * matters (the starter, the recipient) is looked up here, so forged callback data cannot name
 * another recipient or pass for another administrator. Kept in the kv store so a restart
 * does not strand a prompt.
 */
import type { Db } from "../../../storage/database.js";
import { KeyValueStore } from "../../../storage/key-value-store.js";

export interface GroupPrompt {
  chatId: number;
  messageId: number;
  /** The administrator who sent /premium: the only one whose presses count. */
  starterId: number;
  /** Without `@`. */
  recipient: string;
  createdAt: number;
}

export class GroupPromptStore {
  readonly #byMessage: KeyValueStore<GroupPrompt>;
  /** The open prompt of each administrator in each group (one at a time). */
  readonly #byStarter: KeyValueStore<number>;

  constructor(db: Db) {
    this.#byMessage = new KeyValueStore<GroupPrompt>(db, "group-prompts");
    this.#byStarter = new KeyValueStore<number>(db, "group-prompt-of");
  }

  get(chatId: number, messageId: number): GroupPrompt | undefined {
    return this.#byMessage.read(`${chatId}:${messageId}`);
  }

  /** The starter's open prompt in the chat, if any. */
  openOf(chatId: number, starterId: number): GroupPrompt | undefined {
    const messageId = this.#byStarter.read(`${chatId}:${starterId}`);
    return messageId === undefined ? undefined : this.get(chatId, messageId);
  }

  add(prompt: GroupPrompt): void {
    this.#byMessage.write(`${prompt.chatId}:${prompt.messageId}`, prompt);
    this.#byStarter.write(`${prompt.chatId}:${prompt.starterId}`, prompt.messageId);
  }

  remove(prompt: GroupPrompt): void {
    this.#byMessage.delete(`${prompt.chatId}:${prompt.messageId}`);
    if (this.#byStarter.read(`${prompt.chatId}:${prompt.starterId}`) === prompt.messageId) {
      this.#byStarter.delete(`${prompt.chatId}:${prompt.starterId}`);
    }
  }
}
