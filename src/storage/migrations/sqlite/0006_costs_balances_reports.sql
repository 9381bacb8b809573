-- the measured cost of each purchase, the wallet's balance over time, daily reports sent
--
-- NULL until a delivered purchase's cost is measured (src/costs): a figure with its source,
-- or no figure with the reason it could not be measured with certainty.
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
