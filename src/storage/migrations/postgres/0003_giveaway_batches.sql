-- giveaway batches
--
-- Giveaways, as in SQLite: each recipient a draft of its own, linked to its batch and
-- numbered in the admin's order, claimed like any other gift.
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
