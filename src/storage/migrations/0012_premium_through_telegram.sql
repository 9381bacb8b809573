-- premium through telegram
--
-- Premium the bot gifts itself, paid from its own Telegram Star balance (issue #39): each
-- intent says how it is paid, and one paid through Telegram names its recipient by user id.
-- The Stars admins add to the bot's balance (paid invoices) are kept in the books, each once
-- by Telegram's charge id, with its refund when an admin made one.
ALTER TABLE purchase_intents ADD COLUMN paid_via TEXT NOT NULL DEFAULT 'service'
  CHECK (paid_via IN ('service', 'telegram'));
ALTER TABLE purchase_intents ADD COLUMN recipient_user_id BIGINT;
CREATE TABLE star_top_ups (
  charge_id   TEXT PRIMARY KEY,
  user_id     BIGINT NOT NULL,
  stars       BIGINT NOT NULL CHECK (stars > 0),
  payload     TEXT NOT NULL,
  paid_at     BIGINT NOT NULL,
  refunded_at BIGINT,
  refunded_by BIGINT
);
CREATE INDEX star_top_ups_paid ON star_top_ups (paid_at);
