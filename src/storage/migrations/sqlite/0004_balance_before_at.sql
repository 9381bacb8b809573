-- when the balance before a purchase was read, so reconciliation can tell how old it is
--
-- NULL for rows written before: their balance was read with the draft, at or before
-- created_at, and exactly when is not known.
ALTER TABLE purchase_intents ADD COLUMN balance_before_at INTEGER;
