/**
 * What the API answers, built from the ledger's records: plain JSON with codes (statuses,
 * kinds, reasons) the page words from `locales/`, and numbers and times it formats in the
 * admin's language. Only what an admin is shown in the chat goes in: never a setting, never a
 * secret (the ledger holds none).
 */
import type { DaySpending } from "../ledger/admin-reads.js";
import type { BatchCounts, GiveawayBatch } from "../ledger/giveaways.js";
import type { BalanceSnapshot, PurchaseIntent, StatusChange } from "../ledger/types.js";
import type { ReconciliationEvidence } from "../purchases/types.js";
import { DAY_MS, utcDay, utcDayStart } from "../shared/utc-day.js";

/** One purchase in a list. */
export interface PurchaseView {
  id: string;
  kind: PurchaseIntent["kind"];
  quantity: number;
  recipient: string;
  status: PurchaseIntent["status"];
  paymentMethod: PurchaseIntent["paymentMethod"];
  requester: { id: number; name: string | undefined; chatType: string };
  createdAt: number;
  sentAt: number | undefined;
  finishedAt: number | undefined;
  /** The measured cost, when there is one. */
  cost: { amount: string; currency: string } | undefined;
  txHash: string | undefined;
  /** The giveaway it belongs to, if any. */
  batchId: string | undefined;
}

/** One purchase opened: its evidence. */
export interface PurchaseDetail extends PurchaseView {
  balanceBefore: BalanceSnapshot | undefined;
  balanceBeforeAt: number | undefined;
  /** Read afresh for an unknown outcome (the chat's evidence); undefined otherwise. */
  balanceNow: BalanceSnapshot | undefined;
  balanceNowAt: number | undefined;
  /** Other purchases out between the balance before and this one's request. */
  sentMeanwhile: string[];
  transactionUrl: string | undefined;
  /** The service's answer as recorded (admins see everything). */
  serviceAnswer: unknown;
  outcomeDetail: string | undefined;
  settledBy: { id: number; name: string | undefined } | undefined;
  settledAt: number | undefined;
  history: StatusChange[];
  /** Delivered / Not delivered can be pressed. */
  settleable: boolean;
}

export interface GiveawayView {
  id: string;
  kind: GiveawayBatch["kind"];
  quantity: number;
  status: GiveawayBatch["status"];
  stopReason: GiveawayBatch["stopReason"];
  adminId: number;
  createdAt: number;
  counts: BatchCounts;
}

export type NameOf = (id: number) => string | undefined;

export function purchaseView(intent: PurchaseIntent, nameOf: NameOf): PurchaseView {
  const cost = intent.cost?.measured === true ? intent.cost : undefined;
  return {
    ...{ id: intent.id, kind: intent.kind, quantity: intent.quantity },
    ...{ recipient: intent.recipient, status: intent.status, paymentMethod: intent.paymentMethod },
    requester: {
      id: intent.requester.userId,
      name: nameOf(intent.requester.userId),
      chatType: intent.requester.chatType,
    },
    ...{ createdAt: intent.createdAt, sentAt: intent.sentAt, finishedAt: intent.finishedAt },
    cost: cost === undefined ? undefined : { amount: cost.amount, currency: cost.currency },
    txHash: intent.txHash,
    batchId: intent.batchId,
  };
}

export function purchaseDetail(
  intent: PurchaseIntent,
  parts: {
    nameOf: NameOf;
    history: StatusChange[];
    evidence: ReconciliationEvidence | undefined;
    explorerUrl: string | undefined;
  },
): PurchaseDetail {
  const { nameOf, evidence, explorerUrl } = parts;
  const txHash = evidence?.txHash ?? intent.txHash;
  return {
    ...purchaseView(intent, nameOf),
    balanceBefore: evidence?.balanceBefore ?? intent.balanceBefore,
    balanceBeforeAt: evidence?.balanceBeforeAt ?? intent.balanceBeforeAt,
    balanceNow: evidence?.balanceNow,
    balanceNowAt: evidence?.balanceNowAt,
    sentMeanwhile: (evidence?.sentSinceBalanceBefore ?? []).map((other) => other.id),
    transactionUrl:
      txHash === undefined || explorerUrl === undefined ? undefined : `${explorerUrl}${txHash}`,
    serviceAnswer: intent.response,
    outcomeDetail: intent.outcomeDetail,
    settledBy:
      intent.resolvedBy === undefined
        ? undefined
        : { id: intent.resolvedBy, name: nameOf(intent.resolvedBy) },
    settledAt: intent.resolvedAt,
    history: parts.history,
    settleable: intent.status === "unconfirmed",
  };
}

export function giveawayView(batch: GiveawayBatch, counts: BatchCounts): GiveawayView {
  return {
    ...{ id: batch.id, kind: batch.kind, quantity: batch.quantity, status: batch.status },
    ...{ stopReason: batch.stopReason, adminId: batch.adminId, createdAt: batch.createdAt },
    counts,
  };
}

/** The last `days` UTC days up to today's, oldest first, a zero day where nothing was bought. */
export function spendingDays(found: DaySpending[], now: number, days: number): DaySpending[] {
  const byDay = new Map(found.map((day) => [day.day, day]));
  const first = utcDayStart(now) - (days - 1) * DAY_MS;
  return Array.from({ length: days }, (_, i) => {
    const day = utcDay(first + i * DAY_MS);
    return (
      byDay.get(day) ?? {
        ...{ day, gifts: 0, stars: 0, premiumGifts: 0, premiumMonths: 0 },
        spent: { ton: "0", usdt: "0" },
      }
    );
  });
}

/** The first day `spendingDays` covers, as ms since the epoch. */
export function spendingFrom(now: number, days: number): number {
  return utcDayStart(now) - (days - 1) * DAY_MS;
}
