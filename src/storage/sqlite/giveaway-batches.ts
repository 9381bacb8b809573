/**
 * Giveaway batches in SQLite (see {@link GiveawayBatches}): the batch row, and its drafts
 * written with it in one transaction. Sending them is the ledger's ordinary claim.
 */
import { randomBytes } from "node:crypto";
import { InvalidDraftError } from "../../ledger/errors.js";
import {
  BATCH_DRAFT_TTL_MS,
  type BatchCounts,
  type BatchStatus,
  type BatchStopReason,
  type GiveawayBatch,
  type GiveawayBatches,
  type NewBatch,
} from "../../ledger/giveaways.js";
import { newIntentId } from "../../ledger/intent-id.js";
import type { IntentStatus, PurchaseIntent } from "../../ledger/types.js";
import { parseUsername } from "../../gifts/username.js";
import type { Db } from "./database.js";
import { LedgerCore } from "./ledger-core.js";
import { type IntentRow, rowToIntent } from "./rows.js";

/** A `giveaway_batches` row. */
export interface BatchRow {
  id: string;
  kind: GiveawayBatch["kind"];
  quantity: number;
  payment_method: GiveawayBatch["paymentMethod"];
  admin_id: number | string;
  chat_id: number | string;
  message_id: number | string | null;
  status: BatchStatus;
  stop_reason: BatchStopReason | null;
  created_at: number | string;
  updated_at: number | string;
}

/** Maps a batch row (SQLite's numbers, or PostgreSQL's BIGINT strings) to the batch. */
export function rowToBatch(row: BatchRow): GiveawayBatch {
  return {
    id: row.id,
    kind: row.kind,
    quantity: Number(row.quantity),
    paymentMethod: row.payment_method,
    adminId: Number(row.admin_id),
    chatId: Number(row.chat_id),
    messageId: row.message_id === null ? undefined : Number(row.message_id),
    status: row.status,
    stopReason: row.stop_reason ?? undefined,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** A batch id: random, as it travels in callback data. */
export function newBatchId(): string {
  return randomBytes(9).toString("base64url");
}

/** The recipients as stored (without `@`), refusing a batch with a name that is not one. */
export function batchRecipients(batch: NewBatch): string[] {
  if (batch.recipients.length === 0) throw new InvalidDraftError("A giveaway needs recipients.");
  return batch.recipients.map((name) => {
    const recipient = parseUsername(name);
    if (recipient === undefined) throw new InvalidDraftError(`"${name}" is not a username.`);
    return recipient;
  });
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

/** Counts by bucket from counts by status. */
export function batchCountsOf(
  byStatus: Iterable<{ status: IntentStatus; n: number }>,
): BatchCounts {
  const counts: BatchCounts = {
    total: 0,
    waiting: 0,
    sending: 0,
    delivered: 0,
    refused: 0,
    unknown: 0,
    dropped: 0,
  };
  for (const { status, n } of byStatus) {
    counts[BUCKETS[status]] += Number(n);
    counts.total += Number(n);
  }
  return counts;
}

export class SqliteGiveawayBatches implements GiveawayBatches {
  readonly #core: LedgerCore;

  constructor(db: Db) {
    this.#core = new LedgerCore(db, Date.now);
  }

  createBatch(batch: NewBatch, now: number): GiveawayBatch {
    const recipients = batchRecipients(batch);
    const id = newBatchId();
    const { db, sql } = this.#core;
    const row = db.transaction(() => {
      const inserted = sql
        .prepare<Record<string, string | number>, BatchRow>(
          `INSERT INTO giveaway_batches (id, kind, quantity, payment_method, admin_id, chat_id,
             status, created_at, updated_at)
           VALUES (@id, @kind, @quantity, @method, @adminId, @chatId, 'running', @now, @now)
           RETURNING *`,
        )
        .get({
          id,
          kind: batch.kind,
          quantity: batch.quantity,
          method: batch.paymentMethod,
          adminId: batch.adminId,
          chatId: batch.chatId,
          now,
        });
      const draft = sql.prepare(
        `INSERT INTO purchase_intents (id, kind, recipient, quantity, payment_method,
           requester_user_id, requester_chat_id, requester_chat_type, status, created_at,
           expires_at, balance_before, updated_at, batch_id, batch_position)
         VALUES (@id, @kind, @recipient, @quantity, @method, @adminId, @chatId, 'private',
           'draft', @now, @expiresAt, @balanceBefore, @now, @batchId, @position)`,
      );
      const balanceBefore =
        batch.balanceBefore === undefined ? null : JSON.stringify(batch.balanceBefore);
      for (const [position, recipient] of recipients.entries()) {
        const intentId = newIntentId();
        draft.run({
          id: intentId,
          kind: batch.kind,
          recipient,
          quantity: batch.quantity,
          method: batch.paymentMethod,
          adminId: batch.adminId,
          chatId: batch.chatId,
          now,
          expiresAt: now + BATCH_DRAFT_TTL_MS,
          balanceBefore,
          batchId: id,
          position,
        });
        this.#core.event(intentId, null, "draft", now, batch.adminId);
      }
      return inserted;
    })();
    if (row === undefined) throw new Error("the giveaway batch was not written");
    return rowToBatch(row);
  }

  getBatch(id: string): GiveawayBatch | undefined {
    const row = this.#core.sql
      .prepare<[string], BatchRow>("SELECT * FROM giveaway_batches WHERE id = ?")
      .get(id);
    return row === undefined ? undefined : rowToBatch(row);
  }

  runningBatches(): GiveawayBatch[] {
    return this.#core.sql
      .prepare<[], BatchRow>(
        "SELECT * FROM giveaway_batches WHERE status = 'running' ORDER BY created_at, id",
      )
      .all()
      .map(rowToBatch);
  }

  batchesLike(kind: GiveawayBatch["kind"], quantity: number, since: number): GiveawayBatch[] {
    return this.#core.sql
      .prepare<[string, number, number], BatchRow>(
        `SELECT * FROM giveaway_batches WHERE kind = ? AND quantity = ? AND created_at >= ?
         ORDER BY created_at DESC, id`,
      )
      .all(kind, quantity, since)
      .map(rowToBatch);
  }

  setBatchMessage(id: string, messageId: number, now: number): void {
    this.#core.sql
      .prepare("UPDATE giveaway_batches SET message_id = ?, updated_at = ? WHERE id = ?")
      .run(messageId, now, id);
  }

  moveBatch(
    id: string,
    from: readonly BatchStatus[],
    to: BatchStatus,
    now: number,
    reason?: BatchStopReason,
  ): boolean {
    const placeholders = from.map(() => "?").join(", ");
    const changed = this.#core.sql
      .prepare(
        `UPDATE giveaway_batches SET status = ?, stop_reason = ?, updated_at = ?
         WHERE id = ? AND status IN (${placeholders}) AND COALESCE(stop_reason, '') <> 'restored'`,
      )
      .run(to, reason ?? null, now, id, ...from);
    return changed.changes === 1;
  }

  nextBatchDraft(id: string, now: number): PurchaseIntent | undefined {
    const row = this.#core.sql
      .prepare<[string, number], IntentRow>(
        `SELECT * FROM purchase_intents
         WHERE batch_id = ? AND status = 'draft' AND expires_at > ?
         ORDER BY batch_position LIMIT 1`,
      )
      .get(id, now);
    return row === undefined ? undefined : rowToIntent(row);
  }

  cancelBatchDrafts(id: string, now: number): number {
    const { db, sql } = this.#core;
    return db
      .transaction(() => {
        const drafts = sql
          .prepare<[string], { id: string }>(
            "SELECT id FROM purchase_intents WHERE batch_id = ? AND status = 'draft'",
          )
          .all(id);
        for (const draft of drafts) {
          const current = this.#core.mustGet(draft.id);
          this.#core.move(current, "cancelled", now, { finishedAt: now }, current.requester.userId);
        }
        return drafts.length;
      })
      .immediate();
  }

  batchCounts(id: string): BatchCounts {
    return batchCountsOf(
      this.#core.sql
        .prepare<[string], { status: IntentStatus; n: number }>(
          "SELECT status, COUNT(*) AS n FROM purchase_intents WHERE batch_id = ? GROUP BY status",
        )
        .all(id),
    );
  }

  batchIntents(id: string): PurchaseIntent[] {
    return this.#core.sql
      .prepare<[string], IntentRow>(
        "SELECT * FROM purchase_intents WHERE batch_id = ? ORDER BY batch_position",
      )
      .all(id)
      .map(rowToIntent);
  }
}
