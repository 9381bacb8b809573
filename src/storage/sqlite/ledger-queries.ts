/**
 * The SQLite ledger's reads: the lists the desk asks for (queued, unconfirmed, a person's open
 * drafts, the in-flight and unconfirmed counts) and the questions of admins, reports and
 * reconciliation (recent, usage, daily totals, history, what was out in a window).
 */
import type { IntentRow } from "./rows.js";
import { rowToIntent } from "./rows.js";
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
} from "../../ledger/types.js";
import type { LedgerCore } from "./ledger-core.js";
import { OUT_BETWEEN_SQL, USAGE_SQL } from "./ledger-sql.js";

export class SqliteLedgerQueries implements LedgerQueries {
  readonly #core: LedgerCore;
  readonly #usage;
  readonly #countByStatus;

  constructor(core: LedgerCore) {
    this.#core = core;
    const db = core.db;
    // Asked at every flow's start, summary and Confirm (the desk's status), so prepared once,
    // with the status written into the SQL: better-sqlite3's SQLite is built with STAT4, which
    // compiles a statement again on every run when a bound value may change its use of an
    // index, and that tripled the cost of this count.
    this.#countByStatus = {
      sending: db
        .prepare<[], number>("SELECT COUNT(*) FROM purchase_intents WHERE status = 'sending'")
        .pluck(),
      unconfirmed: db
        .prepare<[], number>("SELECT COUNT(*) FROM purchase_intents WHERE status = 'unconfirmed'")
        .pluck(),
    };
    this.#usage = db.prepare<
      { userId: number | null; day: number },
      { starsBot: number; premiumBot: number; starsUser: number; premiumUser: number }
    >(USAGE_SQL);
  }

  /** Confirmations recorded as queued and not yet claimed or closed, in the order queued. */
  queued(): PurchaseIntent[] {
    return this.#core.sql
      .prepare<[], IntentRow>(
        "SELECT * FROM purchase_intents WHERE status = 'queued' ORDER BY queued_at, rowid",
      )
      .all()
      .map(rowToIntent);
  }

  /** How many purchase requests are in flight (at most one, by the claim). */
  sendingCount(): number {
    return this.#countByStatus.sending.get() ?? 0;
  }

  /** How many intents wait for reconciliation (while > 0, no claim succeeds). */
  unconfirmedCount(): number {
    return this.#countByStatus.unconfirmed.get() ?? 0;
  }

  /** Unconfirmed intents, oldest first (the order they should be reconciled in). */
  unconfirmed(): PurchaseIntent[] {
    return this.#core.sql
      .prepare<[], IntentRow>(
        "SELECT * FROM purchase_intents WHERE status = 'unconfirmed' ORDER BY sent_at, created_at",
      )
      .all()
      .map(rowToIntent);
  }

  /**
   * A person's drafts still open in one chat (a giveaway's are not theirs to replace), oldest first: looked up in the index of drafts
   * alone (migration "open drafts by person"), so it costs the same however long their history.
   */
  openDrafts(userId: number, chatId: number): PurchaseIntent[] {
    return this.#core.sql
      .prepare<[number, number], IntentRow>(
        // Named, since without statistics SQLite would pick the index of all their intents.
        `SELECT * FROM purchase_intents INDEXED BY purchase_intents_open_drafts
         WHERE requester_user_id = ? AND requester_chat_id = ? AND status = 'draft'
           AND batch_id IS NULL
         ORDER BY created_at, rowid`,
      )
      .all(userId, chatId)
      .map(rowToIntent);
  }

  /** Newest first; all intents, or one person's. */
  recent(query: { limit: number; offset?: number; userId?: number }): PurchaseIntent[] {
    const limitN = Math.max(0, Math.min(Math.trunc(query.limit), 500));
    const offset = Math.max(0, Math.trunc(query.offset ?? 0));
    const rows =
      query.userId === undefined
        ? this.#core.sql
            .prepare<[number, number], IntentRow>(
              "SELECT * FROM purchase_intents ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?",
            )
            .all(limitN, offset)
        : this.#core.sql
            .prepare<[number, number, number], IntentRow>(
              `SELECT * FROM purchase_intents WHERE requester_user_id = ?
               ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`,
            )
            .all(query.userId, limitN, offset);
    return rows.map(rowToIntent);
  }

  /** What today's (UTC) limits have counted so far, and when they reset. */
  usage(userId?: number, now: number = this.#core.clock()): DayUsage {
    const row = this.#usage.get({ userId: userId ?? null, day: utcDayNumber(now) }) ?? {
      starsBot: 0,
      premiumBot: 0,
      starsUser: 0,
      premiumUser: 0,
    };
    return {
      day: utcDay(now),
      starsBot: row.starsBot,
      premiumBot: row.premiumBot,
      starsUser: userId === undefined ? undefined : row.starsUser,
      premiumUser: userId === undefined ? undefined : row.premiumUser,
      resetsAt: nextUtcMidnight(now),
    };
  }

  /** Per UTC day (by when the request was sent), newest first, the last `days` days with any. */
  dailyTotals(days = 7, now: number = this.#core.clock()): DayTotals[] {
    const from = utcDayStart(now) - (Math.max(1, Math.trunc(days)) - 1) * DAY_MS;
    const rows = this.#core.sql
      .prepare<
        [number],
        { day: string; status: IntentStatus; kind: string; n: number; quantity: number }
      >(
        `SELECT strftime('%Y-%m-%d', sent_at / 1000, 'unixepoch') AS day, status, kind,
           COUNT(*) AS n, SUM(quantity) AS quantity
         FROM purchase_intents WHERE sent_at IS NOT NULL AND sent_at >= ?
         GROUP BY day, status, kind ORDER BY day DESC`,
      )
      .all(from);
    const byDay = new Map<string, DayTotals>();
    for (const row of rows) {
      let totals = byDay.get(row.day);
      if (totals === undefined) {
        totals = { day: row.day, starsSpent: 0, premiumGifts: 0, byStatus: {} };
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
  history(
    id: string,
  ): { from: IntentStatus | undefined; to: IntentStatus; at: number; actor: number | undefined }[] {
    return this.#core.sql
      .prepare<
        [string],
        {
          from_status: IntentStatus | null;
          to_status: IntentStatus;
          at: number;
          actor: number | null;
        }
      >(
        `SELECT from_status, to_status, at, actor FROM purchase_intent_events
         WHERE intent_id = ? ORDER BY seq`,
      )
      .all(id)
      .map((r) => ({
        from: r.from_status ?? undefined,
        to: r.to_status,
        at: r.at,
        actor: r.actor ?? undefined,
      }));
  }

  /**
   * Other intents whose request was out (sent, and not yet finished) at some moment between
   * `from` and `to`: for reconciliation, the purchases that may explain part of a balance drop
   * measured over that time. Rejected ones spent nothing and are left out. Oldest first; with
   * one purchase in flight at a time there are few, and at most 50 are returned.
   */
  sentDuring(from: number, to: number, exceptId: string): PurchaseIntent[] {
    return this.#core.sql
      .prepare<{ from: number; to: number; id: string }, IntentRow>(
        `SELECT * FROM purchase_intents WHERE ${OUT_BETWEEN_SQL} AND id <> @id
         ORDER BY sent_at, rowid LIMIT 50`,
      )
      .all({ from, to, id: exceptId })
      .map(rowToIntent);
  }

  /**
   * When each purchase out at some moment between `from` and `to` was sent and finished, without
   * the rows themselves and without a limit (rejected ones spent nothing and are left out): the
   * cost meter asks once per balance reading for all the purchases waiting for that reading.
   */
  outBetween(from: number, to: number): OutWindow[] {
    return this.#core.sql
      .prepare<
        { from: number; to: number },
        { id: string; sent_at: number; finished_at: number | null }
      >(`SELECT id, sent_at, finished_at FROM purchase_intents WHERE ${OUT_BETWEEN_SQL}`)
      .all({ from, to })
      .map((row) => ({
        id: row.id,
        sentAt: row.sent_at,
        finishedAt: row.finished_at ?? undefined,
      }));
  }
}
