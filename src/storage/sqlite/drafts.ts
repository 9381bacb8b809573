/**
 * Drafts in SQLite: a summary's intent written before it is shown, its payment method, its
 * "balance before", its cancelling and expiry, and a queued confirmation given back as a draft
 * or closed unsent.
 */
import { InvalidDraftError, IntentNotFoundError } from "../../ledger/errors.js";
import { newIntentId } from "../../ledger/intent-id.js";
import type {
  BalanceSnapshot,
  NewIntent,
  PurchaseIntent,
  QueuedCloseReason,
} from "../../ledger/types.js";
import { isPremiumDuration, isStarsAmount } from "../../gifts/catalogue.js";
import { parseUsername } from "../../gifts/username.js";
import type { LedgerCore } from "./ledger-core.js";
import { type IntentRow, rowToIntent } from "./rows.js";

export class SqliteDrafts {
  readonly #core: LedgerCore;
  readonly #draftTtlMs: number;

  constructor(core: LedgerCore, draftTtlMs: number) {
    this.#core = core;
    this.#draftTtlMs = draftTtlMs;
  }

  /** Records a draft: the summary a person is shown, confirmable until it expires. */
  createDraft(request: NewIntent, now: number = this.#core.clock()): PurchaseIntent {
    const recipient = parseUsername(request.recipient);
    if (recipient === undefined) throw new InvalidDraftError("The recipient is not a username.");
    if (!Number.isSafeInteger(request.quantity) || request.quantity <= 0) {
      throw new InvalidDraftError("The quantity must be a positive whole number.");
    }
    // The service's own bounds (src/gifts/catalogue.ts): a draft it would refuse is not worth showing.
    if (request.kind === "stars" && !isStarsAmount(request.quantity)) {
      throw new InvalidDraftError("A stars amount is a whole number from 50 to 1,000,000.");
    }
    if (request.kind === "premium" && !isPremiumDuration(request.quantity)) {
      throw new InvalidDraftError("A premium duration is 3, 6 or 12 months.");
    }
    const id = newIntentId();
    const row = this.#core.db.transaction(() => {
      const inserted = this.#core.sql
        .prepare<Record<string, string | number | null>, IntentRow>(
          `INSERT INTO purchase_intents (id, kind, recipient, quantity, payment_method,
             requester_user_id, requester_chat_id, requester_chat_type, status, created_at,
             expires_at, balance_before, balance_before_at, updated_at)
           VALUES (@id, @kind, @recipient, @quantity, @paymentMethod, @userId, @chatId, @chatType,
             'draft', @now, @expiresAt, @balanceBefore, @balanceBeforeAt, @now)
           RETURNING *`,
        )
        .get({
          id,
          kind: request.kind,
          recipient,
          quantity: request.quantity,
          paymentMethod: request.paymentMethod,
          userId: request.requester.userId,
          chatId: request.requester.chatId,
          chatType: request.requester.chatType,
          now,
          expiresAt: now + this.#draftTtlMs,
          balanceBefore:
            request.balanceBefore === undefined ? null : JSON.stringify(request.balanceBefore),
          balanceBeforeAt:
            request.balanceBefore === undefined ? null : (request.balanceBeforeAt ?? null),
        });
      this.#core.event(id, null, "draft", now, request.requester.userId);
      return inserted;
    })();
    if (row === undefined) throw new IntentNotFoundError(id);
    return rowToIntent(row);
  }

  /** Switches a draft's payment method: only its requester, only while it is a live draft. */
  changePaymentMethod(
    id: string,
    userId: number,
    method: PurchaseIntent["paymentMethod"],
    now: number = this.#core.clock(),
  ): PurchaseIntent | undefined {
    const changed = this.#core.sql
      .prepare(
        `UPDATE purchase_intents SET payment_method = @method, updated_at = @now
         WHERE id = @id AND requester_user_id = @userId AND status = 'draft' AND expires_at > @now`,
      )
      .run({ id, userId, method, now }).changes;
    return changed === 1 ? this.#core.get(id) : undefined;
  }

  /**
   * Replaces a claimed intent's "balance before" with a newer read, just before its request
   * goes out. The draft's figure may be minutes old, and a purchase sent since would show in
   * reconciliation as a drop this intent did not cause. Changes nothing unless the intent is
   * `sending` and `readAt` is newer than the figure it holds (a draft's figure without a time
   * was read at or before the draft was made). True when it was replaced.
   */
  recordBalanceBefore(
    id: string,
    balance: BalanceSnapshot,
    readAt: number,
    now: number = this.#core.clock(),
  ): boolean {
    return (
      this.#core.sql
        .prepare(
          `UPDATE purchase_intents
           SET balance_before = @balance, balance_before_at = @readAt, updated_at = @now
           WHERE id = @id AND status = 'sending'
             AND (balance_before IS NULL
               OR (balance_before_at IS NULL AND @readAt >= created_at)
               OR @readAt > balance_before_at)`,
        )
        .run({ id, balance: JSON.stringify(balance), readAt, now }).changes === 1
    );
  }

  /**
   * Gives a queued confirmation back to its person as an open draft (queued → draft), when its
   * claim was refused for a reason that passes (paused, an unconfirmed purchase, a limit): the
   * summary gets its buttons back and may be confirmed again while it has not expired. False
   * when it is no longer queued.
   */
  reopenQueued(id: string, now: number = this.#core.clock()): boolean {
    return this.#core.durably((): boolean => {
      const current = this.#core.get(id);
      if (current?.status !== "queued") return false;
      this.#core.move(current, "draft", now, {}, null);
      return true;
    });
  }

  /**
   * Closes a queued confirmation that will not be sent: queued → expired when it expired while
   * it waited, queued → rejected with `not sent: <reason>` otherwise (its claim was refused:
   * paused, an unconfirmed purchase, a limit; or the bot's own checks: access, the recipient's
   * premium). Nothing left, so nothing was spent. Undefined when the intent is no longer queued
   * (another process claimed or closed it).
   */
  closeQueued(
    id: string,
    reason: QueuedCloseReason,
    now: number = this.#core.clock(),
  ): PurchaseIntent | undefined {
    return this.#core.durably((): PurchaseIntent | undefined => {
      const current = this.#core.get(id);
      if (current?.status !== "queued") return undefined;
      if (reason === "expired" || current.expiresAt <= now) {
        return this.#core.move(current, "expired", now, { finishedAt: now }, null);
      }
      const detail = `not sent: ${reason}`;
      return this.#core.move(
        current,
        "rejected",
        now,
        { finishedAt: now, response: { notSent: detail, reason }, outcomeDetail: detail },
        null,
      );
    });
  }

  /** Cancels a draft; only its requester. False when it is not (or no longer) their draft. */
  cancel(id: string, userId: number, now: number = this.#core.clock()): boolean {
    return this.#core.db
      .transaction(() => {
        const current = this.#core.get(id);
        if (current === undefined || current.requester.userId !== userId) return false;
        if (current.status !== "draft") return false;
        this.#core.move(current, "cancelled", now, { finishedAt: now }, userId);
        return true;
      })
      .immediate();
  }

  /** Marks every draft past its expiry as expired; returns how many. */
  expireDrafts(now: number = this.#core.clock()): number {
    return this.#core.db
      .transaction(() => {
        const rows = this.#core.sql
          .prepare<[number], { id: string }>(
            "SELECT id FROM purchase_intents WHERE status = 'draft' AND expires_at <= ?",
          )
          .all(now);
        for (const { id } of rows) {
          this.#core.move(this.#core.mustGet(id), "expired", now, { finishedAt: now }, null);
        }
        return rows.length;
      })
      .immediate();
  }
}
