/**
 * Who may spend from the operator's wallet. Admins come from configuration only, so nobody can
 * promote themselves from a chat; buyers and groups come from configuration plus the lists an
 * admin keeps in the bot, which live in the store (SQLite) so they survive restarts.
 */
import type { AccessConfig } from "../config/types.js";
import type { AccessStore, StoredGrant } from "../storage/types.js";

/** The settings that decide who may buy (ADMIN_IDS, ALLOWED_USER_IDS, ...). */
export type AccessRules = Pick<
  AccessConfig,
  "adminIds" | "allowedUserIds" | "allowedChatIds" | "publicPurchases"
>;

/** Where a permission comes from, so an admin knows what `/deny` can and cannot undo. */
export type Grant = "admin" | "config" | "bot" | "public";

export interface AllowedEntry {
  id: number;
  source: "config" | "bot";
  addedBy: number | undefined;
  addedAt: number | undefined;
  /** A name to show admins (a username or a group title), when known. */
  label: string | undefined;
}

export type RemoveResult = "removed" | "not_listed" | "configured";

export class AccessList {
  #config: AccessRules;
  readonly #store: AccessStore;

  constructor(store: AccessStore, config: AccessRules) {
    this.#config = config;
    this.#store = store;
  }

  /**
   * New configured buyers, groups and PUBLIC_PURCHASES (settings reloaded while running). The
   * admins stay: ADMIN_IDS needs a restart (their command menus are registered at start).
   */
  updateConfigured(config: Omit<AccessRules, "adminIds">): void {
    this.#config = { ...config, adminIds: this.#config.adminIds };
  }

  /** ADMIN_IDS, in configured order. */
  get adminIds(): readonly number[] {
    return this.#config.adminIds;
  }

  isAdmin(userId: number): boolean {
    return this.#config.adminIds.includes(userId);
  }

  /** Why this person may buy, or undefined when they may not. */
  async buyerGrant(userId: number): Promise<Grant | undefined> {
    if (this.isAdmin(userId)) return "admin";
    if (this.#config.allowedUserIds.includes(userId)) return "config";
    if (await this.#store.hasUser(userId)) return "bot";
    if (this.#config.publicPurchases) return "public";
    return undefined;
  }

  /**
   * Whether this person may buy: asked on every update (the strangers' cooldown, the purchase
   * gate), so the stored list is read only when nothing in the configuration already says yes.
   */
  async mayBuy(userId: number): Promise<boolean> {
    return (
      this.isAdmin(userId) ||
      this.#config.allowedUserIds.includes(userId) ||
      this.#config.publicPurchases ||
      (await this.#store.hasUser(userId))
    );
  }

  /** Whether a group's administrators may gift premium from this wallet. */
  async isChatAllowed(chatId: number): Promise<boolean> {
    return this.#config.allowedChatIds.includes(chatId) || (await this.#store.hasChat(chatId));
  }

  async allowUser(
    userId: number,
    adminId: number,
    label?: string,
    now = Date.now(),
  ): Promise<void> {
    await this.#store.addUser({ id: userId, addedBy: adminId, addedAt: now, label });
  }

  async denyUser(userId: number): Promise<RemoveResult> {
    if (await this.#store.removeUser(userId)) return "removed";
    return this.#config.allowedUserIds.includes(userId) ? "configured" : "not_listed";
  }

  async allowChat(
    chatId: number,
    adminId: number,
    label?: string,
    now = Date.now(),
  ): Promise<void> {
    await this.#store.addChat({ id: chatId, addedBy: adminId, addedAt: now, label });
  }

  async denyChat(chatId: number): Promise<RemoveResult> {
    if (await this.#store.removeChat(chatId)) return "removed";
    return this.#config.allowedChatIds.includes(chatId) ? "configured" : "not_listed";
  }

  /** Every buyer: configured ones first, then those admins added in the bot. */
  async allowedUsers(): Promise<AllowedEntry[]> {
    return merge(this.#config.allowedUserIds, await this.#store.users());
  }

  async allowedChats(): Promise<AllowedEntry[]> {
    return merge(this.#config.allowedChatIds, await this.#store.chats());
  }

  get publicPurchases(): boolean {
    return this.#config.publicPurchases;
  }
}

function merge(configured: readonly number[], stored: StoredGrant[]): AllowedEntry[] {
  const entries: AllowedEntry[] = configured.map((id) => ({
    id,
    source: "config",
    addedBy: undefined,
    addedAt: undefined,
    label: undefined,
  }));
  for (const grant of stored) {
    if (configured.includes(grant.id)) continue;
    entries.push({ ...grant, source: "bot" });
  }
  return entries;
}
