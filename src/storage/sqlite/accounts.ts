/**
 * The SQLite {@link PurchaseAccounts}: the cost columns of `purchase_intents`, and the
 * `balance_readings` and `daily_reports` tables (migration 6). Money is summed here with exact
 * integers (src/costs/money.ts), never with SQL's SUM over text, which would go through floats.
 */
import { parseMoney, formatMoney, sumMoney, type Currency, type Money } from "../../costs/money.js";
import type { PurchaseCost } from "../../costs/types.js";
import type { Db } from "./database.js";
import type {
  BalanceReading,
  CostSample,
  DayFigures,
  PurchaseAccounts,
  SpentIn,
} from "../../ledger/accounts.js";
import { type IntentRow, rowToIntent } from "./rows.js";
import { DAY_MS, utcDay } from "../../shared/utc-day.js";
import { SPENDING_STATUSES } from "../../ledger/transitions.js";
import type { BalanceSnapshot, IntentStatus, PurchaseIntent } from "../../ledger/types.js";

const DELIVERED_SQL = "('succeeded', 'delivered')";
/** A balance unchanged for this long is kept again, so a day's start is never far back. */
const READING_REFRESH_MS = 3_600_000;

interface DayRow {
  status: IntentStatus;
  kind: "stars" | "premium";
  quantity: number;
  cost_amount: string | null;
  cost_currency: Currency | null;
}

/** A remembered answer of `recentCosts`, with the newest cost time it holds. */
interface KnownCosts {
  query: Parameters<PurchaseAccounts["recentCosts"]>[0];
  samples: CostSample[];
  newestAt: number;
}

interface ReadingRow {
  at: number;
  ton: string | null;
  usdt: string | null;
}

export class SqliteAccounts implements PurchaseAccounts {
  readonly #recordCost;
  readonly #recentCosts;
  readonly #lastReading;
  readonly #insertReading;
  readonly #readingBefore;
  readonly #firstReadingFrom;
  readonly #dayRows;
  readonly #refusals;
  readonly #page;
  readonly #markReport;
  readonly #unmarkReport;
  readonly #reportSent;
  readonly #insertOpening;
  readonly #openings;
  /**
   * Recent costs by query, until this process records a cost: every summary asks for the same
   * few estimates, and the costs change only when a purchase is measured, which the bot's one
   * process does through this object (README "How money is kept safe": one sending process).
   */
  readonly #recentCostsKnown = new Map<string, KnownCosts>();
  /** The newest balance reading kept, once read or written here. */
  #lastKept: ReadingRow | undefined;

  constructor(db: Db) {
    this.#recordCost = db.prepare<
      Record<string, string | number | null>,
      { kind: "stars" | "premium"; quantity: number; payment_method: string }
    >(
      `UPDATE purchase_intents SET cost_amount = @amount, cost_currency = @currency,
         cost_source = @source, cost_unmeasured = @reason, cost_at = @at
       WHERE id = @id AND cost_at IS NULL AND status IN ${DELIVERED_SQL}
       RETURNING kind, quantity, payment_method`,
    );
    this.#recentCosts = db.prepare<
      { kind: string; method: string; quantity: number | null; limit: number },
      {
        kind: "stars" | "premium";
        quantity: number;
        payment_method: string;
        cost_amount: string;
        cost_currency: Currency;
        cost_at: number;
      }
    >(
      `SELECT kind, quantity, payment_method, cost_amount, cost_currency, cost_at
       FROM purchase_intents
       WHERE kind = @kind AND payment_method = @method AND cost_amount IS NOT NULL
         AND (@quantity IS NULL OR quantity = @quantity)
       ORDER BY cost_at DESC LIMIT @limit`,
    );
    this.#lastReading = db.prepare<[], ReadingRow>(
      "SELECT at, ton, usdt FROM balance_readings ORDER BY at DESC LIMIT 1",
    );
    this.#insertReading = db.prepare<[number, string | null, string | null]>(
      "INSERT INTO balance_readings (at, ton, usdt) VALUES (?, ?, ?)",
    );
    this.#readingBefore = db.prepare<[number], ReadingRow>(
      "SELECT at, ton, usdt FROM balance_readings WHERE at < ? ORDER BY at DESC LIMIT 1",
    );
    this.#firstReadingFrom = db.prepare<[number, number], ReadingRow>(
      "SELECT at, ton, usdt FROM balance_readings WHERE at >= ? AND at < ? ORDER BY at LIMIT 1",
    );
    this.#dayRows = db.prepare<[number, number], DayRow>(
      `SELECT status, kind, quantity, cost_amount, cost_currency FROM purchase_intents
       WHERE sent_at >= ? AND sent_at < ?`,
    );
    this.#refusals = db.prepare<[number, number], { reason: string; count: number }>(
      `SELECT COALESCE(outcome_detail, '') AS reason, COUNT(*) AS count FROM purchase_intents
       WHERE status = 'rejected' AND sent_at >= ? AND sent_at < ?
         AND COALESCE(outcome_detail, '') NOT LIKE 'not sent:%'
       GROUP BY reason ORDER BY count DESC, reason LIMIT 10`,
    );
    this.#page = db.prepare<
      { from: number; to: number; afterSent: number; afterRow: number; limit: number },
      IntentRow & { row_seq: number }
    >(
      `SELECT rowid AS row_seq, * FROM purchase_intents
       WHERE sent_at >= @from AND sent_at < @to
         AND (sent_at > @afterSent OR (sent_at = @afterSent AND rowid > @afterRow))
       ORDER BY sent_at, rowid LIMIT @limit`,
    );
    this.#markReport = db.prepare<[string, number, number]>(
      "INSERT OR IGNORE INTO daily_reports (day, admin_id, sent_at) VALUES (?, ?, ?)",
    );
    this.#reportSent = db.prepare<[string, number], { one: number }>(
      "SELECT 1 AS one FROM daily_reports WHERE day = ? AND admin_id = ?",
    );
    this.#unmarkReport = db.prepare<[string, number]>(
      "DELETE FROM daily_reports WHERE day = ? AND admin_id = ?",
    );
    this.#insertOpening = db.prepare<[number, string]>(
      "INSERT INTO breaker_openings (at, cause) VALUES (?, ?)",
    );
    this.#openings = db.prepare<[number, number], { count: number }>(
      "SELECT COUNT(*) AS count FROM breaker_openings WHERE at >= ? AND at < ?",
    );
  }

  recordCost(intentId: string, cost: PurchaseCost): boolean {
    const recorded = this.#recordCost.get({
      id: intentId,
      amount: cost.measured ? cost.amount : null,
      currency: cost.currency,
      source: cost.measured ? cost.source : null,
      reason: cost.measured ? null : cost.reason,
      at: cost.at,
    });
    if (recorded === undefined) return false;
    if (cost.measured) this.#addToKnownCosts(recorded, cost);
    return true;
  }

  recentCosts(query: Parameters<PurchaseAccounts["recentCosts"]>[0]): CostSample[] {
    const limit = Math.max(1, Math.trunc(query.limit));
    const key = JSON.stringify([query.kind, query.paymentMethod, query.quantity ?? null, limit]);
    const known = this.#recentCostsKnown.get(key);
    if (known !== undefined) return known.samples.slice();
    const rows = this.#recentCosts.all({
      kind: query.kind,
      method: query.paymentMethod,
      quantity: query.quantity ?? null,
      limit,
    });
    const samples = rows.flatMap((row) => {
      const cost = parseMoney(row.cost_currency, row.cost_amount);
      return cost === undefined
        ? []
        : [{ kind: query.kind, quantity: row.quantity, paymentMethod: query.paymentMethod, cost }];
    });
    const newestAt = rows.reduce((newest, row) => Math.max(newest, row.cost_at), -Infinity);
    this.#recentCostsKnown.set(key, { query: { ...query, limit }, samples, newestAt });
    return samples.slice();
  }

  /**
   * Puts a cost just recorded in front of the remembered answers it belongs to (they are newest
   * first); an answer it would not come first in is forgotten and read again when asked.
   */
  #addToKnownCosts(
    intent: { kind: "stars" | "premium"; quantity: number; payment_method: string },
    cost: Extract<PurchaseCost, { measured: true }>,
  ): void {
    const money = parseMoney(cost.currency, cost.amount);
    for (const [key, known] of this.#recentCostsKnown) {
      const { query } = known;
      if (query.kind !== intent.kind || query.paymentMethod !== intent.payment_method) continue;
      if (query.quantity !== undefined && query.quantity !== intent.quantity) continue;
      if (money === undefined || cost.at < known.newestAt) {
        this.#recentCostsKnown.delete(key);
        continue;
      }
      const sample = {
        kind: query.kind,
        quantity: intent.quantity,
        paymentMethod: query.paymentMethod,
        cost: money,
      };
      known.samples = [sample, ...known.samples].slice(0, query.limit);
      known.newestAt = cost.at;
    }
  }

  recordBalance(reading: BalanceReading): void {
    const last = (this.#lastKept ??= this.#lastReading.get());
    const ton = reading.balance.ton ?? null;
    const usdt = reading.balance.usdt ?? null;
    if (
      last !== undefined &&
      last.ton === ton &&
      last.usdt === usdt &&
      reading.at - last.at < READING_REFRESH_MS
    ) {
      return;
    }
    this.#insertReading.run(reading.at, ton, usdt);
    if (last === undefined || reading.at >= last.at) this.#lastKept = { at: reading.at, ton, usdt };
  }

  dayFigures(dayStart: number): DayFigures {
    const dayEnd = dayStart + DAY_MS;
    const figures: DayFigures = {
      day: utcDay(dayStart),
      byStatus: {},
      starsBought: 0,
      premiumGifts: 0,
      premiumMonths: 0,
      spent: [],
      unmeasured: 0,
      balanceStart: snapshotOf(
        this.#readingBefore.get(dayStart) ?? this.#firstReadingFrom.get(dayStart, dayEnd),
      ),
      balanceEnd: snapshotOf(this.#readingBefore.get(dayEnd)),
      limitsUsed: { stars: 0, premium: 0 },
      refusals: this.#refusals.all(dayStart, dayEnd),
      breakerOpenings: this.#openings.get(dayStart, dayEnd)?.count ?? 0,
    };
    const costs: Money[] = [];
    for (const row of this.#dayRows.iterate(dayStart, dayEnd)) {
      figures.byStatus[row.status] = (figures.byStatus[row.status] ?? 0) + 1;
      if (SPENDING_STATUSES.includes(row.status)) {
        if (row.kind === "stars") figures.limitsUsed.stars += row.quantity;
        else figures.limitsUsed.premium += 1;
      }
      if (row.status !== "succeeded" && row.status !== "delivered") continue;
      if (row.kind === "stars") figures.starsBought += row.quantity;
      else {
        figures.premiumGifts += 1;
        figures.premiumMonths += row.quantity;
      }
      const cost =
        row.cost_currency === null
          ? undefined
          : parseMoney(row.cost_currency, row.cost_amount ?? undefined);
      if (cost === undefined) figures.unmeasured += 1;
      else costs.push(cost);
    }
    figures.spent = spentPerCurrency(costs);
    return figures;
  }

  *sentBetween(from: number, to: number, pageSize = 500): Generator<PurchaseIntent> {
    let afterSent = Number.MIN_SAFE_INTEGER;
    let afterRow = 0;
    for (;;) {
      const rows = this.#page.all({ from, to, afterSent, afterRow, limit: pageSize });
      for (const row of rows) yield rowToIntent(row);
      const last = rows.at(-1);
      if (last === undefined || rows.length < pageSize) return;
      afterSent = last.sent_at ?? afterSent;
      afterRow = last.row_seq;
    }
  }

  recordBreakerOpening(at: number, cause: string): void {
    this.#insertOpening.run(at, cause);
  }

  reportSent(day: string, adminId: number): boolean {
    return this.#reportSent.get(day, adminId) !== undefined;
  }

  markReportSent(day: string, adminId: number, at: number): boolean {
    return this.#markReport.run(day, adminId, at).changes === 1;
  }

  unmarkReportSent(day: string, adminId: number): void {
    this.#unmarkReport.run(day, adminId);
  }
}

function snapshotOf(row: ReadingRow | undefined): BalanceSnapshot | undefined {
  return row === undefined ? undefined : { ton: row.ton ?? undefined, usdt: row.usdt ?? undefined };
}

function spentPerCurrency(costs: readonly Money[]): SpentIn[] {
  const currencies: Currency[] = ["usdt", "ton"];
  return currencies.flatMap((currency) => {
    const of = costs.filter((c) => c.currency === currency);
    if (of.length === 0) return [];
    return [{ currency, amount: formatMoney(sumMoney(currency, of)), purchases: of.length }];
  });
}
