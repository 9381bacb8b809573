/**
 * The ledger's reads: the lists the desk asks for (queued, unconfirmed, a person's open drafts,
 * the in-flight and unconfirmed counts) and the questions of admins, reports and reconciliation
 * (recent, usage, daily totals, history, what was out in a window).
 */
import { type DayStatusGroup, tallyDayTotals } from "../../ledger/accounts.js";
import type {
  DayTotals,
  DayUsage,
  LedgerQueries,
  OutWindow,
  PurchaseIntent,
  PurchaseLedger,
  StatusChange,
} from "../../ledger/types.js";
import {
  DAY_MS,
  nextUtcMidnight,
  utcDay,
  utcDayNumber,
  utcDayStart,
} from "../../shared/utc-day.js";
import type { Dialect } from "../db/dialect.js";
import type { Params, Statements } from "../db/port.js";
import type { LedgerCore } from "./core.js";
import { camelRow, type IntentRow, rowToIntent } from "./rows.js";

/**
 * What may have been spent on the UTC day `@day` (`sent_at / 86400000`): a `quantity` (stars) or
 * a count of `purchases` (premium), for one person (`@userId`) or the whole bot (`0`). One lookup
 * in the running totals that triggers keep in the status change's own transaction (migration
 * "running daily totals"), so the claim and the limits shown to people cost the same on a busy
 * day as on a quiet one, and are exact for every connection and process.
 */
export function spent(
  column: "quantity" | "purchases",
  kind: "stars" | "premium",
  who: "@userId" | "0",
): string {
  return `COALESCE((SELECT d.${column} FROM daily_spending d
    WHERE d.day = @day AND d.kind = '${kind}' AND d.requester_user_id = ${who}), 0)`;
}

/** Aliases are quoted: PostgreSQL folds unquoted names to lower case. */
const USAGE_SQL = `
SELECT
  ${spent("quantity", "stars", "0")} AS "starsBot",
  ${spent("purchases", "premium", "0")} AS "premiumBot",
  ${spent("quantity", "stars", "@userId")} AS "starsUser",
  ${spent("purchases", "premium", "@userId")} AS "premiumUser"
`;

/**
 * The intents whose request was out at some moment between `@from` and `@to` (not rejected:
 * those spent nothing). Two lookups in the index by when each finished (still out, or finished
 * within the window), not a walk through every purchase sent before `@to`.
 */
function outBetween(dialect: Dialect): string {
  const seq = dialect.seq;
  return `${seq} IN (
    SELECT ${seq} FROM purchase_intents WHERE finished_at IS NULL AND sent_at < @to
    UNION ALL
    SELECT ${seq} FROM purchase_intents WHERE finished_at >= @from AND sent_at < @to)
  AND status <> 'rejected'`;
}

/** The reads, with those the claim's refusal makes inside its own transaction. */
export interface LedgerQueryRows
  extends LedgerQueries, Pick<PurchaseLedger, "queued" | "unconfirmed" | "openDrafts"> {
  sendingCount(on?: Statements): Promise<number>;
  unconfirmedCount(on?: Statements): Promise<number>;
  usage(userId?: number, now?: number, on?: Statements): Promise<DayUsage>;
}

/** The day's running totals as {@link USAGE_SQL} names them. */
type UsageRow = Pick<DayUsage, "starsBot" | "premiumBot" | "starsUser" | "premiumUser">;

export class LedgerQueriesOn implements LedgerQueryRows {
  readonly #out: string;

  constructor(private readonly core: LedgerCore) {
    this.#out = outBetween(core.db.dialect);
  }

  async #intents(sql: string, params: Params = {}): Promise<PurchaseIntent[]> {
    return (await this.core.db.rows<IntentRow>(sql, params)).map(rowToIntent);
  }

  get #seq(): string {
    return this.core.db.dialect.seq;
  }

  /** Confirmations recorded as queued and not yet claimed or closed, in the order queued. */
  queued = (): Promise<PurchaseIntent[]> => {
    return this.#intents(
      `SELECT * FROM purchase_intents WHERE status = 'queued' ORDER BY queued_at, ${this.#seq}`,
    );
  };

  /** How many purchase requests are in flight (at most one, by the claim). */
  sendingCount = (on: Statements = this.core.db): Promise<number> => {
    return countWhere(on, "sending");
  };

  /** How many intents wait for reconciliation (while > 0, no claim succeeds). */
  unconfirmedCount = (on: Statements = this.core.db): Promise<number> => {
    return countWhere(on, "unconfirmed");
  };

  /** Unconfirmed intents, oldest first (the order they should be reconciled in). */
  unconfirmed = (): Promise<PurchaseIntent[]> => {
    return this.#intents(
      `SELECT * FROM purchase_intents WHERE status = 'unconfirmed'
       ORDER BY sent_at, created_at, ${this.#seq}`,
    );
  };

  /**
   * A person's drafts still open in one chat (a giveaway's are not theirs to replace), oldest
   * first: looked up in the index of drafts alone (migration "open drafts by person"), so it
   * costs the same however long their history.
   */
  openDrafts = (userId: number, chatId: number): Promise<PurchaseIntent[]> => {
    const index = this.core.db.dialect.indexedBy("purchase_intents_open_drafts");
    return this.#intents(
      `SELECT * FROM purchase_intents ${index}
       WHERE requester_user_id = @userId AND requester_chat_id = @chatId AND status = 'draft'
         AND batch_id IS NULL
       ORDER BY created_at, ${this.#seq}`,
      { userId, chatId },
    );
  };

  /** Newest first; all intents, or one person's. */
  recent: PurchaseLedger["recent"] = (query) => {
    const limit = Math.max(0, Math.min(Math.trunc(query.limit), 500));
    const offset = Math.max(0, Math.trunc(query.offset ?? 0));
    const whose = query.userId === undefined ? "" : "WHERE requester_user_id = @userId";
    return this.#intents(
      `SELECT * FROM purchase_intents ${whose}
       ORDER BY created_at DESC, ${this.#seq} DESC LIMIT @limit OFFSET @offset`,
      { userId: query.userId ?? null, limit, offset },
    );
  };

  /** What today's (UTC) limits have counted so far, and when they reset. */
  usage = async (
    userId?: number,
    now = this.core.clock(),
    on: Statements = this.core.db,
  ): Promise<DayUsage> => {
    const day = utcDayNumber(now);
    const [row] = await on.rows<UsageRow>(USAGE_SQL, { userId: userId ?? null, day });
    return {
      day: utcDay(now),
      starsBot: row?.starsBot ?? 0,
      premiumBot: row?.premiumBot ?? 0,
      starsUser: userId === undefined ? undefined : (row?.starsUser ?? 0),
      premiumUser: userId === undefined ? undefined : (row?.premiumUser ?? 0),
      resetsAt: nextUtcMidnight(now),
    };
  };

  /** Per UTC day (by when the request was sent), newest first, the last `days` days with any. */
  dailyTotals = async (days = 7, now = this.core.clock()): Promise<DayTotals[]> => {
    const from = utcDayStart(now) - (Math.max(1, Math.trunc(days)) - 1) * DAY_MS;
    const groups = await this.core.db.rows<DayStatusGroup>(
      `SELECT sent_at / ${DAY_MS} AS day, status, kind, COUNT(*) AS n, SUM(quantity) AS quantity
       FROM purchase_intents WHERE sent_at IS NOT NULL AND sent_at >= @from
       GROUP BY 1, 2, 3 ORDER BY 1 DESC`,
      { from },
    );
    return tallyDayTotals(groups);
  };

  /** The status history of one intent, oldest first (for admins' details and audits). */
  history = async (id: string): Promise<StatusChange[]> => {
    const found = await this.core.db.rows<object>(
      `SELECT from_status AS "from", to_status AS "to", at, actor FROM purchase_intent_events
       WHERE intent_id = @id ORDER BY seq`,
      { id },
    );
    return found.map((row) => camelRow<StatusChange>(row));
  };

  /**
   * Other intents whose request was out at some moment between `from` and `to`: for
   * reconciliation, the purchases that may explain part of a balance drop measured over that
   * time. Oldest first; with one purchase in flight at a time there are few, and at most 50.
   */
  sentDuring = (from: number, to: number, exceptId: string): Promise<PurchaseIntent[]> => {
    return this.#intents(
      `SELECT * FROM purchase_intents WHERE ${this.#out} AND id <> @id
       ORDER BY sent_at, ${this.#seq} LIMIT 50`,
      { from, to, id: exceptId },
    );
  };

  /**
   * When each purchase out between `from` and `to` was sent and finished, without the rows
   * themselves and without a limit: the cost meter asks once per balance reading for all the
   * purchases waiting for that reading.
   */
  outBetween = async (from: number, to: number): Promise<OutWindow[]> => {
    const sql = `SELECT id, sent_at, finished_at FROM purchase_intents WHERE ${this.#out}`;
    const found = await this.core.db.rows<object>(sql, { from, to });
    return found.map((row) => camelRow<OutWindow>(row));
  };
}

/**
 * The status is written into the SQL: better-sqlite3's SQLite is built with STAT4, which
 * compiles a statement again on every run when a bound value may change its use of an index,
 * and that tripled the cost of these counts (asked at every flow's start, summary and Confirm).
 */
async function countWhere(on: Statements, status: "sending" | "unconfirmed"): Promise<number> {
  const sql = `SELECT COUNT(*) AS n FROM purchase_intents WHERE status = '${status}'`;
  return (await on.rows<{ n: number }>(sql))[0]?.n ?? 0;
}
