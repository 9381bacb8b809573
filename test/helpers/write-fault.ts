/**
 * A fault injected into a real SQLite file, for the tests of writes the database refuses:
 * while switched on, every status change of an intent fails inside SQLite itself. A trigger
 * calls a function of this connection that raises a real `SqliteError` with the code asked for
 * (by default `SQLITE_IOERR`, a disk I/O error, which passes by itself; `SQLITE_READONLY` or
 * `SQLITE_CORRUPT` never do), so the ledger's own code meets the error the driver would give.
 * Only the connection passed in knows the function: use it on a file no other connection writes.
 * {@link installStoreWriteFault} does the same on the bot harness's store, SQLite or PostgreSQL.
 */
import Database from "better-sqlite3";
import type { BotHarness } from "../../tools/testing/bot-harness.js";
import { onPostgres } from "./store-sql.js";

export type FaultCode = "SQLITE_IOERR" | "SQLITE_BUSY" | "SQLITE_FULL" | "SQLITE_READONLY";

const MESSAGES: Record<FaultCode, string> = {
  SQLITE_IOERR: "disk I/O error (injected)",
  SQLITE_BUSY: "database is locked (injected)",
  SQLITE_FULL: "database or disk is full (injected)",
  SQLITE_READONLY: "attempt to write a readonly database (injected)",
};

/** Installs the fault, switched off; returns the switch (and the code to raise while on). */
export function installWriteFault(
  db: Database.Database,
  code: FaultCode = "SQLITE_IOERR",
): (on: boolean, code?: FaultCode) => void {
  let raising = code;
  db.function("giftbot_write_fault", () => {
    throw new Database.SqliteError(MESSAGES[raising], raising);
  });
  db.exec(`
    CREATE TABLE IF NOT EXISTS write_fault (on_off INTEGER NOT NULL);
    INSERT INTO write_fault VALUES (0);
    CREATE TRIGGER write_fault_raise BEFORE UPDATE OF status ON purchase_intents
    WHEN (SELECT on_off FROM write_fault) = 1
    BEGIN SELECT giftbot_write_fault(); END;
  `);
  const set = db.prepare("UPDATE write_fault SET on_off = ?");
  return (on, next?: FaultCode) => {
    if (next !== undefined) raising = next;
    set.run(on ? 1 : 0);
  };
}

/**
 * The same fault on the bot harness's own store. On PostgreSQL a trigger raises SQLSTATE 08006
 * (connection failure: passes by itself, as SQLITE_IOERR does) while the flag row is on; the
 * switch writes the flag over a connection of its own, so it is awaited.
 */
export async function installStoreWriteFault(
  h: BotHarness,
): Promise<(on: boolean) => Promise<void>> {
  const url = h.databaseUrl;
  if (url === undefined) {
    const set = installWriteFault(h.appDb);
    return (on) => Promise.resolve(set(on));
  }
  await onPostgres(url, (client) =>
    client.query(`
      CREATE TABLE write_fault (on_off INTEGER NOT NULL);
      INSERT INTO write_fault VALUES (0);
      CREATE FUNCTION giftbot_write_fault() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF (SELECT on_off FROM write_fault) = 1 THEN
          RAISE EXCEPTION 'connection failure (injected)' USING ERRCODE = '08006';
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER write_fault_raise BEFORE UPDATE OF status ON purchase_intents
        FOR EACH ROW EXECUTE FUNCTION giftbot_write_fault();
    `),
  );
  return async (on) => {
    await onPostgres(url, (client) =>
      client.query("UPDATE write_fault SET on_off = $1", [on ? 1 : 0]),
    );
  };
}
