/**
 * After a restore from a backup (src/ledger/restore.ts says why), inside the same gated
 * transaction that made what was in flight or waiting unknown (./outcomes.ts `markRestored`):
 * giveaways not over stopped for good with their unsent recipients expired, people's open
 * summaries expired, and the notice for the admins kept in the key-value store.
 */
import { mergedNotice, RESTORE_NOTICE, restoreNotice } from "../../ledger/restore.js";
import type { RestoreNotice, RestoreStoppedBatch } from "../../ledger/types.js";
import type { Statements } from "../db/port.js";
import { KV_WRITE_SQL } from "../key-value-store.js";
import type { LedgerCore } from "./core.js";

/** Batches whose drafts may still be sent: running, paused, or stopped for a passing reason. */
const OPEN_BATCHES = `status IN ('running', 'paused', 'stopped')
  AND COALESCE(stop_reason, '') <> 'restored'`;

/** Closes what the backup shows open, and keeps (merged with one waiting) the admins' notice. */
export async function closeWhatWasOpen(
  core: LedgerCore,
  tx: Statements,
  marks: { backupTakenAt: string | undefined; now: number; unknown: number },
): Promise<RestoreNotice> {
  const { now } = marks;
  const { forUpdate, seq } = core.db.dialect;
  const batches = await tx.rows<Omit<RestoreStoppedBatch, "unsent">>(
    `SELECT id, kind, quantity, created_at AS "createdAt" FROM giveaway_batches
     WHERE ${OPEN_BATCHES} ORDER BY created_at, id${forUpdate}`,
  );
  await tx.run(
    `UPDATE giveaway_batches SET status = 'stopped', stop_reason = 'restored', updated_at = @now
     WHERE ${OPEN_BATCHES}`,
    { now },
  );
  // Every draft the backup shows, a person's or an open batch's (a batch over has none left).
  const drafts = { where: `status = 'draft' ORDER BY ${seq}` };
  const expired = await core.moveAll(tx, drafts, "expired", now, { finishedAt: now }, null);
  const notice = restoreNotice(marks, batches, expired);
  const [waiting] = await tx.rows<{ value: string }>(
    `SELECT value FROM kv WHERE namespace = @namespace AND key = @key${forUpdate}`,
    RESTORE_NOTICE,
  );
  const value = JSON.stringify(mergedNotice(waiting?.value, notice));
  await tx.run(KV_WRITE_SQL, { ...RESTORE_NOTICE, value, now });
  return notice;
}
