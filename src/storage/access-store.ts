/** The buyers and groups admins allow in the bot (`allowed_users`, `allowed_chats`). */
import type { Database } from "./db/port.js";
import { camelRow } from "./ledger/rows.js";
import type { AccessStore, StoredGrant } from "./types.js";

type Table = "allowed_users" | "allowed_chats";

export class StoredAccess implements AccessStore {
  constructor(private readonly db: Database) {}

  hasUser = (userId: number): Promise<boolean> => this.#has("allowed_users", userId);
  hasChat = (chatId: number): Promise<boolean> => this.#has("allowed_chats", chatId);
  /** Adds (or keeps, updating a known label) an allowed buyer. */
  addUser = (grant: StoredGrant): Promise<void> => this.#add("allowed_users", grant);
  addChat = (grant: StoredGrant): Promise<void> => this.#add("allowed_chats", grant);
  removeUser = (userId: number): Promise<boolean> => this.#remove("allowed_users", userId);
  removeChat = (chatId: number): Promise<boolean> => this.#remove("allowed_chats", chatId);
  users = (): Promise<StoredGrant[]> => this.#list("allowed_users");
  chats = (): Promise<StoredGrant[]> => this.#list("allowed_chats");

  async #has(table: Table, id: number): Promise<boolean> {
    return (await this.db.rows(`SELECT 1 AS one FROM ${table} WHERE id = @id`, { id })).length > 0;
  }

  async #add(table: Table, grant: StoredGrant): Promise<void> {
    await this.db.run(
      `INSERT INTO ${table} (id, added_by, added_at, label) VALUES (@id, @addedBy, @addedAt, @label)
       ON CONFLICT (id) DO UPDATE SET label = COALESCE(excluded.label, ${table}.label)`,
      { id: grant.id, addedBy: grant.addedBy, addedAt: grant.addedAt, label: grant.label ?? null },
    );
  }

  async #remove(table: Table, id: number): Promise<boolean> {
    return (await this.db.run(`DELETE FROM ${table} WHERE id = @id`, { id })) > 0;
  }

  async #list(table: Table): Promise<StoredGrant[]> {
    const found = await this.db.rows<object>(`SELECT * FROM ${table} ORDER BY added_at, id`);
    return found.map((row) => camelRow<StoredGrant>(row));
  }
}
