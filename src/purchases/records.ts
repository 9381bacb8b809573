/**
 * The bot's read-only view of the ledger: history, lists, status, limits and usage. Reading
 * needs no service request and no purchase rule, so it does not go through the desk; writing
 * does (src/purchases/desk.ts).
 */
import { type Headroom, headroom, type HeadroomScope } from "../ledger/limits.js";
import { refusalForStatus } from "../ledger/transitions.js";
import type {
  ClaimRefusal,
  IntentKind,
  DayTotals,
  DayUsage,
  PurchaseIntent,
  PurchaseLedger,
  SpendingLimits,
  PauseReason,
  StatusChange,
} from "../ledger/types.js";
import type { Readable } from "node:stream";
import {
  type CostEstimate,
  ESTIMATE_SAMPLE_SIZE,
  estimateCost,
  type EstimateTarget,
} from "../costs/estimate.js";
import type { DayFigures, PurchaseAccounts } from "../ledger/accounts.js";
import { purchasesCsv } from "./export-csv.js";
import type { DeskStatus } from "./types.js";

export interface PurchaseRecords {
  /**
   * What a purchase like `target` is likely to cost, from the recent measured costs of the
   * same kind and payment method (one SQLite read, no service request); undefined without any.
   */
  estimate(target: EstimateTarget): Promise<CostEstimate | undefined>;
  /**
   * The accountant's CSV of the purchases sent in `[from, to)` (ms since the epoch), streamed
   * a page of rows at a time (src/purchases/export-csv.ts).
   */
  exportCsv(from: number, to: number): Readable;
  /** The figures of the UTC day starting at `dayStart`, for the daily report. */
  dayFigures(dayStart: number): Promise<DayFigures>;
  /** Whether a day's report was sent to an admin. */
  reportSent(day: string, adminId: number): Promise<boolean>;
  /** Marks a day's report as sent to an admin; false when it already was (see the accounts). */
  markReportSent(day: string, adminId: number): Promise<boolean>;
  unmarkReportSent(day: string, adminId: number): Promise<void>;
  getIntent(id: string): Promise<PurchaseIntent | undefined>;
  /** Newest first; all intents, or one person's. */
  recent(query: { limit: number; offset?: number; userId?: number }): Promise<PurchaseIntent[]>;
  /** A person's drafts still open in one chat, oldest first. */
  openDrafts(userId: number, chatId: number): Promise<PurchaseIntent[]>;
  /** Unconfirmed intents waiting for an admin, oldest first. */
  unconfirmed(): Promise<PurchaseIntent[]>;
  /** Whether purchases can be claimed at all right now. */
  status(): Promise<DeskStatus>;
  /** Why purchases are paused (an admin, or the breaker with its detail); undefined when open. */
  pauseReason(): Promise<PauseReason | undefined>;
  limits(): SpendingLimits;
  /**
   * What is left today for this person of `kind`, as the claim would count it (`exempt`: an
   * admin whose own purchases skip the per-person limits, when the limits say so).
   */
  headroom(
    userId: number,
    kind: IntentKind,
    isAdmin: boolean,
    scope?: HeadroomScope,
  ): Promise<Headroom>;
  /**
   * Why an intent in its current state cannot be confirmed (done, cancelled, expired), or
   * undefined while it still can; the claim alone decides the rest.
   */
  refusalOf(intent: Pick<PurchaseIntent, "status" | "expiresAt">): ClaimRefusal | undefined;
  /** Today's (UTC) spending against the limits, the bot's and (with `userId`) one person's. */
  usageToday(userId?: number): Promise<DayUsage>;
  /** Per UTC day totals for the admins, newest first (default 7 days). */
  dailyTotals(days?: number): Promise<DayTotals[]>;
  /** One intent's status moves, oldest first. */
  history(id: string): Promise<StatusChange[]>;
}

/**
 * The records of `ledger`, read at `clock`'s "now" (the desk's clock). `unrecordedOutcomes` counts
 * the desk's outcomes not yet written (`PurchaseDesk.unrecordedCount`): the ledger still says
 * `sending` for them, yet purchases are on hold exactly as for an unconfirmed one, so
 * `status()` counts them as unconfirmed (a person is told "on hold", not "busy").
 */
export function createPurchaseRecords(
  ledger: PurchaseLedger,
  clock: () => number = () => ledger.now(),
  unrecordedOutcomes: () => number = () => 0,
  accounts?: PurchaseAccounts,
): PurchaseRecords {
  const accountsNow = (): PurchaseAccounts => {
    if (accounts === undefined) throw new Error("these records were built without the accounts");
    return accounts;
  };
  return {
    estimate: async (target) =>
      accounts === undefined
        ? undefined
        : estimateCost(
            target,
            await accounts.recentCosts({
              kind: target.kind,
              paymentMethod: target.paymentMethod,
              ...(target.kind === "premium" ? { quantity: target.quantity } : {}),
              limit: ESTIMATE_SAMPLE_SIZE,
            }),
          ),
    exportCsv: (from, to) => purchasesCsv(accountsNow().sentBetween(from, to)),
    dayFigures: async (dayStart) => accountsNow().dayFigures(dayStart),
    reportSent: async (day, adminId) => accountsNow().reportSent(day, adminId),
    markReportSent: async (day, adminId) => accountsNow().markReportSent(day, adminId, clock()),
    unmarkReportSent: async (day, adminId) => accountsNow().unmarkReportSent(day, adminId),
    getIntent: async (id) => ledger.get(id),
    recent: async (query) => ledger.recent(query),
    openDrafts: async (userId, chatId) => ledger.openDrafts(userId, chatId),
    unconfirmed: async () => ledger.unconfirmed(),
    status: async () => {
      // Undefined exactly while purchases are open (a pause without a reason is an admin's).
      const pausedBy = (await ledger.pauseReason())?.source;
      return {
        paused: pausedBy !== undefined,
        pausedBy,
        unconfirmed: (await ledger.unconfirmedCount()) + unrecordedOutcomes(),
      };
    },
    pauseReason: async () => ledger.pauseReason(),
    limits: () => ({ ...ledger.limits }),
    headroom: async (userId, kind, isAdmin, scope) =>
      headroom(
        kind,
        ledger.limits,
        await ledger.usage(userId, clock()),
        isAdmin && ledger.limits.adminsExempt,
        scope,
      ),
    refusalOf: (intent) => refusalForStatus(intent.status, intent.expiresAt, clock()),
    usageToday: async (userId) => ledger.usage(userId, clock()),
    dailyTotals: async (days) => ledger.dailyTotals(days, clock()),
    history: async (id) => ledger.history(id),
  };
}
