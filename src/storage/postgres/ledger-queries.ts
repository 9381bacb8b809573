/**
 * The PostgreSQL ledger's reads, as the SQLite ones (src/storage/sqlite/ledger-queries.ts):
 * the lists the desk asks for and the questions of admins, reports and reconciliation. `seq`
 * (the order of insertion) breaks ties where SQLite uses its rowid.
 */
import {
  DAY_MS,
  nextUtcMidnight,
  utcDay,
  utcDayNumber,
  utcDayStart,
} from "../../shared/utc-day.js";
import { SPENDING_STATUSES } from "../../ledger/transitions.js";
import type {
  DayTotals,
  DayUsage,
  IntentStatus,
  LedgerQueries,
  OutWindow,
  PurchaseIntent,
  StatusChange,
} from "../../ledger/types.js";
import { type IntentRow, rowToIntent } from "../sqlite/rows.js";
import type { PostgresLedgerCore } from "./ledger-core.js";
import { OUT_BETWEEN_SQL, USAGE_SQL } from "./ledger-sql.js";
import { type Queryable, rows } from "./sql.js";

export class PostgresLedgerQueries implements LedgerQueries {
  readonly #core: PostgresLedgerCore;

  constructor(core: PostgresLedgerCore) {
    this.#core = core;
  }

  async #intents(sql: string, params: Record<string, unknown> = {}): Promise<PurchaseIntent[]> {
    return (await rows<IntentRow>(this.#core.pool, sql, params)).map(rowToIntent);
  }

  /** Confirmations recorded as queued and not yet claimed or closed, in the order queued. */
  queued(): Promise<PurchaseIntent[]> {
    return this.#intents(
      "SELECT * FROM purchase_intents WHERE status = 'queued' ORDER BY queued_at, seq",
    );
  }

  /** How many purchase requests are in flight (at most one, by the claim). */
  sendingCount(on: Queryable = this.#core.pool): Promise<number> {
    return countWhere(on, "sending");
  }

  /** How many intents wait for reconciliation (while > 0, no claim succeeds). */
  unconfirmedCount(on: Queryable = this.#core.pool): Promise<number> {
    return countWhere(on, "unconfirmed");
  }

  /** Unconfirmed intents, oldest first (the order they should be reconciled in). */
  unconfirmed(): Promise<PurchaseIntent[]> {
    return this.#intents(
      "SELECT * FROM purchase_intents WHERE status = 'unconfirmed' ORDER BY sent_at, created_at, seq",
    );
  }

  /** A person's drafts still open in one chat, oldest first. */
  openDrafts(userId: number, chatId: number): Promise<PurchaseIntent[]> {
    return this.#intents(
      `SELECT * FROM purchase_intents
       WHERE requester_user_id = @userId AND requester_chat_id = @chatId AND status = 'draft'
         AND batch_id IS NULL
       ORDER BY created_at, seq`,
      { userId, chatId },
    );
  }

  /** Newest first; all intents, or one person's. */
  recent(query: { limit: number; offset?: number; userId?: number }): Promise<PurchaseIntent[]> {
    const limit = Math.max(0, Math.min(Math.trunc(query.limit), 500));
    const offset = Math.max(0, Math.trunc(query.offset ?? 0));
    return query.userId === undefined
      ? this.#intents(
          "SELECT * FROM purchase_intents ORDER BY created_at DESC, seq DESC LIMIT @limit OFFSET @offset",
          { limit, offset },
        )
      : this.#intents(
          `SELECT * FROM purchase_intents WHERE requester_user_id = @userId
           ORDER BY created_at DESC, seq DESC LIMIT @limit OFFSET @offset`,
          { userId: query.userId, limit, offset },
        );
  }

  /** What today's (UTC) limits have counted so far, and when they reset. */
  async usage(
    userId?: number,
    now: number = this.#core.clock(),
    on: Queryable = this.#core.pool,
  ): Promise<DayUsage> {
    const [row] = await rows<{
      starsBot: number;
      premiumBot: number;
      starsUser: number;
      premiumUser: number;
    }>(on, USAGE_SQL, { userId: userId ?? null, day: utcDayNumber(now) });
    return {
      day: utcDay(now),
      starsBot: row?.starsBot ?? 0,
      premiumBot: row?.premiumBot ?? 0,
      starsUser: userId === undefined ? undefined : (row?.starsUser ?? 0),
      premiumUser: userId === undefined ? undefined : (row?.premiumUser ?? 0),
      resetsAt: nextUtcMidnight(now),
    };
  }

  /** Per UTC day (by when the request was sent), newest first, the last `days` days with any. */
  async dailyTotals(days = 7, now: number = this.#core.clock()): Promise<DayTotals[]> {
    const from = utcDayStart(now) - (Math.max(1, Math.trunc(days)) - 1) * DAY_MS;
    const found = await rows<{
      day: number;
      status: IntentStatus;
      kind: string;
      n: number;
      quantity: number;
    }>(
      this.#core.pool,
      `SELECT sent_at / ${DAY_MS} AS day, status, kind, COUNT(*) AS n, SUM(quantity) AS quantity
       FROM purchase_intents WHERE sent_at IS NOT NULL AND sent_at >= @from
       GROUP BY 1, 2, 3 ORDER BY 1 DESC`,
      { from },
    );
    const byDay = new Map<number, DayTotals>();
    for (const row of found) {
      let totals = byDay.get(row.day);
      if (totals === undefined) {
        totals = { day: utcDay(row.day * DAY_MS), starsSpent: 0, premiumGifts: 0, byStatus: {} };
        byDay.set(row.day, totals);
      }
      totals.byStatus[row.status] = (totals.byStatus[row.status] ?? 0) + row.n;
      if (SPENDING_STATUSES.includes(row.status)) {
        if (row.kind === "stars") totals.starsSpent += row.quantity;
        else totals.premiumGifts += row.n;
      }
    }
    return [...byDay.values()];
  }

  /** The status history of one intent, oldest first (for admins' details and audits). */
  async history(id: string): Promise<StatusChange[]> {
    const found = await rows<{
      from_status: IntentStatus | null;
      to_status: IntentStatus;
      at: number;
      actor: number | null;
    }>(
      this.#core.pool,
      `SELECT from_status, to_status, at, actor FROM purchase_intent_events
       WHERE intent_id = @id ORDER BY seq`,
      { id },
    );
    return found.map((r) => ({
      from: r.from_status ?? undefined,
      to: r.to_status,
      at: r.at,
      actor: r.actor ?? undefined,
    }));
  }

  /** Other intents whose request was out between `from` and `to` (not rejected), oldest first. */
  sentDuring(from: number, to: number, exceptId: string): Promise<PurchaseIntent[]> {
    return this.#intents(
      `SELECT * FROM purchase_intents WHERE ${OUT_BETWEEN_SQL} AND id <> @id
       ORDER BY sent_at, seq LIMIT 50`,
      { from, to, id: exceptId },
    );
  }

  /** When each purchase out between `from` and `to` (not rejected) was sent and finished; all. */
  async outBetween(from: number, to: number): Promise<OutWindow[]> {
    const found = await rows<{ id: string; sent_at: number; finished_at: number | null }>(
      this.#core.pool,
      `SELECT id, sent_at, finished_at FROM purchase_intents WHERE ${OUT_BETWEEN_SQL}`,
      { from, to },
    );
    return found.map((row) => ({
      id: row.id,
      sentAt: row.sent_at,
      finishedAt: row.finished_at ?? undefined,
    }));
  }
}

async function countWhere(on: Queryable, status: "sending" | "unconfirmed"): Promise<number> {
  const [row] = await rows<{ n: number }>(
    on,
    `SELECT COUNT(*) AS n FROM purchase_intents WHERE status = '${status}'`,
  );
  return row?.n ?? 0;
}
