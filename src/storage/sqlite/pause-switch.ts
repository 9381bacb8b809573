/**
 * The pause switch in SQLite (`ledger_settings`): the claim reads it in its own statement, so
 * a pause written here stops every later claim, on any connection.
 */
import type { PauseReason, PauseSource, PauseState, PauseSwitch } from "../../ledger/types.js";
import type { LedgerCore } from "./ledger-core.js";
import { PAUSE_REASON_KEY, PAUSED_KEY } from "./ledger-sql.js";

export class SqlitePauseSwitch implements PauseSwitch {
  readonly #core: LedgerCore;

  constructor(core: LedgerCore) {
    this.#core = core;
  }

  /** The kill switch: while paused no claim succeeds. */
  setPaused(paused: boolean, adminId: number, now: number = this.#core.clock()): void {
    this.#writePause(paused, adminId, now, paused ? { source: "admin" } : undefined);
  }

  pauseByBreaker(detail: unknown, now: number = this.#core.clock()): void {
    this.#writePause(true, null, now, { source: "breaker", detail });
  }

  /**
   * The switch and its reason in one transaction: a reader never sees one without the other.
   * Durable like a claim: a pause that a power cut rolled back would reopen buying, and while
   * purchases are paused no later durable commit would carry it to the disk.
   */
  #writePause(
    paused: boolean,
    by: number | null,
    now: number,
    reason: { source: PauseSource; detail?: unknown } | undefined,
  ): void {
    const upsert = this.#core.sql.prepare(
      `INSERT INTO ledger_settings (key, value, updated_by, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_by = excluded.updated_by,
         updated_at = excluded.updated_at`,
    );
    this.#core.durably(() => {
      upsert.run(PAUSED_KEY, paused ? "true" : "false", by, now);
      if (reason === undefined) {
        this.#core.sql.prepare("DELETE FROM ledger_settings WHERE key = ?").run(PAUSE_REASON_KEY);
      } else {
        upsert.run(PAUSE_REASON_KEY, JSON.stringify(reason), by, now);
      }
    });
  }

  /** Whether purchases are paused, and who flipped the switch last and when. */
  pauseState(): PauseState {
    const row = this.#readSetting(PAUSED_KEY);
    if (row === undefined) return { paused: false, by: undefined, at: undefined };
    return { paused: row.value === "true", by: row.updated_by ?? undefined, at: row.updated_at };
  }

  pauseReason(): PauseReason | undefined {
    if (!this.pauseState().paused) return undefined;
    return parseReason(this.#readSetting(PAUSE_REASON_KEY)?.value);
  }

  #readSetting(
    key: string,
  ): { value: string; updated_by: number | null; updated_at: number } | undefined {
    return this.#core.sql
      .prepare<[string], { value: string; updated_by: number | null; updated_at: number }>(
        "SELECT value, updated_by, updated_at FROM ledger_settings WHERE key = ?",
      )
      .get(key);
  }
}

function parseReason(value: string | undefined): PauseReason {
  if (value === undefined) return { source: "admin", detail: undefined };
  try {
    const parsed = JSON.parse(value) as { source?: unknown; detail?: unknown };
    return parsed.source === "breaker"
      ? { source: "breaker", detail: parsed.detail }
      : { source: "admin", detail: undefined };
  } catch {
    return { source: "admin", detail: undefined };
  }
}
