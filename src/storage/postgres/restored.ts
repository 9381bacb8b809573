/**
 * After a restore from a backup (pg_restore), in PostgreSQL, as in SQLite
 * (src/storage/sqlite/restored.ts; src/ledger/restore.ts for why): in one transaction through
 * the ledger gate, the sender lease cleared, what was in flight or waiting made unknown,
 * giveaways not over stopped for good with their unsent recipients expired, people's open
 * summaries expired, and the notice for the admins kept in the key-value store.
 */
import type pg from "pg";
import { mergedNotice, RESTORE_NOTICE, restoredDetail } from "../../ledger/restore.js";
import type {
  PurchaseIntent,
  RestoreMarks,
  RestoreNotice,
  RestoreStoppedBatch,
} from "../../ledger/types.js";
import type { BatchRow } from "../sqlite/giveaway-batches.js";
import { OPEN_BATCHES_SQL } from "../sqlite/restored.js";
import type { PostgresLedgerCore } from "./ledger-core.js";
import { rows, run } from "./sql.js";

export function markRestored(
  core: PostgresLedgerCore,
  backupTakenAt: string | undefined,
  now: number,
): Promise<RestoreMarks> {
  return core.gated(async (client) => {
    // The epoch moves far past any a process of before the restore could still hold.
    await client.query(
      "UPDATE sender_lease SET owner = NULL, expires_at = 0, epoch = epoch + 1000 WHERE name = 'sender'",
    );
    const unknown = await makeUnknown(core, client, restoredDetail(backupTakenAt), now);
    const stoppedBatches = await stopOpenBatches(client, now);
    const expiredSummaries = await expireDrafts(client, "batch_id IS NULL", now);
    const notice: RestoreNotice = {
      restoredAt: now,
      backupTakenAt,
      unknown: unknown.length,
      expiredSummaries,
      stoppedBatches,
    };
    const [waiting] = await rows<{ value: string }>(
      client,
      "SELECT value FROM kv WHERE namespace = @namespace AND key = @key FOR UPDATE",
      RESTORE_NOTICE,
    );
    await run(
      client,
      `INSERT INTO kv (namespace, key, value, updated_at) VALUES (@namespace, @key, @value, @now)
       ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value,
         updated_at = excluded.updated_at`,
      { ...RESTORE_NOTICE, value: JSON.stringify(mergedNotice(waiting?.value, notice)), now },
    );
    return { unknown, notice };
  });
}

/** Every intent in flight (`sending`) or promised (`queued`) becomes unconfirmed. */
async function makeUnknown(
  core: PostgresLedgerCore,
  client: pg.PoolClient,
  detail: string,
  now: number,
): Promise<PurchaseIntent[]> {
  const found = await rows<{ id: string }>(
    client,
    "SELECT id FROM purchase_intents WHERE status IN ('sending', 'queued') ORDER BY seq FOR UPDATE",
  );
  const moved: PurchaseIntent[] = [];
  for (const { id } of found) {
    const current = await core.lock(id, client);
    const patch = { finishedAt: now, outcomeDetail: detail };
    moved.push(await core.move(client, current, "unconfirmed", now, patch, null));
  }
  return moved;
}

/** Each batch whose drafts may still be sent: its drafts expired, itself stopped for good. */
async function stopOpenBatches(client: pg.PoolClient, now: number): Promise<RestoreStoppedBatch[]> {
  const open = await rows<BatchRow>(
    client,
    `SELECT * FROM giveaway_batches WHERE ${OPEN_BATCHES_SQL} ORDER BY created_at, id FOR UPDATE`,
  );
  const stopped: RestoreStoppedBatch[] = [];
  for (const batch of open) {
    const unsent = await expireDrafts(client, "batch_id = @batchId", now, batch.id);
    await run(
      client,
      `UPDATE giveaway_batches SET status = 'stopped', stop_reason = 'restored', updated_at = @now
       WHERE id = @id`,
      { id: batch.id, now },
    );
    stopped.push({
      id: batch.id,
      kind: batch.kind,
      quantity: Number(batch.quantity),
      createdAt: Number(batch.created_at),
      unsent,
    });
  }
  return stopped;
}

/** Expires every draft `where` selects; answers how many were still open (confirmable) before. */
async function expireDrafts(
  client: pg.PoolClient,
  where: string,
  now: number,
  batchId?: string,
): Promise<number> {
  const expired = await rows<{ id: string; expires_at: number }>(
    client,
    `UPDATE purchase_intents SET status = 'expired', finished_at = @now, updated_at = @now
     WHERE status = 'draft' AND ${where}
     RETURNING id, expires_at`,
    { now, ...(batchId === undefined ? {} : { batchId }) },
  );
  for (const draft of expired) {
    await run(
      client,
      `INSERT INTO purchase_intent_events (intent_id, from_status, to_status, at, actor)
       VALUES (@id, 'draft', 'expired', @now, NULL)`,
      { id: draft.id, now },
    );
  }
  return expired.filter((draft) => Number(draft.expires_at) > now).length;
}
