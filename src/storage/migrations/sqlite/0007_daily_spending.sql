-- running daily totals of what may have been spent, per person and for the whole bot
--
-- The daily limits are judged on every claim, and what is left is shown when a flow starts
-- and in every summary. Summing the day's purchases for that grew with the day's volume
-- (about 1 ms per read at 3,000 purchases a day, three reads per gift); these running totals
-- make each read a lookup. They are kept by triggers in the same transaction as the status
-- change, so they are exact for every connection and process sharing the file. A migration
-- that rebuilds purchase_intents must create these triggers again.
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
