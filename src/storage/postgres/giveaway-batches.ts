/**
 * Giveaway batches in PostgreSQL, as in SQLite (src/storage/sqlite/giveaway-batches.ts): the
 * batch row and its drafts in one transaction. Cancelling the unsent drafts is one statement,
 * so a claim of one of them either happened before it (the draft is no longer one) or waits
 * for it and finds it cancelled.
 */
import type pg from "pg";
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
import {
  type BatchRow,
  batchCountsOf,
  batchRecipients,
  newBatchId,
  rowToBatch,
} from "../sqlite/giveaway-batches.js";
import { type IntentRow, rowToIntent } from "../sqlite/rows.js";
import { PostgresLedgerCore } from "./ledger-core.js";
import { rows, run } from "./sql.js";

export class PostgresGiveawayBatches implements GiveawayBatches {
  readonly #core: PostgresLedgerCore;

  constructor(pool: pg.Pool) {
    this.#core = new PostgresLedgerCore(pool, Date.now);
  }

  async createBatch(batch: NewBatch, now: number): Promise<GiveawayBatch> {
    const recipients = batchRecipients(batch);
    const id = newBatchId();
    const row = await this.#core.transaction(async (client) => {
      const [inserted] = await rows<BatchRow>(
        client,
        `INSERT INTO giveaway_batches (id, kind, quantity, payment_method, admin_id, chat_id,
           status, created_at, updated_at)
         VALUES (@id, @kind, @quantity, @method, @adminId, @chatId, 'running', @now, @now)
         RETURNING *`,
        { ...this.#fields(batch), id, now },
      );
      const balanceBefore =
        batch.balanceBefore === undefined ? null : JSON.stringify(batch.balanceBefore);
      for (const [position, recipient] of recipients.entries()) {
        const intentId = newIntentId();
        await run(
          client,
          `INSERT INTO purchase_intents (id, kind, recipient, quantity, payment_method,
             requester_user_id, requester_chat_id, requester_chat_type, status, created_at,
             expires_at, balance_before, updated_at, batch_id, batch_position)
           VALUES (@id, @kind, @recipient, @quantity, @method, @adminId, @chatId, 'private',
             'draft', @now, @expiresAt, @balanceBefore, @now, @batchId, @position)`,
          {
            ...this.#fields(batch),
            id: intentId,
            recipient,
            now,
            expiresAt: now + BATCH_DRAFT_TTL_MS,
            balanceBefore,
            batchId: id,
            position,
          },
        );
        await this.#core.event(
          client,
          { id: intentId, from: null, to: "draft", at: now },
          batch.adminId,
        );
      }
      return inserted;
    });
    if (row === undefined) throw new Error("the giveaway batch was not written");
    return rowToBatch(row);
  }

  #fields(batch: NewBatch) {
    return {
      kind: batch.kind,
      quantity: batch.quantity,
      method: batch.paymentMethod,
      adminId: batch.adminId,
      chatId: batch.chatId,
    };
  }

  async getBatch(id: string): Promise<GiveawayBatch | undefined> {
    const [row] = await rows<BatchRow>(
      this.#core.pool,
      "SELECT * FROM giveaway_batches WHERE id = @id",
      { id },
    );
    return row === undefined ? undefined : rowToBatch(row);
  }

  async runningBatches(): Promise<GiveawayBatch[]> {
    const found = await rows<BatchRow>(
      this.#core.pool,
      "SELECT * FROM giveaway_batches WHERE status = 'running' ORDER BY created_at, id",
    );
    return found.map(rowToBatch);
  }

  async batchesLike(
    kind: GiveawayBatch["kind"],
    quantity: number,
    since: number,
  ): Promise<GiveawayBatch[]> {
    const found = await rows<BatchRow>(
      this.#core.pool,
      `SELECT * FROM giveaway_batches WHERE kind = @kind AND quantity = @quantity
         AND created_at >= @since
       ORDER BY created_at DESC, id`,
      { kind, quantity, since },
    );
    return found.map(rowToBatch);
  }

  async setBatchMessage(id: string, messageId: number, now: number): Promise<void> {
    await run(
      this.#core.pool,
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
    const changed = await run(
      this.#core.pool,
      `UPDATE giveaway_batches SET status = @to, stop_reason = @reason, updated_at = @now
       WHERE id = @id AND status = ANY(@from) AND COALESCE(stop_reason, '') <> 'restored'`,
      { id, from: [...from], to, now, reason: reason ?? null },
    );
    return changed === 1;
  }

  async nextBatchDraft(id: string, now: number): Promise<PurchaseIntent | undefined> {
    const [row] = await rows<IntentRow>(
      this.#core.pool,
      `SELECT * FROM purchase_intents
       WHERE batch_id = @id AND status = 'draft' AND expires_at > @now
       ORDER BY batch_position LIMIT 1`,
      { id, now },
    );
    return row === undefined ? undefined : rowToIntent(row);
  }

  async cancelBatchDrafts(id: string, now: number): Promise<number> {
    return this.#core.transaction(async (client) => {
      const cancelled = await rows<{ id: string; requester_user_id: number }>(
        client,
        `UPDATE purchase_intents
         SET status = 'cancelled', finished_at = @now, updated_at = @now
         WHERE batch_id = @id AND status = 'draft'
         RETURNING id, requester_user_id`,
        { id, now },
      );
      for (const intent of cancelled) {
        await this.#core.event(
          client,
          { id: intent.id, from: "draft", to: "cancelled", at: now },
          intent.requester_user_id,
        );
      }
      return cancelled.length;
    });
  }

  async batchCounts(id: string): Promise<BatchCounts> {
    return batchCountsOf(
      await rows<{ status: IntentStatus; n: number }>(
        this.#core.pool,
        "SELECT status, COUNT(*)::int AS n FROM purchase_intents WHERE batch_id = @id GROUP BY status",
        { id },
      ),
    );
  }

  async batchIntents(id: string): Promise<PurchaseIntent[]> {
    const found = await rows<IntentRow>(
      this.#core.pool,
      "SELECT * FROM purchase_intents WHERE batch_id = @id ORDER BY batch_position",
      { id },
    );
    return found.map(rowToIntent);
  }
}
