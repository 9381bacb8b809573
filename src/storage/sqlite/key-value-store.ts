/**
 * A small namespaced key-value store in the bot's SQLite file. It backs the conversations
 * plugin's storage (so a restart mid-flow resumes where the person was) and grammY sessions.
 * Values are JSON; a row is deleted when its conversation ends.
 */
import { retryWrite, type WriteRetryPolicy } from "../write-retry.js";
import { type Db, isTransientSqliteError } from "./database.js";
import type { KeyValue } from "../types.js";

/** About 3 s in all: 8 tries, 25 ms doubling to 800 ms. */
const STORE_WRITE_RETRY: WriteRetryPolicy = { attempts: 8, firstDelayMs: 25, maxDelayMs: 800 };

export class KeyValueStore<T> implements KeyValue<T> {
  readonly #read;
  readonly #write;
  readonly #delete;

  constructor(
    db: Db,
    readonly namespace: string,
  ) {
    this.#read = db.prepare<[string, string], { value: string }>(
      "SELECT value FROM kv WHERE namespace = ? AND key = ?",
    );
    this.#write = db.prepare<[string, string, string, number]>(
      `INSERT INTO kv (namespace, key, value, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    );
    this.#delete = db.prepare<[string, string]>("DELETE FROM kv WHERE namespace = ? AND key = ?");
  }

  read(key: string): T | undefined {
    const row = this.#read.get(this.namespace, key);
    return row === undefined ? undefined : (JSON.parse(row.value) as T);
  }

  write(key: string, value: T): void {
    this.#write.run(this.namespace, key, JSON.stringify(value), Date.now());
  }

  delete(key: string): void {
    this.#delete.run(this.namespace, key);
  }

  async writeRetrying(key: string, value: T): Promise<void> {
    await retryWrite(() => this.write(key, value), STORE_WRITE_RETRY, isTransientSqliteError);
  }

  async deleteRetrying(key: string): Promise<void> {
    await retryWrite(() => this.delete(key), STORE_WRITE_RETRY, isTransientSqliteError);
  }
}
