-- the sender lease
--
-- One sender at a time across processes (a rolling deploy runs two): the holder of this
-- row's lease takes updates and sends purchases. `epoch` grows at every takeover and every
-- claim checks it, in the claim's own statement (a fencing token): a holder that was paused
-- past its expiry cannot send after another process took over.
CREATE TABLE sender_lease (
  name TEXT PRIMARY KEY,
  owner TEXT,
  epoch INTEGER NOT NULL DEFAULT 0,
  expires_at INTEGER NOT NULL DEFAULT 0,
  renewed_at INTEGER
);
INSERT INTO sender_lease (name) VALUES ('sender');
