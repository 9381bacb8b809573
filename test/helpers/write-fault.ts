/**
 * A fault injected into a real SQLite file, for the tests of outcomes the database refuses:
 * while switched on, every status change of an intent fails inside SQLite itself (a trigger's
 * RAISE, reported like a disk I/O error), so the ledger's own code meets a real SqliteError.
 */
import type { Database } from "better-sqlite3";

/** Installs the fault, switched off; returns the switch. */
export function installWriteFault(db: Database): (on: boolean) => void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS write_fault (on_off INTEGER NOT NULL);
    INSERT INTO write_fault VALUES (0);
    CREATE TRIGGER write_fault_raise BEFORE UPDATE OF status ON purchase_intents
    WHEN (SELECT on_off FROM write_fault) = 1
    BEGIN SELECT RAISE(ABORT, 'disk I/O error (injected)'); END;
  `);
  return (on) => db.prepare("UPDATE write_fault SET on_off = ?").run(on ? 1 : 0);
}
