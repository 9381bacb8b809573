-- giveaway batches
--
-- Giveaways: an admin confirms many recipients at once. Each recipient is a draft of its
-- own, linked to its batch and numbered in the admin's order, and claimed like any other
-- gift; the batch says whether its drafts may still be sent.
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
