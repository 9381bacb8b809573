/**
 * Giveaway batches (see {@link GiveawayBatches}): the batch row, and its drafts written with it
 * in one transaction. Sending them is the ledger's ordinary claim. Cancelling the unsent drafts
 * is one statement, so a claim of one of them either happened before it (the draft is no longer
 * one) or waits for it and finds it cancelled.
 */
import { randomBytes } from "node:crypto";
import { parseUsername } from "../gifts/username.js";
import { InvalidDraftError } from "../ledger/errors.js";
import {
  BATCH_DRAFT_TTL_MS,
  type BatchCounts,
  type BatchStatus,
  type BatchStopReason,
  type GiveawayBatch,
  type GiveawayBatches,
  type NewBatch,
} from "../ledger/giveaways.js";
import { newIntentId } from "../ledger/intent-id.js";
import type { IntentStatus, PurchaseIntent } from "../ledger/types.js";
import type { Database } from "./db/port.js";
import { LedgerCore } from "./ledger/core.js";
import { type IntentRow, rowToIntent } from "./ledger/rows.js";

/** A `giveaway_batches` row. */
export interface BatchRow {
  id: string;
  kind: GiveawayBatch["kind"];
  quantity: number;
  payment_method: GiveawayBatch["paymentMethod"];
  admin_id: number;
  chat_id: number;
  message_id: number | null;
  status: BatchStatus;
  stop_reason: BatchStopReason | null;
  created_at: number;
  updated_at: number;
}

export function rowToBatch(row: BatchRow): GiveawayBatch {
  return {
    id: row.id,
    kind: row.kind,
    quantity: row.quantity,
    paymentMethod: row.payment_method,
    adminId: row.admin_id,
    chatId: row.chat_id,
    messageId: row.message_id ?? undefined,
    status: row.status,
    stopReason: row.stop_reason ?? undefined,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The recipients as stored (without `@`), refusing a batch with a name that is not one. */
function batchRecipients(batch: NewBatch): string[] {
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

const INSERT_BATCH_SQL = `INSERT INTO giveaway_batches (id, kind, quantity, payment_method,
    admin_id, chat_id, status, created_at, updated_at)
  VALUES (@id, @kind, @quantity, @method, @adminId, @chatId, 'running', @now, @now)
  RETURNING *`;

const INSERT_DRAFT_SQL = `INSERT INTO purchase_intents (id, kind, recipient, quantity,
    payment_method, requester_user_id, requester_chat_id, requester_chat_type, status,
    created_at, expires_at, balance_before, updated_at, batch_id, batch_position)
  VALUES (@id, @kind, @recipient, @quantity, @method, @adminId, @chatId, 'private',
    'draft', @now, @expiresAt, @balanceBefore, @now, @batchId, @position)`;

export class StoredGiveawayBatches implements GiveawayBatches {
  readonly #db: Database;
  readonly #core: LedgerCore;

  constructor(db: Database) {
    this.#db = db;
    this.#core = new LedgerCore(db, Date.now);
  }

  async createBatch(batch: NewBatch, now: number): Promise<GiveawayBatch> {
    const recipients = batchRecipients(batch);
    // A batch id: random, as it travels in callback data.
    const id = randomBytes(9).toString("base64url");
    const fields = {
      kind: batch.kind,
      quantity: batch.quantity,
      method: batch.paymentMethod,
      adminId: batch.adminId,
      chatId: batch.chatId,
      now,
    };
    const balanceBefore =
      batch.balanceBefore === undefined ? null : JSON.stringify(batch.balanceBefore);
    const row = await this.#db.transaction(async (tx) => {
      const [inserted] = await tx.rows<BatchRow>(INSERT_BATCH_SQL, { ...fields, id });
      for (const [position, recipient] of recipients.entries()) {
        const intentId = newIntentId();
        await tx.run(INSERT_DRAFT_SQL, {
          ...fields,
          id: intentId,
          recipient,
          expiresAt: now + BATCH_DRAFT_TTL_MS,
          balanceBefore,
          batchId: id,
          position,
        });
        const draft = { id: intentId, from: null, to: "draft" as const, at: now };
        await this.#core.event(tx, draft, batch.adminId);
      }
      return inserted;
    });
    if (row === undefined) throw new Error("the giveaway batch was not written");
    return rowToBatch(row);
  }

  async getBatch(id: string): Promise<GiveawayBatch | undefined> {
    const [row] = await this.#db.rows<BatchRow>("SELECT * FROM giveaway_batches WHERE id = @id", {
      id,
    });
    return row === undefined ? undefined : rowToBatch(row);
  }

  async runningBatches(): Promise<GiveawayBatch[]> {
    const found = await this.#db.rows<BatchRow>(
      "SELECT * FROM giveaway_batches WHERE status = 'running' ORDER BY created_at, id",
    );
    return found.map(rowToBatch);
  }

  async batchesLike(
    kind: GiveawayBatch["kind"],
    quantity: number,
    since: number,
  ): Promise<GiveawayBatch[]> {
    const found = await this.#db.rows<BatchRow>(
      `SELECT * FROM giveaway_batches WHERE kind = @kind AND quantity = @quantity
         AND created_at >= @since
       ORDER BY created_at DESC, id`,
      { kind, quantity, since },
    );
    return found.map(rowToBatch);
  }

  async setBatchMessage(id: string, messageId: number, now: number): Promise<void> {
    await this.#db.run(
      "UPDATE giveaway_batches SET message_id = @messageId, updated_at = @now WHERE id = @id",
      { id, messageId, now },
    );
  }

  async moveBatch(
    id: string,
    from: readonly BatchStatus[],
    to: BatchStatus,
    now: number,
    reason?: BatchStopReason,
  ): Promise<boolean> {
    const names = from.map((_, index) => `@from${index}`).join(", ");
    const changed = await this.#db.run(
      `UPDATE giveaway_batches SET status = @to, stop_reason = @reason, updated_at = @now
       WHERE id = @id AND status IN (${names}) AND COALESCE(stop_reason, '') <> 'restored'`,
      {
        ...Object.fromEntries(from.map((status, index) => [`from${index}`, status])),
        ...{ id, to, now, reason: reason ?? null },
      },
    );
    return changed === 1;
  }

  async nextBatchDraft(id: string, now: number): Promise<PurchaseIntent | undefined> {
    const [row] = await this.#db.rows<IntentRow>(
      `SELECT * FROM purchase_intents
       WHERE batch_id = @id AND status = 'draft' AND expires_at > @now
       ORDER BY batch_position LIMIT 1`,
      { id, now },
    );
    return row === undefined ? undefined : rowToIntent(row);
  }

  /** draft → cancelled for every draft of the batch (the transition table allows it). */
  cancelBatchDrafts(id: string, now: number): Promise<number> {
    return this.#db.transaction(async (tx) => {
      const cancelled = await tx.rows<{ id: string; requester_user_id: number }>(
        `UPDATE purchase_intents
         SET status = 'cancelled', finished_at = @now, updated_at = @now
         WHERE batch_id = @id AND status = 'draft'
         RETURNING id, requester_user_id`,
        { id, now },
      );
      for (const intent of cancelled) {
        const change = { id: intent.id, from: "draft" as const, to: "cancelled" as const, at: now };
        await this.#core.event(tx, change, intent.requester_user_id);
      }
      return cancelled.length;
    });
  }

  async batchCounts(id: string): Promise<BatchCounts> {
    const byStatus = await this.#db.rows<{ status: IntentStatus; n: number }>(
      "SELECT status, COUNT(*) AS n FROM purchase_intents WHERE batch_id = @id GROUP BY status",
      { id },
    );
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

  async batchIntents(id: string): Promise<PurchaseIntent[]> {
    const found = await this.#db.rows<IntentRow>(
      "SELECT * FROM purchase_intents WHERE batch_id = @id ORDER BY batch_position",
      { id },
    );
    return found.map(rowToIntent);
  }
}
