/** The buyers and groups admins allow in the bot, in SQLite (tables of migration 2). */
import type { Db } from "./database.js";
import type { AccessStore, StoredGrant } from "../types.js";

interface Row {
  id: number;
  added_by: number;
  added_at: number;
  label: string | null;
}

const toGrant = (row: Row): StoredGrant => ({
  id: row.id,
  addedBy: row.added_by,
  addedAt: row.added_at,
  label: row.label ?? undefined,
});

export class SqliteAccessStore implements AccessStore {
  readonly #statements;

  constructor(db: Db) {
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

  hasUser(userId: number): boolean {
    return this.#statements.hasUser.get(userId) !== undefined;
  }

  hasChat(chatId: number): boolean {
    return this.#statements.hasChat.get(chatId) !== undefined;
  }

  addUser(grant: StoredGrant): void {
    this.#statements.addUser.run(grant.id, grant.addedBy, grant.addedAt, grant.label ?? null);
  }

  addChat(grant: StoredGrant): void {
    this.#statements.addChat.run(grant.id, grant.addedBy, grant.addedAt, grant.label ?? null);
  }

  removeUser(userId: number): boolean {
    return this.#statements.removeUser.run(userId).changes > 0;
  }

  removeChat(chatId: number): boolean {
    return this.#statements.removeChat.run(chatId).changes > 0;
  }

  users(): StoredGrant[] {
    return this.#statements.users.all().map(toGrant);
  }

  chats(): StoredGrant[] {
    return this.#statements.chats.all().map(toGrant);
  }
}
