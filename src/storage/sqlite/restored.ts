/**
 * After a restore from a backup, in SQLite (see src/ledger/restore.ts for why): in one durable
 * transaction, the sender lease cleared, what was in flight or waiting made unknown, giveaways
 * not over stopped for good with their unsent recipients expired, people's open summaries
 * expired, and the notice for the admins kept in the key-value store.
 */
import { mergedNotice, RESTORE_NOTICE, restoredDetail } from "../../ledger/restore.js";
import type {
  PurchaseIntent,
  RestoreMarks,
  RestoreNotice,
  RestoreStoppedBatch,
} from "../../ledger/types.js";
import type { BatchRow } from "./giveaway-batches.js";
import type { LedgerCore } from "./ledger-core.js";

/** Batches whose drafts may still be sent: running, paused, or stopped for a passing reason. */
export const OPEN_BATCHES_SQL = `status IN ('running', 'paused', 'stopped')
  AND COALESCE(stop_reason, '') <> 'restored'`;

export function markRestored(
  core: LedgerCore,
  backupTakenAt: string | undefined,
  now: number,
): RestoreMarks {
  return core.durably(() => {
    // The epoch moves far past any a process of before the restore could still hold.
    core.sql
      .prepare(
        "UPDATE sender_lease SET owner = NULL, expires_at = 0, epoch = epoch + 1000 WHERE name = 'sender'",
      )
      .run();
    const unknown = makeUnknown(core, restoredDetail(backupTakenAt), now);
    const stoppedBatches = stopOpenBatches(core, now);
    const expiredSummaries = expireDrafts(core, "batch_id IS NULL", now);
    const notice: RestoreNotice = {
      restoredAt: now,
      backupTakenAt,
      unknown: unknown.length,
      expiredSummaries,
      stoppedBatches,
    };
    const waiting = core.sql
      .prepare<[string, string], string>("SELECT value FROM kv WHERE namespace = ? AND key = ?")
      .pluck()
      .get(RESTORE_NOTICE.namespace, RESTORE_NOTICE.key);
    core.sql
      .prepare(
        `INSERT INTO kv (namespace, key, value, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value,
           updated_at = excluded.updated_at`,
      )
      .run(
        RESTORE_NOTICE.namespace,
        RESTORE_NOTICE.key,
        JSON.stringify(mergedNotice(waiting, notice)),
        now,
      );
    return { unknown, notice };
  });
}

/** Every intent in flight (`sending`) or promised (`queued`) becomes unconfirmed. */
function makeUnknown(core: LedgerCore, detail: string, now: number): PurchaseIntent[] {
  const found = core.sql
    .prepare<[], { id: string }>(
      "SELECT id FROM purchase_intents WHERE status IN ('sending', 'queued') ORDER BY rowid",
    )
    .all();
  return found.map(({ id }) =>
    core.move(
      core.mustGet(id),
      "unconfirmed",
      now,
      { finishedAt: now, outcomeDetail: detail },
      null,
    ),
  );
}

/** Each batch whose drafts may still be sent: its drafts expired, itself stopped for good. */
function stopOpenBatches(core: LedgerCore, now: number): RestoreStoppedBatch[] {
  const open = core.sql
    .prepare<[], BatchRow>(
      `SELECT * FROM giveaway_batches WHERE ${OPEN_BATCHES_SQL} ORDER BY created_at, id`,
    )
    .all();
  return open.map((batch) => {
    const unsent = expireDrafts(core, "batch_id = @batchId", now, batch.id);
    core.sql
      .prepare(
        `UPDATE giveaway_batches SET status = 'stopped', stop_reason = 'restored', updated_at = ?
         WHERE id = ?`,
      )
      .run(now, batch.id);
    return {
      id: batch.id,
      kind: batch.kind,
      quantity: Number(batch.quantity),
      createdAt: Number(batch.created_at),
      unsent,
    };
  });
}

/**
 * Expires every draft `where` selects; answers how many were still open (confirmable) before.
 * A press on its summary is then answered as expired, as any expired summary's is.
 */
function expireDrafts(core: LedgerCore, where: string, now: number, batchId?: string): number {
  const expired = core.sql
    .prepare<Record<string, string | number>, { id: string; expires_at: number }>(
      `UPDATE purchase_intents SET status = 'expired', finished_at = @now, updated_at = @now
       WHERE status = 'draft' AND ${where}
       RETURNING id, expires_at`,
    )
    .all({ now, ...(batchId === undefined ? {} : { batchId }) });
  for (const draft of expired) core.event(draft.id, "draft", "expired", now, null);
  return expired.filter((draft) => Number(draft.expires_at) > now).length;
}
