/**
 * The pause switch in PostgreSQL (`ledger_settings`, the same rows as SQLite's). Written
 * through the ledger gate: a pause that has returned is seen by every later claim, and a claim
 * that was being judged when the pause came committed before the pause returned.
 */
import type pg from "pg";
import type { PauseReason, PauseSource, PauseState, PauseSwitch } from "../../ledger/types.js";
import type { PostgresLedgerCore } from "./ledger-core.js";
import { PAUSE_REASON_KEY, PAUSED_KEY } from "./ledger-sql.js";
import { type Queryable, rows } from "./sql.js";

const UPSERT_SQL = `INSERT INTO ledger_settings (key, value, updated_by, updated_at)
  VALUES (@key, @value, @by, @now)
  ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_by = excluded.updated_by,
    updated_at = excluded.updated_at`;

interface SettingRow {
  value: string;
  updated_by: number | null;
  updated_at: number;
}

export class PostgresPauseSwitch implements PauseSwitch {
  readonly #core: PostgresLedgerCore;

  constructor(core: PostgresLedgerCore) {
    this.#core = core;
  }

  /** The kill switch: while paused no claim succeeds. */
  setPaused(paused: boolean, adminId: number, now: number = this.#core.clock()): Promise<void> {
    return this.#writePause(paused, adminId, now, paused ? { source: "admin" } : undefined);
  }

  pauseByBreaker(detail: unknown, now: number = this.#core.clock()): Promise<void> {
    return this.#writePause(true, null, now, { source: "breaker", detail });
  }

  /** The switch and its reason in one transaction: a reader never sees one without the other. */
  async #writePause(
    paused: boolean,
    by: number | null,
    now: number,
    reason: { source: PauseSource; detail?: unknown } | undefined,
  ): Promise<void> {
    await this.#core.gated(async (client: pg.PoolClient) => {
      await rows(client, UPSERT_SQL, { key: PAUSED_KEY, value: String(paused), by, now });
      if (reason === undefined) {
        await rows(client, "DELETE FROM ledger_settings WHERE key = @key", {
          key: PAUSE_REASON_KEY,
        });
      } else {
        const value = JSON.stringify(reason);
        await rows(client, UPSERT_SQL, { key: PAUSE_REASON_KEY, value, by, now });
      }
    });
  }

  /** Whether purchases are paused, and who flipped the switch last and when. */
  async pauseState(on: Queryable = this.#core.pool): Promise<PauseState> {
    const row = await readSetting(on, PAUSED_KEY);
    if (row === undefined) return { paused: false, by: undefined, at: undefined };
    return { paused: row.value === "true", by: row.updated_by ?? undefined, at: row.updated_at };
  }

  async pauseReason(on: Queryable = this.#core.pool): Promise<PauseReason | undefined> {
    if (!(await this.pauseState(on)).paused) return undefined;
    return parseReason((await readSetting(on, PAUSE_REASON_KEY))?.value);
  }
}

async function readSetting(on: Queryable, key: string): Promise<SettingRow | undefined> {
  const [row] = await rows<SettingRow>(
    on,
    "SELECT value, updated_by, updated_at FROM ledger_settings WHERE key = @key",
    { key },
  );
  return row;
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
