-- key-value store, access lists and the sender lease
CREATE TABLE kv (
  namespace  TEXT NOT NULL,
  key        TEXT NOT NULL,
  value      TEXT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (namespace, key)
);
CREATE TABLE allowed_users (
  id       BIGINT PRIMARY KEY,
  added_by BIGINT NOT NULL,
  added_at BIGINT NOT NULL,
  label    TEXT
);
CREATE TABLE allowed_chats (
  id       BIGINT PRIMARY KEY,
  added_by BIGINT NOT NULL,
  added_at BIGINT NOT NULL,
  label    TEXT
);
CREATE TABLE sender_lease (
  name       TEXT PRIMARY KEY,
  owner      TEXT,
  epoch      BIGINT NOT NULL DEFAULT 0,
  expires_at BIGINT NOT NULL DEFAULT 0,
  renewed_at BIGINT
);
INSERT INTO sender_lease (name) VALUES ('sender');
