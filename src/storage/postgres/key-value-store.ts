/**
 * The key-value namespaces (conversation state, settings, notices) in PostgreSQL: the same
 * table and JSON values as the SQLite store (src/storage/sqlite/key-value-store.ts).
 */
import type pg from "pg";
import { retryWrite, type WriteRetryPolicy } from "../write-retry.js";
import type { KeyValue } from "../types.js";
import { isTransientPostgresError } from "./connection.js";

/** About 3 s in all: 8 tries, 25 ms doubling to 800 ms (as the SQLite store). */
const STORE_WRITE_RETRY: WriteRetryPolicy = { attempts: 8, firstDelayMs: 25, maxDelayMs: 800 };

export class PostgresKeyValueStore<T> implements KeyValue<T> {
  readonly #pool: pg.Pool;
  readonly #namespace: string;

  constructor(pool: pg.Pool, namespace: string) {
    this.#pool = pool;
    this.#namespace = namespace;
  }

  async read(key: string): Promise<T | undefined> {
    const result = await this.#pool.query<{ value: string }>(
      "SELECT value FROM kv WHERE namespace = $1 AND key = $2",
      [this.#namespace, key],
    );
    const row = result.rows[0];
    return row === undefined ? undefined : (JSON.parse(row.value) as T);
  }

  async write(key: string, value: T): Promise<void> {
    await this.#pool.query(
      `INSERT INTO kv (namespace, key, value, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value,
         updated_at = excluded.updated_at`,
      [this.#namespace, key, JSON.stringify(value), Date.now()],
    );
  }

  async delete(key: string): Promise<void> {
    await this.#pool.query("DELETE FROM kv WHERE namespace = $1 AND key = $2", [
      this.#namespace,
      key,
    ]);
  }

  async writeRetrying(key: string, value: T): Promise<void> {
    await retryWrite(() => this.write(key, value), STORE_WRITE_RETRY, isTransientPostgresError);
  }

  async deleteRetrying(key: string): Promise<void> {
    await retryWrite(() => this.delete(key), STORE_WRITE_RETRY, isTransientPostgresError);
  }
}
