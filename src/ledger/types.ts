/**
 * The purchase ledger's vocabulary. The ledger (in the database) is the only judge of whether a
 * purchase request may be sent; these types are what it answers with.
 */
import type { BalanceSnapshot, PurchaseCost } from "../costs/types.js";
import type { GiftKind, PaidVia, PaymentMethod } from "../gifts/catalogue.js";
import type { PurchaseOutcome } from "../service/types.js";
import type { ProofSettlement } from "./star-proof.js";

/** What an intent buys (the catalogue's gift kinds). */
export type IntentKind = GiftKind;

/**
 * draft → sending → succeeded | rejected | unconfirmed;
 * draft → queued → sending (a confirmation recorded while another purchase is in flight);
 * queued → draft (its claim refused for a reason that passes: the person may press again);
 * queued → rejected | expired (closed as not sent when its claim can no longer win);
 * unconfirmed → delivered | not_delivered (an admin's reconciliation);
 * unconfirmed → succeeded | rejected (the service's definite answer, arriving late);
 * draft → cancelled | expired.
 */
export type IntentStatus =
  | "draft"
  | "queued"
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
interface Requester {
  userId: number;
  chatId: number;
  chatType: ChatType;
}

export type { BalanceSnapshot } from "../costs/types.js";

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
  /** When the person's confirmation was recorded as queued (undefined if it never was). */
  queuedAt?: number | undefined;
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
  /** What the purchase cost, once measured after delivery (src/costs); undefined before. */
  cost: PurchaseCost | undefined;
  /** The giveaway batch it belongs to (src/ledger/giveaways.ts); absent for a person's gift. */
  batchId?: string;
  /**
   * `telegram`: Premium the bot gifts itself, paid from its Star balance (src/stars); absent:
   * through the service, from the wallet (every intent written before the bot could do this).
   */
  paidVia?: PaidVia;
  /** The recipient's Telegram user id, which a gift through Telegram is sent to. */
  recipientUserId?: number;
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
  /** Who paused: an admin, or the breaker after the service's refusals (its text differs). */
  | { reason: "paused"; source: PauseSource }
  | { reason: "frozen"; unconfirmed: number }
  /** Another purchase is being sent: the wallet pays for one purchase at a time. */
  | { reason: "busy" }
  | { reason: "limit"; limit: LimitName; max: number; used: number; resetsAt: number };

export type ClaimResult = { ok: true; intent: PurchaseIntent } | ({ ok: false } & ClaimRefusal);

/**
 * Why a queued confirmation was closed unsent: its claim's refusal, or the bot's own checks
 * before the claim (the person may no longer buy; the recipient has, or may have, premium).
 */
type QueuedCloseReason =
  | ClaimRefusal["reason"]
  | "no_access"
  | "recipient_has_premium"
  | "recipient_unverified"
  | "recipient_premium_unknown"
  | "cancelled"
  | "storage"
  | "stopping"
  | "not_enough_stars"
  | "stars_unavailable";

/** What {@link Ledger.queue} answers: the queued intent, or why it is no longer confirmable. */
export type QueueResult = { ok: true; intent: PurchaseIntent } | ({ ok: false } & ClaimRefusal);

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
  /** How it is paid (default the service); `telegram` needs {@link recipientUserId}. */
  paidVia?: PaidVia;
  recipientUserId?: number | undefined;
}

/** Who paused purchases: an admin (/pause), or the purchase breaker after refusals. */
export type PauseSource = "admin" | "breaker";

/** The pause switch, with who flipped it and when (undefined `by`: the breaker). */
export interface PauseState {
  paused: boolean;
  by: number | undefined;
  at: number | undefined;
}

/** Why purchases are paused. */
export interface PauseReason {
  source: PauseSource;
  /**
   * What the pausing party recorded with it, JSON as it was given (the breaker's quoted
   * refusals), so a restart keeps it; undefined for an admin's pause.
   */
  detail: unknown;
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

export interface ClaimContext {
  /** Admins skip the per-user limits only when the limits say `adminsExempt`. */
  isAdmin?: boolean;
}

/**
 * What an answer did that arrived after its intent had been made unconfirmed (a recovery ran
 * while the request was out) and perhaps settled by an admin (src/ledger/transitions.ts
 * `lateAnswer`): `settled`: the service's definite answer moved an intent still unconfirmed to
 * succeeded or rejected; `contradicts`: an admin had settled it the other way (delivered, and
 * the service refused it; not delivered, and the service delivered it), the status stays and
 * the admins must be told at once; `kept`: anything else, kept as evidence only.
 */
export type LateAnswer = "settled" | "contradicts" | "kept";

/** What {@link PurchaseLedger.recordOutcome} did with an outcome. */
export type RecordedOutcome =
  /** Written: the answer in time, or (`late: "settled"`) a late one that settled the intent. */
  | { recorded: true; intent: PurchaseIntent; late?: "settled" | undefined }
  /**
   * The intent had already been made unconfirmed (a recovery ran while this process was still
   * waiting for the response), and the answer did not settle it: the status stays, and the
   * late response is kept as evidence.
   */
  | { recorded: false; intent: PurchaseIntent; late: "contradicts" | "kept" };

/** One status move of an intent, for admins' details and audits. */
export interface StatusChange {
  from: IntentStatus | undefined;
  to: IntentStatus;
  at: number;
  actor: number | undefined;
}

/**
 * The sender lease: at most one process at a time takes updates and sends purchases. One row,
 * with an owner, an expiry and an epoch that grows at every takeover; the ledger's claim checks
 * owner, epoch and expiry in its own statement (see {@link LeaseFence}). Every time here is the
 * store's own clock (PostgreSQL's `clock_timestamp()`; on SQLite, one machine's clock read by
 * SQLite), in ms since the epoch, never a process's: a replica whose clock is off can neither
 * take the lease early nor keep it late (issue #35).
 */
export interface SenderLease {
  /** Takes the lease when it is free or expired, for `ttlMs`; undefined when it is held. */
  acquire(owner: string, ttlMs: number): Promise<LeaseGrant | undefined>;
  /**
   * Takes the lease from a holder known to be dead (its process is gone), before its expiry:
   * only while `from` still holds it at its epoch. Undefined otherwise.
   */
  takeOver(
    owner: string,
    from: { owner: string; epoch: number },
    ttlMs: number,
  ): Promise<LeaseGrant | undefined>;
  /** Extends the lease to `ttlMs` from now; false when this owner and epoch no longer hold it. */
  renew(owner: string, epoch: number, ttlMs: number): Promise<boolean>;
  /** Gives it up at once (a clean stop), so a waiting process takes over without the expiry. */
  release(owner: string, epoch: number): Promise<void>;
  /** Who holds it now, if anyone (an expired lease is held by nobody). */
  holder(): Promise<LeaseHolder | undefined>;
}

/** A lease just taken. */
export interface LeaseGrant {
  epoch: number;
  /** The store's clock when it was taken. */
  at: number;
  /**
   * The holder before, when there was one that did not release it (its lease expired, or it
   * was taken over from it), with the expiry it had. Undefined when the lease was free:
   * released at a clean stop, never held, or cleared by a restore.
   */
  previous?: { owner: string; expiresAt: number };
}

export interface LeaseHolder {
  owner: string;
  epoch: number;
  expiresAt: number;
}

/**
 * What the claim checks besides its own rules, when set: that `owner` still holds the lease at
 * `epoch`, unexpired by the store's clock at the claim. Unset (tests, tools), claims are not
 * fenced.
 */
export interface LeaseFence {
  owner: string;
  epoch: number;
}

/**
 * The purchase records: every intent and the one machine that moves its status. Its one
 * implementation (src/storage/ledger, over SQLite or PostgreSQL) keeps two rules: `claim` is one atomic step that lets at
 * most one of any number of concurrent claims win, on any number of connections and processes
 * (and only when every check in its doc passes), and a status only moves along the transition
 * table (src/ledger/transitions.ts). Every `now` defaults to the ledger's clock.
 */
interface IntentStore {
  readonly limits: Readonly<SpendingLimits>;
  readonly draftTtlMs: number;
  /** The ledger's clock, so callers and the ledger agree on "now". */
  now(): number;
  /**
   * Whether a write that threw may succeed if tried again (the store busy, full, an I/O error).
   * A ledger refusal (an illegal move, an unknown intent) or a closed store never will. Only the
   * implementation knows its driver's errors, so callers ask it rather than test error types.
   */
  readonly isTransientWriteError: (error: unknown) => boolean;
  /**
   * From now on, every claim also checks this process's hold on the sender lease in its own
   * statement (undefined: no check). Set once the lease is acquired, before the first claim.
   */
  fenceWith(fence: LeaseFence | undefined): void;
  /** Replaces the spending limits from the next claim on (settings reloaded while running). */
  setLimits(limits: SpendingLimits): void;
  /** Records a draft: the summary a person is shown, confirmable until it expires. */
  createDraft(request: NewIntent, now?: number): Promise<PurchaseIntent>;
  get(id: string): Promise<PurchaseIntent | undefined>;
  /**
   * draft or queued → sending, only if still a draft or queued, not expired, asked for by
   * `userId`, not paused, nothing unconfirmed or sending, and every spending limit allows it;
   * one atomic step.
   */
  claim(id: string, userId: number, now?: number, options?: ClaimContext): Promise<ClaimResult>;
  /**
   * A confirmation that must wait for its turn: draft → queued, only for its requester and
   * while it has not expired. Written before the person is told it is queued, so a crash
   * cannot lose the promise; the claim that lets it out later re-checks every rule.
   */
  queue(id: string, userId: number, now?: number): Promise<QueueResult>;
  /** Confirmations recorded as queued and not yet claimed or closed, in the order queued. */
  queued(): Promise<PurchaseIntent[]>;
  /**
   * queued → draft, when its claim was refused for a reason that passes: the person may press
   * Confirm again. False when it is no longer queued.
   */
  reopenQueued(id: string, now?: number): Promise<boolean>;
  /**
   * Closes a queued confirmation that will not be sent: queued → expired, or queued → rejected
   * with `not sent: <reason>`. Undefined when it is no longer queued.
   */
  closeQueued(
    id: string,
    reason: QueuedCloseReason,
    now?: number,
  ): Promise<PurchaseIntent | undefined>;
  /** Replaces a `sending` intent's "balance before" with a newer read; true when replaced. */
  recordBalanceBefore(
    id: string,
    balance: BalanceSnapshot,
    readAt: number,
    now?: number,
  ): Promise<boolean>;
  /**
   * A response's outcome: sending → succeeded | rejected | unconfirmed. When a recovery made the
   * intent unconfirmed meanwhile, a definite answer (success, refusal) settles it (unconfirmed →
   * succeeded | rejected, no admin as actor); otherwise the answer is kept as evidence and
   * {@link RecordedOutcome} says whether it contradicts an admin's settlement.
   */
  recordOutcome(id: string, outcome: PurchaseOutcome, now?: number): Promise<RecordedOutcome>;
  /** A claimed request that never left: sending → rejected, with a "not sent" detail. */
  recordNotSent(id: string, detail: string, now?: number): Promise<RecordedOutcome>;
  /**
   * The outcome of a request whose first outcome write failed, written once the database takes
   * writes again: sending → unconfirmed, whatever the service answered (`answeredAt`: when it
   * did), the answer kept as evidence for an admin to settle.
   */
  recordUnwrittenOutcome(
    id: string,
    outcome: PurchaseOutcome,
    answeredAt: number,
    now?: number,
  ): Promise<RecordedOutcome>;
  /**
   * At start: every `sending` intent becomes unconfirmed (never resent). Fenced (after
   * {@link fenceWith}), only while this process still holds the sender lease, checked in the
   * same transaction: otherwise it throws LeaseNotHeldError and moves nothing, since those may
   * be the new holder's purchases on their way.
   */
  recoverInterrupted(now?: number): Promise<PurchaseIntent[]>;
  /**
   * After a restore from a backup (src/ledger/restore.ts), in one transaction: every `sending`
   * or `queued` intent becomes unconfirmed, every open draft expires, every giveaway batch not
   * over stops for good ("restored") with its drafts expired, the sender lease is cleared (its
   * epoch moved past any a process of before could hold), and the admins' notice is kept.
   */
  markRestored(backupTakenAt: string | undefined, now?: number): Promise<RestoreMarks>;
  /** An admin's reconciliation: unconfirmed → delivered | not_delivered. */
  resolve(
    id: string,
    adminId: number,
    delivered: boolean,
    now?: number,
  ): Promise<{ intent: PurchaseIntent; unconfirmedLeft: number }>;
  /** Cancels a draft; only its requester. */
  cancel(id: string, userId: number, now?: number): Promise<boolean>;
  /** Marks drafts past their expiry as expired; returns how many. */
  expireDrafts(now?: number): Promise<number>;
  /** Switches a draft's payment method; only its requester, only while it is a draft. */
  changePaymentMethod(
    id: string,
    userId: number,
    method: PaymentMethod,
    now?: number,
  ): Promise<PurchaseIntent | undefined>;
  sendingCount(): Promise<number>;
  unconfirmedCount(): Promise<number>;
  /** Unconfirmed intents, oldest first. */
  unconfirmed(): Promise<PurchaseIntent[]>;
  /** A person's drafts still open in one chat, oldest first. */
  openDrafts(userId: number, chatId: number): Promise<PurchaseIntent[]>;
}

/**
 * The kill switch: while paused no claim succeeds. Kept beside the records (the claim reads
 * it in its own statement), with who flipped it, when and why.
 */
export interface PauseSwitch {
  /** An admin's /pause and /resume. */
  setPaused(paused: boolean, adminId: number, now?: number): Promise<void>;
  /**
   * Pauses on behalf of the purchase breaker, keeping `detail` (JSON-serialisable) with the
   * pause so a restart keeps purchases paused and knows why. Lifted by `setPaused(false, ...)`.
   */
  pauseByBreaker(detail: unknown, now?: number): Promise<void>;
  pauseState(): Promise<PauseState>;
  /** Why purchases are paused; undefined while they are not. A pause from before reasons: admin. */
  pauseReason(): Promise<PauseReason | undefined>;
}

/** Read-only questions about purchases, for admins, reports and reconciliation. */
export interface LedgerQueries {
  /** Newest first; all intents, or one person's. */
  recent(query: { limit: number; offset?: number; userId?: number }): Promise<PurchaseIntent[]>;
  /** What today's (UTC) limits have counted so far, and when they reset. */
  usage(userId?: number, now?: number): Promise<DayUsage>;
  /** Per UTC day, newest first, the last `days` days with any. */
  dailyTotals(days?: number, now?: number): Promise<DayTotals[]>;
  /** The status history of one intent, oldest first. */
  history(id: string): Promise<StatusChange[]>;
  /** Other intents whose request was out between `from` and `to` (not rejected), oldest first. */
  sentDuring(from: number, to: number, exceptId: string): Promise<PurchaseIntent[]>;
  /** When each intent out between `from` and `to` (not rejected) was sent and finished; all. */
  outBetween(from: number, to: number): Promise<OutWindow[]>;
}

/** The whole ledger one store opens: its records, its pause switch and its queries. */
export interface PurchaseLedger
  extends IntentStore, PauseSwitch, LedgerQueries, ProofSettlement<PurchaseIntent> {}

/** When a purchase's request was out: sent, and finished (undefined while still out). */
export interface OutWindow {
  id: string;
  sentAt: number;
  finishedAt: number | undefined;
}

/** A giveaway batch a restore from a backup stopped for good (src/ledger/restore.ts). */
export interface RestoreStoppedBatch {
  id: string;
  kind: IntentKind;
  /** Stars per recipient, or Premium months. */
  quantity: number;
  /** When the admin confirmed it (ms since the epoch). */
  createdAt: number;
  /** Its recipients the backup shows not sent: closed, never sent by this batch. */
  unsent: number;
}

/**
 * What the admins are told at the next start after a restore (src/ledger/restore.ts).
 * JSON-serialisable: it is stored.
 */
export interface RestoreNotice {
  restoredAt: number;
  /** When the backup was taken (ISO 8601), when known. */
  backupTakenAt: string | undefined;
  /** Purchases in flight or waiting in the backup, now unknown (each also told on its own). */
  unknown: number;
  /** People's summaries still confirmable in the backup, now expired. */
  expiredSummaries: number;
  stoppedBatches: RestoreStoppedBatch[];
}

/** What a restore's marks did (PurchaseLedger.markRestored). */
export interface RestoreMarks {
  /** The intents now unknown (unconfirmed), for an admin to settle. */
  unknown: PurchaseIntent[];
  notice: RestoreNotice;
}
