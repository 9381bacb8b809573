-- purchase ledger, its running daily totals, and the books
--
-- The final SQLite schema of the ledger and the books (sqlite/0002 to 0010) in
-- PostgreSQL's types: ms times and Telegram ids BIGINT, JSON kept as the same text. `seq`
-- stands for SQLite's rowid (the order of insertion, to break ties between equal times).
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
