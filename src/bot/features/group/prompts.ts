/**
 * The group premium prompts that are waiting for a duration: who started each one and for
 * whom, keyed by the prompt message. The buttons carry only the duration; everything that
 * matters (the starter, the recipient) is looked up here, so forged callback data cannot name
 * another recipient or pass for another administrator. Kept in the kv store so a restart
 * does not strand a prompt.
 *
 * It also remembers every message the group feature leaves in a group (prompts, and short
 * replies such as refusals and usage hints) with when it was sent, so the bot can clean up
 * after itself: a person's replies when their flow ends, and anything older than its expiry.
 */
import type { Username } from "../../../gifts/username.js";
import type { KeyValue, KeyValueStores } from "../../../storage/types.js";

export interface GroupPrompt {
  chatId: number;
  messageId: number;
  /** The administrator who sent /premium: the only one whose presses count. */
  starterId: number;
  recipient: Username;
  /** Premium through Telegram: the recipient's Telegram id (issue #39). */
  recipientUserId?: number;
  createdAt: number;
}

/** A message the bot left in a group that it will delete later. */
export interface TrackedGroupMessage {
  chatId: number;
  messageId: number;
  /** The person whose command it answers. */
  ownerId: number;
  kind: "prompt" | "reply";
  createdAt: number;
}

/** Bounded per group: a busy group cannot grow the list without end (oldest dropped). */
const MAX_TRACKED_PER_CHAT = 200;
const CHATS_KEY = "chats";

export class GroupPromptStore {
  readonly #byMessage: KeyValue<GroupPrompt>;
  /** The open prompt of each administrator in each group (one at a time). */
  readonly #byStarter: KeyValue<number>;
  /** Per group: the bot's messages waiting to be cleaned up. */
  readonly #tracked: KeyValue<TrackedGroupMessage[]>;
  /** The groups that have tracked messages, so a sweep need not scan the table. */
  readonly #chats: KeyValue<number[]>;

  constructor(stores: KeyValueStores) {
    this.#byMessage = stores<GroupPrompt>("group-prompts");
    this.#byStarter = stores<number>("group-prompt-of");
    this.#tracked = stores<TrackedGroupMessage[]>("group-tracked");
    this.#chats = stores<number[]>("group-tracked-chats");
  }

  /** Remembers a short reply of the bot, to delete when the owner's flow ends or it expires. */
  async trackReply(reply: Omit<TrackedGroupMessage, "kind">): Promise<void> {
    await this.#track({ ...reply, kind: "reply" });
  }

  /** The bot's tracked short replies to one person in a group. */
  async repliesOf(chatId: number, ownerId: number): Promise<TrackedGroupMessage[]> {
    return (await this.#trackedIn(chatId)).filter(
      (m) => m.kind === "reply" && m.ownerId === ownerId,
    );
  }

  /** Forgets a tracked message (it was deleted, or is gone). */
  async untrack(chatId: number, messageId: number): Promise<void> {
    const list = await this.#trackedIn(chatId);
    const rest = list.filter((m) => m.messageId !== messageId);
    if (rest.length === list.length) return;
    await this.#saveTracked(chatId, rest);
  }

  /** Tracked messages sent at or before `before`, in one group or in all of them. */
  async sentBefore(before: number, chatId?: number): Promise<TrackedGroupMessage[]> {
    const chats = chatId === undefined ? ((await this.#chats.read(CHATS_KEY)) ?? []) : [chatId];
    const found: TrackedGroupMessage[] = [];
    for (const id of chats) {
      found.push(...(await this.#trackedIn(id)).filter((m) => m.createdAt <= before));
    }
    return found;
  }

  async get(chatId: number, messageId: number): Promise<GroupPrompt | undefined> {
    return this.#byMessage.read(`${chatId}:${messageId}`);
  }

  /** The starter's open prompt in the chat, if any. */
  async openOf(chatId: number, starterId: number): Promise<GroupPrompt | undefined> {
    const messageId = await this.#byStarter.read(`${chatId}:${starterId}`);
    return messageId === undefined ? undefined : this.get(chatId, messageId);
  }

  async add(prompt: GroupPrompt): Promise<void> {
    await this.#byMessage.write(`${prompt.chatId}:${prompt.messageId}`, prompt);
    await this.#byStarter.write(`${prompt.chatId}:${prompt.starterId}`, prompt.messageId);
    await this.#track({
      chatId: prompt.chatId,
      messageId: prompt.messageId,
      ownerId: prompt.starterId,
      kind: "prompt",
      createdAt: prompt.createdAt,
    });
  }

  async remove(prompt: GroupPrompt): Promise<void> {
    await this.#byMessage.delete(`${prompt.chatId}:${prompt.messageId}`);
    if ((await this.#byStarter.read(`${prompt.chatId}:${prompt.starterId}`)) === prompt.messageId) {
      await this.#byStarter.delete(`${prompt.chatId}:${prompt.starterId}`);
    }
    await this.untrack(prompt.chatId, prompt.messageId);
  }

  async #trackedIn(chatId: number): Promise<TrackedGroupMessage[]> {
    return (await this.#tracked.read(String(chatId))) ?? [];
  }

  async #track(message: TrackedGroupMessage): Promise<void> {
    const list = (await this.#trackedIn(message.chatId)).filter(
      (m) => m.messageId !== message.messageId,
    );
    list.push(message);
    await this.#saveTracked(message.chatId, list.slice(-MAX_TRACKED_PER_CHAT));
  }

  async #saveTracked(chatId: number, list: TrackedGroupMessage[]): Promise<void> {
    const chats = (await this.#chats.read(CHATS_KEY)) ?? [];
    if (list.length === 0) {
      await this.#tracked.delete(String(chatId));
      if (chats.includes(chatId)) {
        await this.#chats.write(
          CHATS_KEY,
          chats.filter((id) => id !== chatId),
        );
      }
      return;
    }
    await this.#tracked.write(String(chatId), list);
    if (!chats.includes(chatId)) await this.#chats.write(CHATS_KEY, [...chats, chatId]);
  }
}
