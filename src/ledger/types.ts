/**
 * The purchase ledger's vocabulary. The ledger (SQLite) is the only judge of whether a
 * purchase request may be sent; these types are what it answers with.
 */
import type { GiftKind, PaymentMethod } from "../gifts/catalogue.js";

/** What an intent buys (the catalogue's gift kinds). */
export type IntentKind = GiftKind;

/**
 * draft → sending → succeeded | rejected | unconfirmed;
 * unconfirmed → delivered | not_delivered (an admin's reconciliation);
 * draft → cancelled | expired.
 */
export type IntentStatus =
  | "draft"
  | "sending"
  | "succeeded"
  | "rejected"
  | "unconfirmed"
  | "delivered"
  | "not_delivered"
  | "cancelled"
  | "expired";

export type ChatType = "private" | "group" | "supergroup" | "channel";

/** Who asked for a purchase, and where. */
export interface Requester {
  userId: number;
  chatId: number;
  chatType: ChatType;
}

/** Balances as decimal strings, as the service reported them. */
export interface BalanceSnapshot {
  ton: string | undefined;
  usdt: string | undefined;
}

export interface PurchaseIntent {
  /** Random and unguessable: it travels in callback data. */
  id: string;
  kind: IntentKind;
  /** Without the leading `@`. */
  recipient: string;
  /** Stars amount, or premium duration in months. */
  quantity: number;
  paymentMethod: PaymentMethod;
  requester: Requester;
  status: IntentStatus;
  /** Milliseconds since the epoch, as are all times here. */
  createdAt: number;
  expiresAt: number;
  sentAt: number | undefined;
  finishedAt: number | undefined;
  /**
   * The newest wallet balance the bot knew before the request went out: the one shown with the
   * draft, replaced at send time by a newer read when the desk holds one (no extra request).
   */
  balanceBefore: BalanceSnapshot | undefined;
  /**
   * When {@link balanceBefore} was read (the read's start). Undefined when not known (rows
   * written before this was recorded, or a draft whose balance came from elsewhere): then it
   * was read at or before `createdAt`.
   */
  balanceBeforeAt: number | undefined;
  /** The service's full response (or the client's ambiguous outcome), unknown fields kept. */
  response: unknown;
  txHash: string | undefined;
  /** A short human-readable detail of the outcome (the service's reason, the ambiguity's cause). */
  outcomeDetail: string | undefined;
  resolvedBy: number | undefined;
  resolvedAt: number | undefined;
}

export type LimitName =
  | "stars_per_purchase"
  | "stars_per_user_day"
  | "stars_per_bot_day"
  | "premium_per_user_day"
  | "premium_per_bot_day";

export interface SpendingLimits {
  starsPerPurchase: number;
  starsPerUserDay: number;
  starsPerBotDay: number;
  premiumPerUserDay: number;
  premiumPerBotDay: number;
  /** When true, admins' own purchases skip the per-user limits (never the per-bot ones). */
  adminsExempt: boolean;
}

/** Why a confirmation did not win the claim. */
export type ClaimRefusal =
  | { reason: "not_found" }
  | { reason: "not_owner" }
  | { reason: "already_processing" }
  | { reason: "already_done"; status: IntentStatus }
  | { reason: "cancelled" }
  | { reason: "expired" }
  | { reason: "paused" }
  | { reason: "frozen"; unconfirmed: number }
  /** Another purchase is being sent: the wallet pays for one purchase at a time. */
  | { reason: "busy" }
  | { reason: "limit"; limit: LimitName; max: number; used: number; resetsAt: number };

export type ClaimResult = { ok: true; intent: PurchaseIntent } | ({ ok: false } & ClaimRefusal);

/** What a new draft holds; the ledger adds id, status and times. */
export interface NewIntent {
  kind: IntentKind;
  /** With or without the leading `@`; stored without it. */
  recipient: string;
  quantity: number;
  paymentMethod: PaymentMethod;
  requester: Requester;
  balanceBefore: BalanceSnapshot | undefined;
  /** When `balanceBefore` was read, if known (the desk fills it from its balance cache). */
  balanceBeforeAt?: number | undefined;
}

/** The pause switch, with who flipped it and when. */
export interface PauseState {
  paused: boolean;
  by: number | undefined;
  at: number | undefined;
}

/** Spending counted against the limits on one UTC day (intents that may have spent money). */
export interface DayUsage {
  /** `YYYY-MM-DD` (UTC). */
  day: string;
  starsBot: number;
  premiumBot: number;
  starsUser: number | undefined;
  premiumUser: number | undefined;
  /** The next UTC midnight, when these counts start again from zero. */
  resetsAt: number;
}

/** One UTC day's intents, for the admins' overview. */
export interface DayTotals {
  day: string;
  /** Stars in intents that may have spent money (sending, succeeded, unconfirmed, delivered). */
  starsSpent: number;
  /** Premium gifts in such intents. */
  premiumGifts: number;
  /** How many intents sent that day ended in each status. */
  byStatus: Partial<Record<IntentStatus, number>>;
}
