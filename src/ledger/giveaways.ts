/**
 * Giveaway batches in the ledger: many recipients confirmed at once by an admin. A batch is
 * written with one draft intent per recipient in one transaction; each draft is then claimed
 * and sent through the same claim as a person's gift (limits, pause, freeze, the lease's
 * fence), one at a time. The batch row only says whether its drafts may still be sent.
 */
import type { PaymentMethod } from "../gifts/catalogue.js";
import type { BalanceSnapshot, IntentKind, IntentStatus, PurchaseIntent } from "./types.js";

/**
 * running: its drafts are being sent; paused: an admin paused it (Resume goes on);
 * stopped: something stopped it (an unknown outcome, purchases paused or on hold, a limit;
 * Resume goes on once that is settled; a restore from a backup stops it for good);
 * cancelled: its unsent drafts were cancelled;
 * finished: nothing is left to send.
 */
export type BatchStatus = "running" | "paused" | "stopped" | "cancelled" | "finished";

/** Why a batch stopped by itself (the admins' texts name it). */
export type BatchStopReason =
  | "unknown_outcome"
  | "on_hold"
  | "purchases_paused"
  | "limit"
  | "storage"
  /** A Premium recipient could not be checked again right before the claim. */
  | "service_unreachable"
  /**
   * The database was restored from a backup (src/ledger/restore.ts): stopped for good, its
   * unsent recipients closed; only a new giveaway sends them.
   */
  | "restored";

export interface GiveawayBatch {
  id: string;
  kind: IntentKind;
  /** Stars per recipient, or Premium months. */
  quantity: number;
  paymentMethod: PaymentMethod;
  /** The admin who confirmed it: each intent's requester. */
  adminId: number;
  /** The admin's private chat, where its progress is shown. */
  chatId: number;
  /** The progress message, once shown. */
  messageId: number | undefined;
  status: BatchStatus;
  stopReason: BatchStopReason | undefined;
  createdAt: number;
  updatedAt: number;
}

/** A batch as the admin confirmed it. */
export interface NewBatch {
  kind: IntentKind;
  quantity: number;
  paymentMethod: PaymentMethod;
  adminId: number;
  chatId: number;
  /** Checked usernames, each once, in the admin's order. */
  recipients: readonly string[];
  balanceBefore: BalanceSnapshot | undefined;
}

/** Where a batch's intents are, by what happened to them. */
export interface BatchCounts {
  total: number;
  /** Drafts not sent yet. */
  waiting: number;
  /** Claimed, its request out now. */
  sending: number;
  /** Succeeded, or settled delivered by an admin. */
  delivered: number;
  /** Refused by the service or the checks, or settled not delivered. */
  refused: number;
  /** Outcome unknown: waiting for an admin to settle it. */
  unknown: number;
  /** Cancelled or expired before they were sent. */
  dropped: number;
}

/** Statuses counted as each {@link BatchCounts} bucket. */
const BUCKETS: Readonly<Record<IntentStatus, keyof Omit<BatchCounts, "total">>> = {
  draft: "waiting",
  queued: "waiting",
  sending: "sending",
  succeeded: "delivered",
  delivered: "delivered",
  rejected: "refused",
  not_delivered: "refused",
  unconfirmed: "unknown",
  cancelled: "dropped",
  expired: "dropped",
};

/** A batch's counts from how many of its intents are in each status. */
export function tallyBatch(byStatus: readonly { status: IntentStatus; n: number }[]): BatchCounts {
  const counts: BatchCounts = {
    ...{ total: 0, waiting: 0, sending: 0, delivered: 0 },
    ...{ refused: 0, unknown: 0, dropped: 0 },
  };
  for (const { status, n } of byStatus) {
    counts[BUCKETS[status]] += n;
    counts.total += n;
  }
  return counts;
}

/** How long a batch's drafts wait to be sent (a paused batch keeps them this long). */
export const BATCH_DRAFT_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface GiveawayBatches {
  /** Writes the batch (running) and one draft per recipient, in one transaction. */
  createBatch(batch: NewBatch, now: number): Promise<GiveawayBatch>;
  getBatch(id: string): Promise<GiveawayBatch | undefined>;
  /** Batches whose drafts are being sent (a restart goes on with them). */
  runningBatches(): Promise<GiveawayBatch[]>;
  /** Batches of `kind` and `quantity` confirmed at or after `since`, newest first. */
  batchesLike(kind: IntentKind, quantity: number, since: number): Promise<GiveawayBatch[]>;
  setBatchMessage(id: string, messageId: number, now: number): Promise<void>;
  /**
   * Moves the batch to `to` (with why, when it stopped) only from one of `from`; false when it
   * was in none of them (another press or process moved it first), and always for a batch a
   * restore stopped (it never moves again).
   */
  moveBatch(
    id: string,
    from: readonly BatchStatus[],
    to: BatchStatus,
    now: number,
    reason?: BatchStopReason,
  ): Promise<boolean>;
  /** The next draft to send, in the admin's order; undefined when none is left. */
  nextBatchDraft(id: string, now: number): Promise<PurchaseIntent | undefined>;
  /** Cancels every draft of the batch not sent yet; how many. */
  cancelBatchDrafts(id: string, now: number): Promise<number>;
  batchCounts(id: string): Promise<BatchCounts>;
  /** Every intent of the batch, in the admin's order (for its CSV). */
  batchIntents(id: string): Promise<PurchaseIntent[]>;
}
