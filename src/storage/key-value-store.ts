/**
 * A small namespaced key-value store: it backs the conversations plugin's storage (so a restart
 * mid-flow resumes where the person was), per-person settings and notices. Values are JSON; a
 * row is deleted when its conversation ends.
 */
import type { Database } from "./db/port.js";
import type { KeyValue } from "./types.js";
import { retryWrite, type WriteRetryPolicy } from "../shared/write-retry.js";

/** Writes `@value` at `@namespace` and `@key`, or replaces the value there. */
export const KV_WRITE_SQL = `INSERT INTO kv (namespace, key, value, updated_at)
  VALUES (@namespace, @key, @value, @now)
  ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value,
    updated_at = excluded.updated_at`;

/** About 3 s in all: 8 tries, 25 ms doubling to 800 ms. */
const STORE_WRITE_RETRY: WriteRetryPolicy = { attempts: 8, firstDelayMs: 25, maxDelayMs: 800 };

export class KeyValueStore<T> implements KeyValue<T> {
  constructor(
    private readonly db: Database,
    private readonly namespace: string,
  ) {}

  async read(key: string): Promise<T | undefined> {
    const [row] = await this.db.rows<{ value: string }>(
      "SELECT value FROM kv WHERE namespace = @namespace AND key = @key",
      { namespace: this.namespace, key },
    );
    return row === undefined ? undefined : (JSON.parse(row.value) as T);
  }

  async write(key: string, value: T): Promise<void> {
    const namespace = this.namespace;
    await this.db.run(KV_WRITE_SQL, {
      namespace,
      key,
      value: JSON.stringify(value),
      now: Date.now(),
    });
  }

  async delete(key: string): Promise<void> {
    await this.db.run("DELETE FROM kv WHERE namespace = @namespace AND key = @key", {
      namespace: this.namespace,
      key,
    });
  }

  async writeRetrying(key: string, value: T): Promise<void> {
    await retryWrite(() => this.write(key, value), STORE_WRITE_RETRY, this.#isTransient);
  }

  async deleteRetrying(key: string): Promise<void> {
    await retryWrite(() => this.delete(key), STORE_WRITE_RETRY, this.#isTransient);
  }

  readonly #isTransient = (error: unknown): boolean => this.db.isTransient(error);
}
