/** The buyers and groups admins allow in the bot, in PostgreSQL (as the SQLite store). */
import type pg from "pg";
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

type Table = "allowed_users" | "allowed_chats";

export class PostgresAccessStore implements AccessStore {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  hasUser(userId: number): Promise<boolean> {
    return this.#has("allowed_users", userId);
  }

  hasChat(chatId: number): Promise<boolean> {
    return this.#has("allowed_chats", chatId);
  }

  addUser(grant: StoredGrant): Promise<void> {
    return this.#add("allowed_users", grant);
  }

  addChat(grant: StoredGrant): Promise<void> {
    return this.#add("allowed_chats", grant);
  }

  removeUser(userId: number): Promise<boolean> {
    return this.#remove("allowed_users", userId);
  }

  removeChat(chatId: number): Promise<boolean> {
    return this.#remove("allowed_chats", chatId);
  }

  users(): Promise<StoredGrant[]> {
    return this.#list("allowed_users");
  }

  chats(): Promise<StoredGrant[]> {
    return this.#list("allowed_chats");
  }

  async #has(table: Table, id: number): Promise<boolean> {
    const result = await this.#pool.query(`SELECT 1 FROM ${table} WHERE id = $1`, [id]);
    return result.rowCount === 1;
  }

  async #add(table: Table, grant: StoredGrant): Promise<void> {
    await this.#pool.query(
      `INSERT INTO ${table} (id, added_by, added_at, label) VALUES ($1, $2, $3, $4)
       ON CONFLICT (id) DO UPDATE SET label = COALESCE(excluded.label, ${table}.label)`,
      [grant.id, grant.addedBy, grant.addedAt, grant.label ?? null],
    );
  }

  async #remove(table: Table, id: number): Promise<boolean> {
    const result = await this.#pool.query(`DELETE FROM ${table} WHERE id = $1`, [id]);
    return (result.rowCount ?? 0) > 0;
  }

  async #list(table: Table): Promise<StoredGrant[]> {
    const result = await this.#pool.query<Row>(`SELECT * FROM ${table} ORDER BY added_at, id`);
    return result.rows.map(toGrant);
  }
}
