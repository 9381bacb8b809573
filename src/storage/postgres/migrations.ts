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
  {
    // The final SQLite schema of the ledger and the books (src/storage/sqlite/migrations.ts) in
    // PostgreSQL's types: ms times and Telegram ids BIGINT, JSON kept as the same text. `seq`
    // stands for SQLite's rowid (the order of insertion, to break ties between equal times).
    name: "purchase ledger, its running daily totals, and the books",
    sql: `
      CREATE TABLE purchase_intents (
        seq                 BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
        id                  TEXT PRIMARY KEY,
        kind                TEXT NOT NULL CHECK (kind IN ('stars', 'premium')),
        recipient           TEXT NOT NULL,
        quantity            INTEGER NOT NULL CHECK (quantity > 0),
        payment_method      TEXT NOT NULL CHECK (payment_method IN ('usdt_ton', 'ton')),
        requester_user_id   BIGINT NOT NULL,
        requester_chat_id   BIGINT NOT NULL,
        requester_chat_type TEXT NOT NULL,
        status              TEXT NOT NULL CHECK (status IN ('draft', 'queued', 'sending',
                              'succeeded', 'rejected', 'unconfirmed', 'delivered',
                              'not_delivered', 'cancelled', 'expired')),
        created_at          BIGINT NOT NULL,
        expires_at          BIGINT NOT NULL,
        queued_at           BIGINT,
        sent_at             BIGINT,
        finished_at         BIGINT,
        balance_before      TEXT,
        balance_before_at   BIGINT,
        response            TEXT,
        tx_hash             TEXT,
        outcome_detail      TEXT,
        resolved_by         BIGINT,
        resolved_at         BIGINT,
        updated_at          BIGINT NOT NULL,
        cost_amount         TEXT,
        cost_currency       TEXT CHECK (cost_currency IN ('ton', 'usdt')),
        cost_source         TEXT CHECK (cost_source IN ('balance_after', 'later_balance', 'on_chain')),
        cost_unmeasured     TEXT,
        cost_at             BIGINT
      );
      CREATE INDEX purchase_intents_status ON purchase_intents (status);
      CREATE INDEX purchase_intents_sent ON purchase_intents (sent_at, kind, requester_user_id);
      CREATE INDEX purchase_intents_user_created ON purchase_intents (requester_user_id, created_at);
      CREATE INDEX purchase_intents_created ON purchase_intents (created_at);
      CREATE INDEX purchase_intents_queued ON purchase_intents (queued_at) WHERE status = 'queued';
      CREATE INDEX purchase_intents_costs
        ON purchase_intents (kind, payment_method, cost_at) WHERE cost_amount IS NOT NULL;
      CREATE INDEX purchase_intents_finished ON purchase_intents (finished_at, sent_at);
      CREATE INDEX purchase_intents_open_drafts
        ON purchase_intents (requester_user_id, requester_chat_id) WHERE status = 'draft';

      CREATE TABLE purchase_intent_events (
        seq         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        intent_id   TEXT NOT NULL REFERENCES purchase_intents (id),
        from_status TEXT,
        to_status   TEXT NOT NULL,
        at          BIGINT NOT NULL,
        actor       BIGINT
      );
      CREATE INDEX purchase_intent_events_intent ON purchase_intent_events (intent_id, seq);

      CREATE TABLE ledger_settings (
        key        TEXT PRIMARY KEY,
        value      TEXT NOT NULL,
        updated_by BIGINT,
        updated_at BIGINT NOT NULL
      );

      CREATE TABLE balance_readings (
        at   BIGINT NOT NULL,
        ton  TEXT,
        usdt TEXT
      );
      CREATE INDEX balance_readings_at ON balance_readings (at);

      CREATE TABLE daily_reports (
        day      TEXT NOT NULL,
        admin_id BIGINT NOT NULL,
        sent_at  BIGINT NOT NULL,
        PRIMARY KEY (day, admin_id)
      );

      CREATE TABLE breaker_openings (
        at    BIGINT NOT NULL,
        cause TEXT NOT NULL
      );
      CREATE INDEX breaker_openings_at ON breaker_openings (at);

      -- What may have been spent per UTC day (sent_at / 86400000), per person and for the whole
      -- bot (requester_user_id 0), kept by a trigger in the same transaction as the status
      -- change, as in SQLite: exact for every connection and replica.
      CREATE TABLE daily_spending (
        day               BIGINT NOT NULL,
        kind              TEXT NOT NULL,
        requester_user_id BIGINT NOT NULL,
        purchases         BIGINT NOT NULL,
        quantity          BIGINT NOT NULL,
        PRIMARY KEY (day, kind, requester_user_id)
      );
      CREATE FUNCTION daily_spending_add(d BIGINT, k TEXT, who BIGINT, n BIGINT, q BIGINT)
      RETURNS void LANGUAGE sql AS $$
        INSERT INTO daily_spending (day, kind, requester_user_id, purchases, quantity)
        VALUES (d, k, who, n, q)
        ON CONFLICT (day, kind, requester_user_id) DO UPDATE
          SET purchases = daily_spending.purchases + excluded.purchases,
              quantity = daily_spending.quantity + excluded.quantity;
        INSERT INTO daily_spending (day, kind, requester_user_id, purchases, quantity)
        VALUES (d, k, 0, n, q)
        ON CONFLICT (day, kind, requester_user_id) DO UPDATE
          SET purchases = daily_spending.purchases + excluded.purchases,
              quantity = daily_spending.quantity + excluded.quantity;
      $$;
      CREATE FUNCTION daily_spending_track() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          IF OLD.status IN ('sending', 'succeeded', 'unconfirmed', 'delivered')
              AND OLD.sent_at IS NOT NULL THEN
            PERFORM daily_spending_add(OLD.sent_at / 86400000, OLD.kind, OLD.requester_user_id,
              -1, -OLD.quantity);
          END IF;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          IF NEW.status IN ('sending', 'succeeded', 'unconfirmed', 'delivered')
              AND NEW.sent_at IS NOT NULL THEN
            PERFORM daily_spending_add(NEW.sent_at / 86400000, NEW.kind, NEW.requester_user_id,
              1, NEW.quantity);
          END IF;
        END IF;
        RETURN NULL;
      END;
      $$;
      CREATE TRIGGER daily_spending_track
      AFTER INSERT OR DELETE OR UPDATE OF status, sent_at, kind, quantity, requester_user_id
      ON purchase_intents FOR EACH ROW EXECUTE FUNCTION daily_spending_track();
    `,
  },
  {
    // Giveaways, as in SQLite: each recipient a draft of its own, linked to its batch and
    // numbered in the admin's order, claimed like any other gift.
    name: "giveaway batches",
    sql: `
      CREATE TABLE giveaway_batches (
        id             TEXT PRIMARY KEY,
        kind           TEXT NOT NULL CHECK (kind IN ('stars', 'premium')),
        quantity       INTEGER NOT NULL CHECK (quantity > 0),
        payment_method TEXT NOT NULL,
        admin_id       BIGINT NOT NULL,
        chat_id        BIGINT NOT NULL,
        message_id     BIGINT,
        status         TEXT NOT NULL CHECK (status IN ('running', 'paused', 'stopped',
                         'cancelled', 'finished')),
        stop_reason    TEXT,
        created_at     BIGINT NOT NULL,
        updated_at     BIGINT NOT NULL
      );
      CREATE INDEX giveaway_batches_status ON giveaway_batches (status);
      ALTER TABLE purchase_intents ADD COLUMN batch_id TEXT REFERENCES giveaway_batches (id);
      ALTER TABLE purchase_intents ADD COLUMN batch_position INTEGER;
      CREATE INDEX purchase_intents_batch ON purchase_intents (batch_id, batch_position)
        WHERE batch_id IS NOT NULL;
    `,
  },
];

/**
 * A database migrated by a newer bot is refused, as SQLite's is: this version would not know
 * what the newer columns and rows mean, and could misjudge a purchase.
 */
function refuseNewerSchema(applied: ReadonlySet<number>): void {
  const newest = Math.max(0, ...applied);
  if (newest > POSTGRES_MIGRATIONS.length) {
    throw new Error(
      `the database has schema version ${newest}, newer than this bot knows (${POSTGRES_MIGRATIONS.length}): it was written by a newer version of the bot`,
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
