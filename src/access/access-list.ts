/**
 * Who may spend from the operator's wallet. Admins come from configuration only, so nobody can
 * promote themselves from a chat; buyers and groups come from configuration plus the lists an
 * admin keeps in the bot, which live in SQLite so they survive restarts.
 */
import type { Db } from "../storage/database.js";

export interface AccessConfig {
  adminIds: readonly number[];
  allowedUserIds: readonly number[];
  allowedChatIds: readonly number[];
  /** Anyone may buy (within the spending limits). */
  publicPurchases: boolean;
}

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

interface Row {
  id: number;
  added_by: number;
  added_at: number;
  label: string | null;
}

export class AccessList {
  readonly #config: AccessConfig;
  readonly #statements;

  constructor(db: Db, config: AccessConfig) {
    this.#config = config;
    this.#statements = {
      hasUser: db.prepare<[number], { one: 1 }>("SELECT 1 AS one FROM allowed_users WHERE id = ?"),
      hasChat: db.prepare<[number], { one: 1 }>("SELECT 1 AS one FROM allowed_chats WHERE id = ?"),
      addUser: db.prepare<[number, number, number, string | null]>(
        `INSERT INTO allowed_users (id, added_by, added_at, label) VALUES (?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET label = COALESCE(excluded.label, label)`,
      ),
      addChat: db.prepare<[number, number, number, string | null]>(
        `INSERT INTO allowed_chats (id, added_by, added_at, label) VALUES (?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET label = COALESCE(excluded.label, label)`,
      ),
      removeUser: db.prepare<[number]>("DELETE FROM allowed_users WHERE id = ?"),
      removeChat: db.prepare<[number]>("DELETE FROM allowed_chats WHERE id = ?"),
      users: db.prepare<[], Row>("SELECT * FROM allowed_users ORDER BY added_at"),
      chats: db.prepare<[], Row>("SELECT * FROM allowed_chats ORDER BY added_at"),
    };
  }

  /** ADMIN_IDS, in configured order. */
  get adminIds(): readonly number[] {
    return this.#config.adminIds;
  }

  isAdmin(userId: number): boolean {
    return this.#config.adminIds.includes(userId);
  }

  /** Why this person may buy, or undefined when they may not. */
  buyerGrant(userId: number): Grant | undefined {
    if (this.isAdmin(userId)) return "admin";
    if (this.#config.allowedUserIds.includes(userId)) return "config";
    if (this.#statements.hasUser.get(userId)) return "bot";
    if (this.#config.publicPurchases) return "public";
    return undefined;
  }

  mayBuy(userId: number): boolean {
    return this.buyerGrant(userId) !== undefined;
  }

  /** Whether a group's administrators may gift premium from this wallet. */
  isChatAllowed(chatId: number): boolean {
    return (
      this.#config.allowedChatIds.includes(chatId) ||
      this.#statements.hasChat.get(chatId) !== undefined
    );
  }

  allowUser(userId: number, adminId: number, label?: string, now = Date.now()): void {
    this.#statements.addUser.run(userId, adminId, now, label ?? null);
  }

  denyUser(userId: number): RemoveResult {
    if (this.#statements.removeUser.run(userId).changes > 0) return "removed";
    return this.#config.allowedUserIds.includes(userId) ? "configured" : "not_listed";
  }

  allowChat(chatId: number, adminId: number, label?: string, now = Date.now()): void {
    this.#statements.addChat.run(chatId, adminId, now, label ?? null);
  }

  denyChat(chatId: number): RemoveResult {
    if (this.#statements.removeChat.run(chatId).changes > 0) return "removed";
    return this.#config.allowedChatIds.includes(chatId) ? "configured" : "not_listed";
  }

  /** Every buyer: configured ones first, then those admins added in the bot. */
  allowedUsers(): AllowedEntry[] {
    return merge(this.#config.allowedUserIds, this.#statements.users.all());
  }

  allowedChats(): AllowedEntry[] {
    return merge(this.#config.allowedChatIds, this.#statements.chats.all());
  }

  get publicPurchases(): boolean {
    return this.#config.publicPurchases;
  }
}

function merge(configured: readonly number[], rows: Row[]): AllowedEntry[] {
  const entries: AllowedEntry[] = configured.map((id) => ({
    id,
    source: "config",
    addedBy: undefined,
    addedAt: undefined,
    label: undefined,
  }));
  for (const row of rows) {
    if (configured.includes(row.id)) continue;
    entries.push({
      id: row.id,
      source: "bot",
      addedBy: row.added_by,
      addedAt: row.added_at,
      label: row.label ?? undefined,
    });
  }
  return entries;
}
