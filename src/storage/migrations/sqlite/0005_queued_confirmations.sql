-- queued confirmations: the 'queued' status and when the confirmation was queued
-- rebuilds tables
--
-- A confirmation that waits behind another purchase is recorded before the person is told
-- it is queued, so a crash cannot lose it: 'queued' is neither a draft (no longer
-- confirmable, its buttons are gone) nor 'sending' (no request has left). The claim moves
-- it to 'sending' with the same one statement as a draft. SQLite cannot change a CHECK
-- constraint in place: the table is rebuilt, with foreign keys switched off around it and
-- checked before it commits (SQLite's documented procedure).
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
