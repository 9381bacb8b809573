/**
 * Whether a person is an administrator of a group, asked of Telegram (`getChatMember`) and
 * remembered briefly. A group's administrators change rarely, but a demoted administrator
 * must not buy: the check at confirmation bypasses the cache, while the other steps of a
 * flow (starting it, picking a duration) may reuse an answer a few seconds old.
 */
import type { Api } from "grammy";

/** `unknown`: Telegram could not be asked (network, flood wait); never cached. */
export type AdminCheck = "admin" | "not_admin" | "unknown";

export interface GroupAdminCheckerOptions {
  /** How long an answer is reused, default 30 s. */
  ttlMs?: number;
  now?: () => number;
}

interface Entry {
  admin: boolean;
  at: number;
}

/** Keeps the cache small even in a bot that lives in many groups. */
const MAX_ENTRIES = 5_000;

export class GroupAdminChecker {
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, Entry>();

  constructor(options: GroupAdminCheckerOptions = {}) {
    this.#ttlMs = options.ttlMs ?? 30_000;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Asks (or remembers) whether `userId` is the creator or an administrator of `chatId`.
   * `fresh` skips the cache and refreshes it: use it right before money is spent.
   */
  async check(
    api: Api,
    chatId: number,
    userId: number,
    options: { fresh?: boolean } = {},
  ): Promise<AdminCheck> {
    const key = `${chatId}:${userId}`;
    const now = this.#now();
    const cached = this.#entries.get(key);
    if (options.fresh !== true && cached !== undefined && now - cached.at < this.#ttlMs) {
      return cached.admin ? "admin" : "not_admin";
    }
    let admin: boolean;
    try {
      const member = await api.getChatMember(chatId, userId);
      admin = member.status === "creator" || member.status === "administrator";
    } catch (error) {
      // Telegram says the person is not in the chat (400): a definite "no". Anything else
      // (network, 429, 5xx) says nothing about their rights, so it is not remembered.
      if (isBadRequest(error)) {
        admin = false;
      } else {
        this.#entries.delete(key);
        return "unknown";
      }
    }
    this.#remember(key, { admin, at: now });
    return admin ? "admin" : "not_admin";
  }

  /** Forgets everything known about a chat (e.g. the group was denied or the bot removed). */
  forgetChat(chatId: number): void {
    for (const key of this.#entries.keys()) {
      if (key.startsWith(`${chatId}:`)) this.#entries.delete(key);
    }
  }

  #remember(key: string, entry: Entry): void {
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    if (this.#entries.size > MAX_ENTRIES) {
      // Maps iterate in insertion order: the first key is the oldest answer.
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
  }
}

function isBadRequest(error: unknown): boolean {
  return (
    typeof error === "object" && error !== null && "error_code" in error && error.error_code === 400
  );
}
