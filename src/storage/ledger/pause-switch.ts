/**
 * The pause switch (`ledger_settings`): the claim reads it in its own statement. Written through
 * the ledger gate, durably: a pause that has returned is seen by every later claim, and a claim
 * that was being judged when the pause came committed before the pause returned. A pause that a
 * power cut rolled back would reopen buying.
 */
import { pauseReasonOf } from "../../ledger/pause.js";
import type { PauseReason, PauseSource, PauseState, PauseSwitch } from "../../ledger/types.js";
import type { Statements } from "../db/port.js";
import type { LedgerCore } from "./core.js";

/** The pause switch's row in `ledger_settings`: "true" while purchases are paused. */
export const PAUSED_KEY = "purchases_paused";
/** Who paused and why, JSON `{ source, detail }`, next to the switch itself. */
const PAUSE_REASON_KEY = "purchases_paused_reason";

const UPSERT_SQL = `INSERT INTO ledger_settings (key, value, updated_by, updated_at)
  VALUES (@key, @value, @by, @now)
  ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_by = excluded.updated_by,
    updated_at = excluded.updated_at`;

interface SettingRow {
  value: string;
  updated_by: number | null;
  updated_at: number;
}

/** The switch's reads, also inside another transaction (the claim's refusal reads them). */
export interface PauseSwitchRows extends PauseSwitch {
  pauseState(on?: Statements): Promise<PauseState>;
  pauseReason(on?: Statements): Promise<PauseReason | undefined>;
}

export class LedgerPauseSwitch implements PauseSwitchRows {
  constructor(private readonly core: LedgerCore) {}

  /** An admin's /pause and /resume. */
  setPaused = (paused: boolean, adminId: number, now = this.core.clock()): Promise<void> => {
    return this.#writePause(paused, adminId, now, paused ? { source: "admin" } : undefined);
  };

  pauseByBreaker = (detail: unknown, now = this.core.clock()): Promise<void> => {
    return this.#writePause(true, null, now, { source: "breaker", detail });
  };

  /** The switch and its reason in one transaction: a reader never sees one without the other. */
  async #writePause(
    paused: boolean,
    by: number | null,
    now: number,
    reason: { source: PauseSource; detail?: unknown } | undefined,
  ): Promise<void> {
    await this.core.db.gated(async (tx) => {
      await tx.run(UPSERT_SQL, { key: PAUSED_KEY, value: String(paused), by, now });
      if (reason === undefined) {
        await tx.run("DELETE FROM ledger_settings WHERE key = @key", { key: PAUSE_REASON_KEY });
      } else {
        const value = JSON.stringify(reason);
        await tx.run(UPSERT_SQL, { key: PAUSE_REASON_KEY, value, by, now });
      }
    });
  }

  /** Whether purchases are paused, and who flipped the switch last and when. */
  pauseState = async (on: Statements = this.core.db): Promise<PauseState> => {
    const row = await readSetting(on, PAUSED_KEY);
    if (row === undefined) return { paused: false, by: undefined, at: undefined };
    return { paused: row.value === "true", by: row.updated_by ?? undefined, at: row.updated_at };
  };

  pauseReason = async (on: Statements = this.core.db): Promise<PauseReason | undefined> => {
    if (!(await this.pauseState(on)).paused) return undefined;
    return pauseReasonOf((await readSetting(on, PAUSE_REASON_KEY))?.value);
  };
}

async function readSetting(on: Statements, key: string): Promise<SettingRow | undefined> {
  const [row] = await on.rows<SettingRow>(
    "SELECT value, updated_by, updated_at FROM ledger_settings WHERE key = @key",
    { key },
  );
  return row;
}
