/**
 * Drafts: a summary's intent written before it is shown, its payment method, its "balance
 * before", its cancelling and expiry, and a queued confirmation given back as a draft or closed
 * unsent. None of these moves is one a claim's rules read (they leave the draft and queued
 * statuses for ones that spend nothing), so they do not pass the ledger gate: a claim of the same
 * intent and these meet on its row (PostgreSQL's row lock, SQLite's one writer).
 */
import { isPremiumDuration, isStarsAmount } from "../../gifts/catalogue.js";
import { parseUsername } from "../../gifts/username.js";
import { InvalidDraftError, IntentNotFoundError } from "../../ledger/errors.js";
import { newIntentId } from "../../ledger/intent-id.js";
import type {
  BalanceSnapshot,
  NewIntent,
  PurchaseIntent,
  PurchaseLedger,
  QueuedCloseReason,
} from "../../ledger/types.js";
import type { LedgerCore } from "./core.js";
import { type IntentRow, rowToIntent } from "./rows.js";

type DraftMoves = Pick<
  PurchaseLedger,
  | "createDraft"
  | "changePaymentMethod"
  | "recordBalanceBefore"
  | "reopenQueued"
  | "closeQueued"
  | "cancel"
  | "expireDrafts"
>;

const INSERT_SQL = `INSERT INTO purchase_intents (id, kind, recipient, quantity, payment_method,
    requester_user_id, requester_chat_id, requester_chat_type, status, created_at,
    expires_at, balance_before, balance_before_at, updated_at)
  VALUES (@id, @kind, @recipient, @quantity, @paymentMethod, @userId, @chatId, @chatType,
    'draft', @now, @expiresAt, @balanceBefore, @balanceBeforeAt, @now)
  RETURNING *`;

/** Throws {@link InvalidDraftError} for a draft the service would refuse; the clean recipient. */
function checkedRecipient(request: NewIntent): string {
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
  return recipient;
}

export class LedgerDrafts implements DraftMoves {
  readonly #core: LedgerCore;
  readonly #draftTtlMs: number;

  constructor(core: LedgerCore, draftTtlMs: number) {
    this.#core = core;
    this.#draftTtlMs = draftTtlMs;
  }

  createDraft = async (request: NewIntent, now = this.#core.clock()): Promise<PurchaseIntent> => {
    const recipient = checkedRecipient(request);
    const id = newIntentId();
    const row = await this.#core.db.transaction(async (tx) => {
      const [inserted] = await tx.rows<IntentRow>(INSERT_SQL, {
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
      const actor = request.requester.userId;
      await this.#core.event(tx, { id, from: null, to: "draft", at: now }, actor);
      return inserted;
    });
    if (row === undefined) throw new IntentNotFoundError(id);
    return rowToIntent(row);
  };

  /** Only its requester, only while it is a live draft. */
  changePaymentMethod = async (
    id: string,
    userId: number,
    method: PurchaseIntent["paymentMethod"],
    now = this.#core.clock(),
  ): Promise<PurchaseIntent | undefined> => {
    const [row] = await this.#core.db.rows<IntentRow>(
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
  recordBalanceBefore = async (
    id: string,
    balance: BalanceSnapshot,
    readAt: number,
    now = this.#core.clock(),
  ): Promise<boolean> => {
    const changed = await this.#core.db.run(
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
  reopenQueued = (id: string, now = this.#core.clock()): Promise<boolean> => {
    const core = this.#core;
    return core.db.transaction(
      async (tx) => {
        const current = await core.lockIfAny(id, tx);
        if (current?.status !== "queued") return false;
        await core.move(tx, current, "draft", now, {}, null);
        return true;
      },
      { durable: true },
    );
  };

  /**
   * Closes a queued confirmation that will not be sent: queued → expired when it expired while
   * it waited, queued → rejected with `not sent: <reason>` otherwise (its claim was refused, or
   * the bot's own checks). Nothing left, so nothing was spent.
   */
  closeQueued = (
    id: string,
    reason: QueuedCloseReason,
    now = this.#core.clock(),
  ): Promise<PurchaseIntent | undefined> => {
    const core = this.#core;
    return core.db.transaction(
      async (tx) => {
        const current = await core.lockIfAny(id, tx);
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
  cancel = (id: string, userId: number, now = this.#core.clock()): Promise<boolean> => {
    const core = this.#core;
    return core.db.transaction(async (tx) => {
      const current = await core.lockIfAny(id, tx);
      if (current === undefined || current.requester.userId !== userId) return false;
      if (current.status !== "draft") return false;
      await core.move(tx, current, "cancelled", now, { finishedAt: now }, userId);
      return true;
    });
  };

  expireDrafts = (now = this.#core.clock()): Promise<number> => {
    const core = this.#core;
    const { seq, forUpdate } = core.db.dialect;
    return core.db.transaction(async (tx) => {
      const due = await tx.rows<{ id: string }>(
        `SELECT id FROM purchase_intents WHERE status = 'draft' AND expires_at <= @now
         ORDER BY ${seq}${forUpdate}`,
        { now },
      );
      for (const { id } of due) {
        await core.move(tx, await core.lock(id, tx), "expired", now, { finishedAt: now }, null);
      }
      return due.length;
    });
  };
}
