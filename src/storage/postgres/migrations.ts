/**
 * The PostgreSQL schema, migrated once however many replicas start together: each start takes a
 * session advisory lock on one key for the whole run, so a second replica waits for the first
 * to finish and then finds nothing left to do (the same idea as node-pg-migrate's lock).
 * Applied migrations are rows of `schema_migrations`.
 */
import type pg from "pg";

/** The advisory lock's key: any fixed number no other program on the database uses. */
const MIGRATION_LOCK_KEY = 7_460_215_001;

interface Migration {
  name: string;
  sql: string;
}

export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  {
    name: "key-value store, access lists and the sender lease",
    sql: `
      CREATE TABLE kv (
        namespace  TEXT NOT NULL,
        key        TEXT NOT NULL,
        value      TEXT NOT NULL,
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (namespace, key)
      );
      CREATE TABLE allowed_users (
        id       BIGINT PRIMARY KEY,
        added_by BIGINT NOT NULL,
        added_at BIGINT NOT NULL,
        label    TEXT
      );
      CREATE TABLE allowed_chats (
        id       BIGINT PRIMARY KEY,
        added_by BIGINT NOT NULL,
        added_at BIGINT NOT NULL,
        label    TEXT
      );
      CREATE TABLE sender_lease (
        name       TEXT PRIMARY KEY,
        owner      TEXT,
        epoch      BIGINT NOT NULL DEFAULT 0,
        expires_at BIGINT NOT NULL DEFAULT 0,
        renewed_at BIGINT
      );
      INSERT INTO sender_lease (name) VALUES ('sender');
    `,
  },
];

/** Applies every migration not yet applied, under the advisory lock; returns how many ran. */
export async function migratePostgres(pool: pg.Pool): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    try {
      await client.query(
        `CREATE TABLE IF NOT EXISTS schema_migrations (
           version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`,
      );
      const applied = await client.query<{ version: number }>(
        "SELECT version FROM schema_migrations",
      );
      const done = new Set(applied.rows.map((row) => row.version));
      let ran = 0;
      for (const [index, migration] of POSTGRES_MIGRATIONS.entries()) {
        const version = index + 1;
        if (done.has(version)) continue;
        await client.query("BEGIN");
        try {
          await client.query(migration.sql);
          await client.query(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
            [version, migration.name, Date.now()],
          );
          await client.query("COMMIT");
        } catch (error) {
          await client.query("ROLLBACK");
          throw error;
        }
        ran += 1;
      }
      return ran;
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}
