-- buyers and groups that admins allow in the bot
CREATE TABLE allowed_users (
  id       INTEGER PRIMARY KEY,
  added_by INTEGER NOT NULL,
  added_at INTEGER NOT NULL,
  label    TEXT
);
CREATE TABLE allowed_chats (
  id       INTEGER PRIMARY KEY,
  added_by INTEGER NOT NULL,
  added_at INTEGER NOT NULL,
  label    TEXT
);
