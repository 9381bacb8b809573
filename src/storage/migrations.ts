/**
 * Versioned schema migrations, applied in order. Never edit a migration that has shipped:
 * add a new one, so a database written by an older version is migrated, not dropped.
 */
export interface Migration {
  name: string;
  sql: string;
}

export const migrations: Migration[] = [
  {
    name: "key-value store for conversation state and per-user settings",
    sql: `
      CREATE TABLE kv (
        namespace  TEXT NOT NULL,
        key        TEXT NOT NULL,
        value      TEXT NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (namespace, key)
      ) WITHOUT ROWID;
    `,
  },
];
