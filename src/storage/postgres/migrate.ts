/**
 * The PostgreSQL schema, migrated once however many replicas start together: each start takes a
 * session advisory lock on one key for the whole run, so a second replica waits for the first
 * to finish and then finds nothing left to do (the same idea as node-pg-migrate's lock).
 * Applied steps (src/storage/migrations.ts) are rows of `schema_migrations`.
 */
import type pg from "pg";
import { latestVersion, migrationsFor } from "../migrations.js";

/** The advisory lock's key: any fixed number no other program on the database uses. */
const MIGRATION_LOCK_KEY = 7_460_215_001;

/**
 * A database migrated by a newer bot is refused, as SQLite's is: this version would not know
 * what the newer columns and rows mean, and could misjudge a purchase.
 */
function refuseNewerSchema(applied: ReadonlySet<number>): void {
  const newest = Math.max(0, ...applied);
  const known = latestVersion("postgres");
  if (newest > known) {
    throw new Error(
      `the database has schema version ${newest}, newer than this bot knows (${known}): it was written by a newer version of the bot`,
    );
  }
}

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
      refuseNewerSchema(done);
      let ran = 0;
      for (const migration of migrationsFor("postgres")) {
        if (done.has(migration.version)) continue;
        await client.query("BEGIN");
        try {
          await client.query(migration.sql);
          await client.query(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
            [migration.version, migration.name, Date.now()],
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
