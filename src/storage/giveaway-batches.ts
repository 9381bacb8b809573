/**
 * Giveaway batches (see {@link GiveawayBatches}): the batch row, and its drafts written with it
 * in one transaction. Sending them is the ledger's ordinary claim. Cancelling the unsent drafts
 * locks them first, in one transaction, so a claim of one of them either happened before it (the
 * draft is no longer one) or waits for it and finds it cancelled.
 */
import { randomBytes } from "node:crypto";
import {
  BATCH_DRAFT_TTL_MS,
  type BatchCounts,
  type BatchStatus,
  type BatchStopReason,
  type GiveawayBatch,
  type GiveawayBatches,
  type NewBatch,
  tallyBatch,
} from "../ledger/giveaways.js";
import { checkedRecipients, newIntentId } from "../ledger/new-intents.js";
import type { IntentStatus, PurchaseIntent } from "../ledger/types.js";
import type { Database, Params } from "./db/port.js";
import { LedgerCore } from "./ledger/core.js";
import { camelRow, type IntentRow, rowToIntent } from "./ledger/rows.js";

const INSERT_BATCH_SQL = `INSERT INTO giveaway_batches (id, kind, quantity, payment_method,
    admin_id, chat_id, status, created_at, updated_at)
  VALUES (@id, @kind, @quantity, @method, @adminId, @chatId, 'running', @now, @now)
  RETURNING *`;

export class StoredGiveawayBatches implements GiveawayBatches {
  readonly #core: LedgerCore;

  constructor(private readonly db: Database) {
    this.#core = new LedgerCore(db, Date.now);
  }

  async createBatch(batch: NewBatch, now: number): Promise<GiveawayBatch> {
    const recipients = checkedRecipients(batch.recipients);
    // A batch id: random, as it travels in callback data.
    const id = randomBytes(9).toString("base64url");
    const { kind, quantity, paymentMethod, adminId, chatId, balanceBefore } = batch;
    const row = await this.db.transaction(async (tx) => {
      const fields = { id, kind, quantity, method: paymentMethod, adminId, chatId, now };
      const [inserted] = await tx.rows<object>(INSERT_BATCH_SQL, fields);
      for (const [position, recipient] of recipients.entries()) {
        const draft = {
          ...{ id: newIntentId(), kind, recipient, quantity, paymentMethod, balanceBefore },
          requester: { userId: adminId, chatId, chatType: "private" as const },
          expiresAt: now + BATCH_DRAFT_TTL_MS,
          batch: { id, position },
        };
        await this.#core.insertDraft(tx, draft, now);
      }
      return inserted;
    });
    if (row === undefined) throw new Error("the giveaway batch was not written");
    return camelRow<GiveawayBatch>(row);
  }

  async getBatch(id: string): Promise<GiveawayBatch | undefined> {
    return (await this.#batches("WHERE id = @id", { id }))[0];
  }

  runningBatches(): Promise<GiveawayBatch[]> {
    return this.#batches("WHERE status = 'running' ORDER BY created_at, id");
  }

  batchesLike(
    kind: GiveawayBatch["kind"],
    quantity: number,
    since: number,
  ): Promise<GiveawayBatch[]> {
    return this.#batches(
      `WHERE kind = @kind AND quantity = @quantity AND created_at >= @since
       ORDER BY created_at DESC, id`,
      { kind, quantity, since },
    );
  }

  async #batches(where: string, params?: Params): Promise<GiveawayBatch[]> {
    const found = await this.db.rows<object>(`SELECT * FROM giveaway_batches ${where}`, params);
    return found.map((row) => camelRow<GiveawayBatch>(row));
  }

  async setBatchMessage(id: string, messageId: number, now: number): Promise<void> {
    await this.db.run(
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
    const changed = await this.db.run(
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
    const where = "batch_id = @id AND status = 'draft' AND expires_at > @now";
    return (await this.#intents(`${where} ORDER BY batch_position LIMIT 1`, { id, now }))[0];
  }

  batchIntents(id: string): Promise<PurchaseIntent[]> {
    return this.#intents("batch_id = @id ORDER BY batch_position", { id });
  }

  async #intents(where: string, params: Params): Promise<PurchaseIntent[]> {
    const sql = `SELECT * FROM purchase_intents WHERE ${where}`;
    return (await this.db.rows<IntentRow>(sql, params)).map(rowToIntent);
  }

  /** draft → cancelled for every draft of the batch (the transition table allows it). */
  async cancelBatchDrafts(id: string, now: number): Promise<number> {
    const select = {
      where: "batch_id = @id AND status = 'draft' ORDER BY batch_position",
      params: { id },
    };
    const cancelled = await this.db.transaction((tx) =>
      this.#core.moveAll(tx, select, "cancelled", now, { finishedAt: now }, "requester"),
    );
    return cancelled.length;
  }

  async batchCounts(id: string): Promise<BatchCounts> {
    return tallyBatch(
      await this.db.rows<{ status: IntentStatus; n: number }>(
        "SELECT status, COUNT(*) AS n FROM purchase_intents WHERE batch_id = @id GROUP BY status",
        { id },
      ),
    );
  }
}
