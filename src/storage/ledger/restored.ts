/**
 * After a restore from a backup (src/ledger/restore.ts says why), inside the same gated
 * transaction that made what was in flight or waiting unknown (./outcomes.ts `markRestored`):
 * giveaways not over stopped for good with their unsent recipients expired, people's open
 * summaries expired, and the notice for the admins kept in the key-value store.
 */
import type { GiveawayBatch } from "../../ledger/giveaways.js";
import { mergedNotice, RESTORE_NOTICE } from "../../ledger/restore.js";
import type { RestoreNotice, RestoreStoppedBatch } from "../../ledger/types.js";
import type { Statements } from "../db/port.js";
import type { LedgerCore } from "./core.js";

/** Batches whose drafts may still be sent: running, paused, or stopped for a passing reason. */
const OPEN_BATCHES_SQL = `status IN ('running', 'paused', 'stopped')
  AND COALESCE(stop_reason, '') <> 'restored'`;

/** Closes what the backup shows open, and keeps (merged with one waiting) the admins' notice. */
export async function closeWhatWasOpen(
  core: LedgerCore,
  tx: Statements,
  marks: { backupTakenAt: string | undefined; now: number; unknown: number },
): Promise<RestoreNotice> {
  const { now } = marks;
  const stoppedBatches = await stopOpenBatches(core, tx, now);
  const expiredSummaries = await expireDrafts(core, tx, "batch_id IS NULL", { now });
  const notice: RestoreNotice = {
    restoredAt: now,
    backupTakenAt: marks.backupTakenAt,
    unknown: marks.unknown,
    expiredSummaries,
    stoppedBatches,
  };
  const [waiting] = await tx.rows<{ value: string }>(
    `SELECT value FROM kv WHERE namespace = @namespace AND key = @key${core.db.dialect.forUpdate}`,
    RESTORE_NOTICE,
  );
  await tx.run(
    `INSERT INTO kv (namespace, key, value, updated_at) VALUES (@namespace, @key, @value, @now)
     ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value,
       updated_at = excluded.updated_at`,
    { ...RESTORE_NOTICE, value: JSON.stringify(mergedNotice(waiting?.value, notice)), now },
  );
  return notice;
}

/** Each batch whose drafts may still be sent: its drafts expired, itself stopped for good. */
async function stopOpenBatches(
  core: LedgerCore,
  tx: Statements,
  now: number,
): Promise<RestoreStoppedBatch[]> {
  const open = await tx.rows<{
    id: string;
    kind: GiveawayBatch["kind"];
    quantity: number;
    created_at: number;
  }>(
    `SELECT id, kind, quantity, created_at FROM giveaway_batches WHERE ${OPEN_BATCHES_SQL}
     ORDER BY created_at, id${core.db.dialect.forUpdate}`,
  );
  const stopped: RestoreStoppedBatch[] = [];
  for (const batch of open) {
    const unsent = await expireDrafts(core, tx, "batch_id = @batchId", { now, batchId: batch.id });
    await tx.run(
      `UPDATE giveaway_batches SET status = 'stopped', stop_reason = 'restored', updated_at = @now
       WHERE id = @id`,
      { id: batch.id, now },
    );
    const { id, kind, quantity } = batch;
    stopped.push({ id, kind, quantity, createdAt: batch.created_at, unsent });
  }
  return stopped;
}

/**
 * Expires every draft `where` selects; answers how many were still open (confirmable) before.
 * A press on its summary is then answered as expired, as any expired summary's is.
 */
async function expireDrafts(
  core: LedgerCore,
  tx: Statements,
  where: string,
  params: { now: number; batchId?: string },
): Promise<number> {
  const expired = await tx.rows<{ id: string; expires_at: number }>(
    `UPDATE purchase_intents SET status = 'expired', finished_at = @now, updated_at = @now
     WHERE status = 'draft' AND ${where}
     RETURNING id, expires_at`,
    params,
  );
  for (const draft of expired) {
    await core.event(tx, { id: draft.id, from: "draft", to: "expired", at: params.now }, null);
  }
  return expired.filter((draft) => draft.expires_at > params.now).length;
}
