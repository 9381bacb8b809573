-- purchase ledger: intents, their status history, and ledger settings (pause switch)
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
