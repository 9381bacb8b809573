/**
 * Drafts: a summary's intent written before it is shown, its payment method, its "balance
 * before", its cancelling and expiry, and a queued confirmation given back as a draft or closed
 * unsent. None of these moves is one a claim's rules read (they leave the draft and queued
 * statuses for ones that spend nothing), so they do not pass the ledger gate: a claim of the same
 * intent and these meet on its row (PostgreSQL's row lock, SQLite's one writer).
 */
import { checkedRecipient, newIntentId } from "../../ledger/new-intents.js";
import type { NewIntent, PurchaseIntent, PurchaseLedger } from "../../ledger/types.js";
import type { LedgerCore } from "./core.js";
import { type IntentRow, rowToIntent } from "./rows.js";

/** The ledger's moves of drafts (typed by PurchaseLedger's members). */
export class LedgerDrafts {
  constructor(
    private readonly core: LedgerCore,
    private readonly draftTtlMs: number,
  ) {}

  createDraft = (request: NewIntent, now = this.core.clock()): Promise<PurchaseIntent> => {
    const draft = {
      ...request,
      id: newIntentId(),
      recipient: checkedRecipient(request),
      expiresAt: now + this.draftTtlMs,
    };
    return this.core.db.transaction((tx) => this.core.insertDraft(tx, draft, now));
  };

  /** Only its requester, only while it is a live draft. */
  changePaymentMethod: PurchaseLedger["changePaymentMethod"] = async (
    id,
    userId,
    method,
    now = this.core.clock(),
  ) => {
    const [row] = await this.core.db.rows<IntentRow>(
      `UPDATE purchase_intents SET payment_method = @method, updated_at = @now
       WHERE id = @id AND requester_user_id = @userId AND status = 'draft' AND expires_at > @now
       RETURNING *`,
      { id, userId, method, now },
    );
    return row === undefined ? undefined : rowToIntent(row);
  };

  /**
   * Replaces a claimed intent's "balance before" with a newer read, just before its request
   * goes out. The draft's figure may be minutes old, and a purchase sent since would show in
   * reconciliation as a drop this intent did not cause. Changes nothing unless the intent is
   * `sending` and `readAt` is newer than the figure it holds (a draft's figure without a time
   * was read at or before the draft was made).
   */
  recordBalanceBefore: PurchaseLedger["recordBalanceBefore"] = async (
    id,
    balance,
    readAt,
    now = this.core.clock(),
  ) => {
    const changed = await this.core.db.run(
      `UPDATE purchase_intents
       SET balance_before = @balance, balance_before_at = @readAt, updated_at = @now
       WHERE id = @id AND status = 'sending'
         AND (balance_before IS NULL
           OR (balance_before_at IS NULL AND @readAt >= created_at)
           OR @readAt > balance_before_at)`,
      { id, balance: JSON.stringify(balance), readAt, now },
    );
    return changed === 1;
  };

  /**
   * Gives a queued confirmation back to its person as an open draft (queued → draft), when its
   * claim was refused for a reason that passes (paused, an unconfirmed purchase, a limit).
   */
  reopenQueued = async (id: string, now = this.core.clock()): Promise<boolean> => {
    const select = { where: "id = @id AND status = 'queued'", params: { id } };
    const reopened = await this.core.db.transaction(
      (tx) => this.core.moveAll(tx, select, "draft", now, {}, null),
      { durable: true },
    );
    return reopened.length === 1;
  };

  /**
   * Closes a queued confirmation that will not be sent: queued → expired when it expired while
   * it waited, queued → rejected with `not sent: <reason>` otherwise (its claim was refused, or
   * the bot's own checks). Nothing left, so nothing was spent.
   */
  closeQueued: PurchaseLedger["closeQueued"] = (id, reason, now = this.core.clock()) => {
    const core = this.core;
    return core.db.transaction(
      async (tx) => {
        const current = await core.get(id, tx, true);
        if (current?.status !== "queued") return undefined;
        if (reason === "expired" || current.expiresAt <= now) {
          return core.move(tx, current, "expired", now, { finishedAt: now }, null);
        }
        const detail = `not sent: ${reason}`;
        const response = { notSent: detail, reason };
        const patch = { finishedAt: now, response, outcomeDetail: detail };
        return core.move(tx, current, "rejected", now, patch, null);
      },
      { durable: true },
    );
  };

  /** Only its requester; false when it is not (or no longer) their draft. */
  cancel = async (id: string, userId: number, now = this.core.clock()): Promise<boolean> => {
    const where = "id = @id AND requester_user_id = @userId AND status = 'draft'";
    const fields = { finishedAt: now };
    const cancelled = await this.core.db.transaction((tx) =>
      this.core.moveAll(tx, { where, params: { id, userId } }, "cancelled", now, fields, userId),
    );
    return cancelled.length === 1;
  };

  expireDrafts = async (now = this.core.clock()): Promise<number> => {
    const where = `status = 'draft' AND expires_at <= @now ORDER BY ${this.core.db.dialect.seq}`;
    const expired = await this.core.db.transaction((tx) =>
      this.core.moveAll(tx, { where, params: { now } }, "expired", now, { finishedAt: now }, null),
    );
    return expired.length;
  };
}
