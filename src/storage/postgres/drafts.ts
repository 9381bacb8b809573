/**
 * Drafts in PostgreSQL, as in SQLite (src/storage/sqlite/drafts.ts): a summary's intent written
 * before it is shown, its payment method, its "balance before", its cancelling and expiry, and
 * a queued confirmation given back as a draft or closed unsent. None of these moves is one a
 * claim's rules read (they leave the draft and queued statuses for ones that spend nothing), so
 * they do not pass the ledger gate: a claim of the same intent and these meet on its row lock.
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
import { type IntentRow, rowToIntent } from "../sqlite/rows.js";
import type { PostgresLedgerCore } from "./ledger-core.js";
import { rows, run } from "./sql.js";

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
  if (request.kind === "stars" && !isStarsAmount(request.quantity)) {
    throw new InvalidDraftError("A stars amount is a whole number from 50 to 1,000,000.");
  }
  if (request.kind === "premium" && !isPremiumDuration(request.quantity)) {
    throw new InvalidDraftError("A premium duration is 3, 6 or 12 months.");
  }
  return recipient;
}

export class PostgresDrafts {
  readonly #core: PostgresLedgerCore;
  readonly #draftTtlMs: number;

  constructor(core: PostgresLedgerCore, draftTtlMs: number) {
    this.#core = core;
    this.#draftTtlMs = draftTtlMs;
  }

  /** Records a draft: the summary a person is shown, confirmable until it expires. */
  async createDraft(request: NewIntent, now: number = this.#core.clock()): Promise<PurchaseIntent> {
    const recipient = checkedRecipient(request);
    const id = newIntentId();
    const row = await this.#core.transaction(async (client) => {
      const [inserted] = await rows<IntentRow>(client, INSERT_SQL, {
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
      await this.#core.event(
        client,
        { id, from: null, to: "draft", at: now },
        request.requester.userId,
      );
      return inserted;
    });
    if (row === undefined) throw new IntentNotFoundError(id);
    return rowToIntent(row);
  }

  /** Switches a draft's payment method: only its requester, only while it is a live draft. */
  async changePaymentMethod(
    id: string,
    userId: number,
    method: PurchaseIntent["paymentMethod"],
    now: number = this.#core.clock(),
  ): Promise<PurchaseIntent | undefined> {
    const [row] = await rows<IntentRow>(
      this.#core.pool,
      `UPDATE purchase_intents SET payment_method = @method, updated_at = @now
       WHERE id = @id AND requester_user_id = @userId AND status = 'draft' AND expires_at > @now
       RETURNING *`,
      { id, userId, method, now },
    );
    return row === undefined ? undefined : rowToIntent(row);
  }

  /** As SQLite's: a newer read replaces a `sending` intent's "balance before"; true if it did. */
  async recordBalanceBefore(
    id: string,
    balance: BalanceSnapshot,
    readAt: number,
    now: number = this.#core.clock(),
  ): Promise<boolean> {
    const changed = await run(
      this.#core.pool,
      `UPDATE purchase_intents
       SET balance_before = @balance, balance_before_at = @readAt, updated_at = @now
       WHERE id = @id AND status = 'sending'
         AND (balance_before IS NULL
           OR (balance_before_at IS NULL AND @readAt >= created_at)
           OR @readAt > balance_before_at)`,
      { id, balance: JSON.stringify(balance), readAt, now },
    );
    return changed === 1;
  }

  /** queued → draft (its claim's refusal passes); false when it is no longer queued. */
  reopenQueued(id: string, now: number = this.#core.clock()): Promise<boolean> {
    return this.#core.transaction(async (client) => {
      const current = await this.#core.lockIfAny(id, client);
      if (current?.status !== "queued") return false;
      await this.#core.move(client, current, "draft", now, {}, null);
      return true;
    });
  }

  /**
   * Closes a queued confirmation that will not be sent: queued → expired when it expired while
   * it waited, queued → rejected with `not sent: <reason>` otherwise. Undefined when it is no
   * longer queued.
   */
  closeQueued(
    id: string,
    reason: QueuedCloseReason,
    now: number = this.#core.clock(),
  ): Promise<PurchaseIntent | undefined> {
    return this.#core.transaction(async (client) => {
      const current = await this.#core.lockIfAny(id, client);
      if (current?.status !== "queued") return undefined;
      if (reason === "expired" || current.expiresAt <= now) {
        return this.#core.move(client, current, "expired", now, { finishedAt: now }, null);
      }
      const detail = `not sent: ${reason}`;
      return this.#core.move(
        client,
        current,
        "rejected",
        now,
        { finishedAt: now, response: { notSent: detail, reason }, outcomeDetail: detail },
        null,
      );
    });
  }

  /** Cancels a draft; only its requester. False when it is not (or no longer) their draft. */
  cancel(id: string, userId: number, now: number = this.#core.clock()): Promise<boolean> {
    return this.#core.transaction(async (client) => {
      const current = await this.#core.lockIfAny(id, client);
      if (current === undefined || current.requester.userId !== userId) return false;
      if (current.status !== "draft") return false;
      await this.#core.move(client, current, "cancelled", now, { finishedAt: now }, userId);
      return true;
    });
  }

  /** Marks every draft past its expiry as expired; returns how many. */
  expireDrafts(now: number = this.#core.clock()): Promise<number> {
    return this.#core.transaction(async (client) => {
      const due = await rows<{ id: string }>(
        client,
        `SELECT id FROM purchase_intents WHERE status = 'draft' AND expires_at <= @now
         ORDER BY seq FOR UPDATE`,
        { now },
      );
      for (const { id } of due) {
        const current = await this.#core.lock(id, client);
        await this.#core.move(client, current, "expired", now, { finishedAt: now }, null);
      }
      return due.length;
    });
  }
}
