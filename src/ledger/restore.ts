/**
 * What a restore from a backup does to the ledger, and what it leaves for the admins. A backup
 * cannot know what was sent after it was taken: whatever it shows as not sent yet may have been
 * sent since. So nothing it shows unsent may go out without an admin's new decision: a purchase
 * in flight or waiting becomes an unknown outcome to settle, a summary still open expires (its
 * person starts again), and a giveaway not over stops for good with the reason "restored" (its
 * unsent recipients closed: an admin who wants them sent starts a new giveaway). The admins are
 * told what was stopped at the bot's next start, from a notice kept in the database.
 */
import type { PurchaseIntent, RestoreNotice, RestoreStoppedBatch } from "./types.js";

/**
 * Where the notice for the admins ({@link RestoreNotice}) is kept (the key-value store), until
 * they have it.
 */
export const RESTORE_NOTICE = { namespace: "restore", key: "notice" } as const;

/** The outcome detail of a purchase a restore made unknown. */
export function restoredDetail(backupTakenAt: string | undefined): string {
  const taken = backupTakenAt === undefined ? "" : ` taken ${backupTakenAt}`;
  return `restored: the database was restored from a backup${taken}; whether this purchase was sent after it is unknown`;
}

/**
 * The notice to keep when one is already waiting (a second restore, or the after-restore step
 * run twice, before any bot started): the admins are told of both, once.
 */
export function mergedNotice(waiting: string | undefined, latest: RestoreNotice): RestoreNotice {
  if (waiting === undefined) return latest;
  const earlier = JSON.parse(waiting) as RestoreNotice;
  return {
    ...latest,
    unknown: earlier.unknown + latest.unknown,
    expiredSummaries: earlier.expiredSummaries + latest.expiredSummaries,
    stoppedBatches: [...earlier.stoppedBatches, ...latest.stoppedBatches],
  };
}

/**
 * The notice of what a restore stopped: of the drafts it expired (`expired`), those still
 * confirmable at `restoredAt` count, a person's as an expired summary and a batch's as one of its
 * unsent recipients.
 */
export function restoreNotice(
  marks: { backupTakenAt: string | undefined; now: number; unknown: number },
  batches: readonly Omit<RestoreStoppedBatch, "unsent">[],
  expired: readonly PurchaseIntent[],
): RestoreNotice {
  const open = expired.filter((draft) => draft.expiresAt > marks.now);
  return {
    restoredAt: marks.now,
    backupTakenAt: marks.backupTakenAt,
    unknown: marks.unknown,
    expiredSummaries: open.filter((draft) => draft.batchId === undefined).length,
    stoppedBatches: batches.map((batch) => ({
      ...batch,
      unsent: open.filter((draft) => draft.batchId === batch.id).length,
    })),
  };
}
