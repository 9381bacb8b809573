/**
 * Versioned schema migrations, applied in order. Never edit a migration that has shipped:
 * add a new one, so a database written by an older version is migrated, not dropped.
 */
export interface Migration {
  name: string;
  sql: string;
  /**
   * The migration rebuilds a table that others reference (SQLite cannot change a CHECK
   * constraint in place): foreign keys are switched off around it, as SQLite's documented
   * "make other kinds of table schema changes" procedure asks, and checked before it commits.
   */
  rebuildsTables?: boolean;
}

export const migrations: Migration[] = [
  {
    name: "key-value store for conversation state and per-user settings",
    sql: `
      CREATE TABLE kv (
        namespace  TEXT NOT NULL,
        key        TEXT NOT NULL,
        value      TEXT NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (namespace, key)
      ) WITHOUT ROWID;
    `,
  },
  {
    name: "purchase ledger: intents, their status history, and ledger settings (pause switch)",
    sql: `
      CREATE TABLE purchase_intents (
        id                  TEXT PRIMARY KEY,
        kind                TEXT NOT NULL CHECK (kind IN ('stars', 'premium')),
        recipient           TEXT NOT NULL,
        quantity            INTEGER NOT NULL CHECK (quantity > 0),
        payment_method      TEXT NOT NULL CHECK (payment_method IN ('usdt_ton', 'ton')),
        requester_user_id   INTEGER NOT NULL,
        requester_chat_id   INTEGER NOT NULL,
        requester_chat_type TEXT NOT NULL,
        status              TEXT NOT NULL CHECK (status IN ('draft', 'sending', 'succeeded',
                              'rejected', 'unconfirmed', 'delivered', 'not_delivered',
                              'cancelled', 'expired')),
        created_at          INTEGER NOT NULL,
        expires_at          INTEGER NOT NULL,
        sent_at             INTEGER,
        finished_at         INTEGER,
        balance_before      TEXT,
        response            TEXT,
        tx_hash             TEXT,
        outcome_detail      TEXT,
        resolved_by         INTEGER,
        resolved_at         INTEGER,
        updated_at          INTEGER NOT NULL
      );
      CREATE INDEX purchase_intents_status ON purchase_intents (status);
      CREATE INDEX purchase_intents_sent ON purchase_intents (sent_at, kind, requester_user_id);
      CREATE INDEX purchase_intents_user_created ON purchase_intents (requester_user_id, created_at);
      CREATE INDEX purchase_intents_created ON purchase_intents (created_at);

      CREATE TABLE purchase_intent_events (
        seq         INTEGER PRIMARY KEY AUTOINCREMENT,
        intent_id   TEXT NOT NULL REFERENCES purchase_intents (id),
        from_status TEXT,
        to_status   TEXT NOT NULL,
        at          INTEGER NOT NULL,
        actor       INTEGER
      );
      CREATE INDEX purchase_intent_events_intent ON purchase_intent_events (intent_id, seq);

      CREATE TABLE ledger_settings (
        key        TEXT PRIMARY KEY,
        value      TEXT NOT NULL,
        updated_by INTEGER,
        updated_at INTEGER NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    name: "buyers and groups that admins allow in the bot",
    sql: `
      CREATE TABLE allowed_users (
        id       INTEGER PRIMARY KEY,
        added_by INTEGER NOT NULL,
        added_at INTEGER NOT NULL,
        label    TEXT
      );
      CREATE TABLE allowed_chats (
        id       INTEGER PRIMARY KEY,
        added_by INTEGER NOT NULL,
        added_at INTEGER NOT NULL,
        label    TEXT
      );
    `,
  },
  {
    // NULL for rows written before: their balance was read with the draft, at or before
    // created_at, and exactly when is not known.
    name: "when the balance before a purchase was read, so reconciliation can tell how old it is",
    sql: `
      ALTER TABLE purchase_intents ADD COLUMN balance_before_at INTEGER;
    `,
  },
  {
    // A confirmation that waits behind another purchase is recorded before the person is told
    // it is queued, so a crash cannot lose it: 'queued' is neither a draft (no longer
    // confirmable, its buttons are gone) nor 'sending' (no request has left). The claim moves
    // it to 'sending' with the same one statement as a draft.
    name: "queued confirmations: the 'queued' status and when the confirmation was queued",
    rebuildsTables: true,
    sql: `
      CREATE TABLE purchase_intents_new (
        id                  TEXT PRIMARY KEY,
        kind                TEXT NOT NULL CHECK (kind IN ('stars', 'premium')),
        recipient           TEXT NOT NULL,
        quantity            INTEGER NOT NULL CHECK (quantity > 0),
        payment_method      TEXT NOT NULL CHECK (payment_method IN ('usdt_ton', 'ton')),
        requester_user_id   INTEGER NOT NULL,
        requester_chat_id   INTEGER NOT NULL,
        requester_chat_type TEXT NOT NULL,
        status              TEXT NOT NULL CHECK (status IN ('draft', 'queued', 'sending',
                              'succeeded', 'rejected', 'unconfirmed', 'delivered',
                              'not_delivered', 'cancelled', 'expired')),
        created_at          INTEGER NOT NULL,
        expires_at          INTEGER NOT NULL,
        sent_at             INTEGER,
        finished_at         INTEGER,
        balance_before      TEXT,
        response            TEXT,
        tx_hash             TEXT,
        outcome_detail      TEXT,
        resolved_by         INTEGER,
        resolved_at         INTEGER,
        updated_at          INTEGER NOT NULL,
        balance_before_at   INTEGER,
        queued_at           INTEGER
      );
      INSERT INTO purchase_intents_new (id, kind, recipient, quantity, payment_method,
        requester_user_id, requester_chat_id, requester_chat_type, status, created_at, expires_at,
        sent_at, finished_at, balance_before, response, tx_hash, outcome_detail, resolved_by,
        resolved_at, updated_at, balance_before_at)
      SELECT id, kind, recipient, quantity, payment_method, requester_user_id, requester_chat_id,
        requester_chat_type, status, created_at, expires_at, sent_at, finished_at, balance_before,
        response, tx_hash, outcome_detail, resolved_by, resolved_at, updated_at, balance_before_at
      FROM purchase_intents;
      DROP TABLE purchase_intents;
      ALTER TABLE purchase_intents_new RENAME TO purchase_intents;
      CREATE INDEX purchase_intents_status ON purchase_intents (status);
      CREATE INDEX purchase_intents_sent ON purchase_intents (sent_at, kind, requester_user_id);
      CREATE INDEX purchase_intents_user_created ON purchase_intents (requester_user_id, created_at);
      CREATE INDEX purchase_intents_created ON purchase_intents (created_at);
      CREATE INDEX purchase_intents_queued ON purchase_intents (queued_at) WHERE status = 'queued';
    `,
  },
  {
    // NULL until a delivered purchase's cost is measured (src/costs): a figure with its source,
    // or no figure with the reason it could not be measured with certainty.
    name: "the measured cost of each purchase, the wallet's balance over time, daily reports sent",
    sql: `
      ALTER TABLE purchase_intents ADD COLUMN cost_amount TEXT;
      ALTER TABLE purchase_intents ADD COLUMN cost_currency TEXT
        CHECK (cost_currency IN ('ton', 'usdt'));
      ALTER TABLE purchase_intents ADD COLUMN cost_source TEXT
        CHECK (cost_source IN ('balance_after', 'later_balance', 'on_chain'));
      ALTER TABLE purchase_intents ADD COLUMN cost_unmeasured TEXT;
      ALTER TABLE purchase_intents ADD COLUMN cost_at INTEGER;
      CREATE INDEX purchase_intents_costs
        ON purchase_intents (kind, payment_method, cost_at) WHERE cost_amount IS NOT NULL;

      CREATE TABLE balance_readings (
        at   INTEGER NOT NULL,
        ton  TEXT,
        usdt TEXT
      );
      CREATE INDEX balance_readings_at ON balance_readings (at);

      CREATE TABLE daily_reports (
        day      TEXT NOT NULL,
        admin_id INTEGER NOT NULL,
        sent_at  INTEGER NOT NULL,
        PRIMARY KEY (day, admin_id)
      ) WITHOUT ROWID;

      CREATE TABLE breaker_openings (
        at    INTEGER NOT NULL,
        cause TEXT NOT NULL
      );
      CREATE INDEX breaker_openings_at ON breaker_openings (at);
    `,
  },
  {
    // The daily limits are judged on every claim, and what is left is shown when a flow starts
    // and in every summary. Summing the day's purchases for that grew with the day's volume
    // (about 1 ms per read at 3,000 purchases a day, three reads per gift); these running totals
    // make each read a lookup. They are kept by triggers in the same transaction as the status
    // change, so they are exact for every connection and process sharing the file. A migration
    // that rebuilds purchase_intents must create these triggers again.
    name: "running daily totals of what may have been spent, per person and for the whole bot",
    sql: `
      CREATE TABLE daily_spending (
        day               INTEGER NOT NULL,
        kind              TEXT NOT NULL,
        requester_user_id INTEGER NOT NULL,
        purchases         INTEGER NOT NULL,
        quantity          INTEGER NOT NULL,
        PRIMARY KEY (day, kind, requester_user_id)
      ) WITHOUT ROWID;
      INSERT INTO daily_spending (day, kind, requester_user_id, purchases, quantity)
      SELECT sent_at / 86400000, kind, requester_user_id, COUNT(*), SUM(quantity)
      FROM purchase_intents WHERE status IN ('sending', 'succeeded', 'unconfirmed', 'delivered') AND sent_at IS NOT NULL
      GROUP BY 1, 2, 3;
      INSERT INTO daily_spending (day, kind, requester_user_id, purchases, quantity)
      SELECT sent_at / 86400000, kind, 0, COUNT(*), SUM(quantity)
      FROM purchase_intents WHERE status IN ('sending', 'succeeded', 'unconfirmed', 'delivered') AND sent_at IS NOT NULL
      GROUP BY 1, 2;
      CREATE TRIGGER daily_spending_insert AFTER INSERT ON purchase_intents
      WHEN NEW.status IN ('sending', 'succeeded', 'unconfirmed', 'delivered') AND NEW.sent_at IS NOT NULL
      BEGIN
        INSERT INTO daily_spending (day, kind, requester_user_id, purchases, quantity)
        SELECT NEW.sent_at / 86400000, NEW.kind, NEW.requester_user_id, 1, NEW.quantity WHERE NEW.status IN ('sending', 'succeeded', 'unconfirmed', 'delivered') AND NEW.sent_at IS NOT NULL
        ON CONFLICT (day, kind, requester_user_id) DO UPDATE
          SET purchases = purchases + excluded.purchases, quantity = quantity + excluded.quantity;
        INSERT INTO daily_spending (day, kind, requester_user_id, purchases, quantity)
        SELECT NEW.sent_at / 86400000, NEW.kind, 0, 1, NEW.quantity WHERE NEW.status IN ('sending', 'succeeded', 'unconfirmed', 'delivered') AND NEW.sent_at IS NOT NULL
        ON CONFLICT (day, kind, requester_user_id) DO UPDATE
          SET purchases = purchases + excluded.purchases, quantity = quantity + excluded.quantity;
      END;
      CREATE TRIGGER daily_spending_update
      AFTER UPDATE OF status, sent_at, kind, quantity, requester_user_id ON purchase_intents
      WHEN (OLD.status IN ('sending', 'succeeded', 'unconfirmed', 'delivered') AND OLD.sent_at IS NOT NULL) OR (NEW.status IN ('sending', 'succeeded', 'unconfirmed', 'delivered') AND NEW.sent_at IS NOT NULL)
      BEGIN
        INSERT INTO daily_spending (day, kind, requester_user_id, purchases, quantity)
        SELECT OLD.sent_at / 86400000, OLD.kind, OLD.requester_user_id, -1, -OLD.quantity WHERE OLD.status IN ('sending', 'succeeded', 'unconfirmed', 'delivered') AND OLD.sent_at IS NOT NULL
        ON CONFLICT (day, kind, requester_user_id) DO UPDATE
          SET purchases = purchases + excluded.purchases, quantity = quantity + excluded.quantity;
        INSERT INTO daily_spending (day, kind, requester_user_id, purchases, quantity)
        SELECT OLD.sent_at / 86400000, OLD.kind, 0, -1, -OLD.quantity WHERE OLD.status IN ('sending', 'succeeded', 'unconfirmed', 'delivered') AND OLD.sent_at IS NOT NULL
        ON CONFLICT (day, kind, requester_user_id) DO UPDATE
          SET purchases = purchases + excluded.purchases, quantity = quantity + excluded.quantity;
        INSERT INTO daily_spending (day, kind, requester_user_id, purchases, quantity)
        SELECT NEW.sent_at / 86400000, NEW.kind, NEW.requester_user_id, 1, NEW.quantity WHERE NEW.status IN ('sending', 'succeeded', 'unconfirmed', 'delivered') AND NEW.sent_at IS NOT NULL
        ON CONFLICT (day, kind, requester_user_id) DO UPDATE
          SET purchases = purchases + excluded.purchases, quantity = quantity + excluded.quantity;
        INSERT INTO daily_spending (day, kind, requester_user_id, purchases, quantity)
        SELECT NEW.sent_at / 86400000, NEW.kind, 0, 1, NEW.quantity WHERE NEW.status IN ('sending', 'succeeded', 'unconfirmed', 'delivered') AND NEW.sent_at IS NOT NULL
        ON CONFLICT (day, kind, requester_user_id) DO UPDATE
          SET purchases = purchases + excluded.purchases, quantity = quantity + excluded.quantity;
      END;
      CREATE TRIGGER daily_spending_delete AFTER DELETE ON purchase_intents
      WHEN OLD.status IN ('sending', 'succeeded', 'unconfirmed', 'delivered') AND OLD.sent_at IS NOT NULL
      BEGIN
        INSERT INTO daily_spending (day, kind, requester_user_id, purchases, quantity)
        SELECT OLD.sent_at / 86400000, OLD.kind, OLD.requester_user_id, -1, -OLD.quantity WHERE OLD.status IN ('sending', 'succeeded', 'unconfirmed', 'delivered') AND OLD.sent_at IS NOT NULL
        ON CONFLICT (day, kind, requester_user_id) DO UPDATE
          SET purchases = purchases + excluded.purchases, quantity = quantity + excluded.quantity;
        INSERT INTO daily_spending (day, kind, requester_user_id, purchases, quantity)
        SELECT OLD.sent_at / 86400000, OLD.kind, 0, -1, -OLD.quantity WHERE OLD.status IN ('sending', 'succeeded', 'unconfirmed', 'delivered') AND OLD.sent_at IS NOT NULL
        ON CONFLICT (day, kind, requester_user_id) DO UPDATE
          SET purchases = purchases + excluded.purchases, quantity = quantity + excluded.quantity;
      END;
    `,
  },
  {
    // Which other purchases were out while a balance was measured (the cost meter, the admins'
    // evidence) is asked on every delivered purchase. By `sent_at` alone that read every
    // purchase ever sent before the window; by when each finished it reads only the few that
    // overlap it, and those still unfinished (NULL), which are few.
    name: "purchases by when they finished, for the ones out during a balance measurement",
    sql: `
      CREATE INDEX purchase_intents_finished ON purchase_intents (finished_at, sent_at);
    `,
  },
  {
    // Every new summary cancels its person's other drafts in the chat; drafts are few at any
    // moment, while a regular's history grows without end.
    name: "open drafts by person",
    sql: `
      CREATE INDEX purchase_intents_open_drafts
        ON purchase_intents (requester_user_id, requester_chat_id) WHERE status = 'draft';
    `,
  },
  {
    // One sender at a time across processes (a rolling deploy runs two): the holder of this
    // row's lease takes updates and sends purchases. `epoch` grows at every takeover and every
    // claim checks it, in the claim's own statement (a fencing token): a holder that was paused
    // past its expiry cannot send after another process took over.
    name: "the sender lease",
    sql: `
      CREATE TABLE sender_lease (
        name TEXT PRIMARY KEY,
        owner TEXT,
        epoch INTEGER NOT NULL DEFAULT 0,
        expires_at INTEGER NOT NULL DEFAULT 0,
        renewed_at INTEGER
      );
      INSERT INTO sender_lease (name) VALUES ('sender');
    `,
  },
  {
    // Giveaways: an admin confirms many recipients at once. Each recipient is a draft of its
    // own, linked to its batch and numbered in the admin's order, and claimed like any other
    // gift; the batch says whether its drafts may still be sent.
    name: "giveaway batches",
    sql: `
      CREATE TABLE giveaway_batches (
        id             TEXT PRIMARY KEY,
        kind           TEXT NOT NULL CHECK (kind IN ('stars', 'premium')),
        quantity       INTEGER NOT NULL CHECK (quantity > 0),
        payment_method TEXT NOT NULL,
        admin_id       INTEGER NOT NULL,
        chat_id        INTEGER NOT NULL,
        message_id     INTEGER,
        status         TEXT NOT NULL CHECK (status IN ('running', 'paused', 'stopped',
                         'cancelled', 'finished')),
        stop_reason    TEXT,
        created_at     INTEGER NOT NULL,
        updated_at     INTEGER NOT NULL
      );
      CREATE INDEX giveaway_batches_status ON giveaway_batches (status);
      ALTER TABLE purchase_intents ADD COLUMN batch_id TEXT REFERENCES giveaway_batches (id);
      ALTER TABLE purchase_intents ADD COLUMN batch_position INTEGER;
      CREATE INDEX purchase_intents_batch ON purchase_intents (batch_id, batch_position)
        WHERE batch_id IS NOT NULL;
    `,
  },
];
