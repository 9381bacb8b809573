/**
 * What the ledger's pieces share over the database port: reading an intent (locked, inside a
 * transaction that goes on to move it), writing a draft, the one status move every piece makes
 * after the claim (checked against the transition table, compare-and-set on the status read)
 * and its history row, and the ledger's clock.
 */
import { IntentNotFoundError } from "../../ledger/errors.js";
import type { MoveFields } from "../../ledger/outcomes.js";
import { assertMove } from "../../ledger/transitions.js";
import type { IntentStatus, NewIntent, PurchaseIntent } from "../../ledger/types.js";
import type { Database, Params, Statements } from "../db/port.js";
import { type IntentRow, rowToIntent } from "./rows.js";

/** A draft to write: a person's, or one recipient's of a giveaway batch (in the admin's order). */
export interface DraftToWrite extends NewIntent {
  id: string;
  expiresAt: number;
  batch?: { id: string; position: number };
}

const INSERT_SQL = `INSERT INTO purchase_intents (id, kind, recipient, quantity, payment_method,
    requester_user_id, requester_chat_id, requester_chat_type, status, created_at, expires_at,
    balance_before, balance_before_at, updated_at, batch_id, batch_position, paid_via,
    recipient_user_id)
  VALUES (@id, @kind, @recipient, @quantity, @paymentMethod, @userId, @chatId, @chatType,
    'draft', @now, @expiresAt, @balanceBefore, @balanceBeforeAt, @now, @batchId, @position,
    @paidVia, @recipientUserId)
  RETURNING *`;

const MOVE_SQL = `UPDATE purchase_intents SET status = @to, updated_at = @now,
    finished_at = COALESCE(@finishedAt, finished_at),
    response = COALESCE(@response, response),
    tx_hash = COALESCE(@txHash, tx_hash),
    outcome_detail = COALESCE(@outcomeDetail, outcome_detail),
    resolved_by = COALESCE(@resolvedBy, resolved_by),
    resolved_at = COALESCE(@resolvedAt, resolved_at)
  WHERE id = @id AND status = @from
  RETURNING *`;

const EVENT_SQL = `INSERT INTO purchase_intent_events (intent_id, from_status, to_status, at, actor)
  VALUES (@id, @from, @to, @at, @actor)`;

export class LedgerCore {
  constructor(
    readonly db: Database,
    /** Milliseconds since the epoch; tests move time without sleeping. */
    readonly clock: () => number,
  ) {}

  /**
   * One intent by id, on the database or inside a transaction. `lock`: its row locked until the
   * transaction ends (the dialect's row lock), so a move judged on what was read cannot be
   * overtaken by another connection's.
   */
  async get(
    id: string,
    on: Statements = this.db,
    lock = false,
  ): Promise<PurchaseIntent | undefined> {
    const sql = `SELECT * FROM purchase_intents WHERE id = @id${lock ? this.db.dialect.forUpdate : ""}`;
    const [row] = await on.rows<IntentRow>(sql, { id });
    return row === undefined ? undefined : rowToIntent(row);
  }

  async mustGet(id: string, on: Statements = this.db, lock = false): Promise<PurchaseIntent> {
    const intent = await this.get(id, on, lock);
    if (intent === undefined) throw new IntentNotFoundError(id);
    return intent;
  }

  /** Writes a draft (its recipient checked already) and its first history row. */
  async insertDraft(tx: Statements, draft: DraftToWrite, now: number): Promise<PurchaseIntent> {
    const { requester, balanceBefore } = draft;
    const [row] = await tx.rows<IntentRow>(INSERT_SQL, {
      ...{ id: draft.id, kind: draft.kind, recipient: draft.recipient, quantity: draft.quantity },
      ...{ paymentMethod: draft.paymentMethod, now, expiresAt: draft.expiresAt },
      ...{ userId: requester.userId, chatId: requester.chatId, chatType: requester.chatType },
      balanceBefore: balanceBefore === undefined ? null : JSON.stringify(balanceBefore),
      balanceBeforeAt: balanceBefore === undefined ? null : (draft.balanceBeforeAt ?? null),
      batchId: draft.batch?.id ?? null,
      position: draft.batch?.position ?? null,
      paidVia: draft.paidVia ?? "service",
      recipientUserId: draft.recipientUserId ?? null,
    });
    if (row === undefined) throw new IntentNotFoundError(draft.id);
    await this.event(tx, { id: draft.id, from: null, to: "draft", at: now }, requester.userId);
    return rowToIntent(row);
  }

  /** Writes one status change to the intent's history. */
  async event(
    on: Statements,
    change: { id: string; from: IntentStatus | null; to: IntentStatus; at: number },
    actor: number | null,
  ): Promise<void> {
    await on.run(EVENT_SQL, { ...change, actor });
  }

  /**
   * The one place a status changes after the claim. It refuses moves the lifecycle does not
   * allow, and compares-and-sets on the status it read, so a concurrent move is never
   * overwritten (PostgreSQL's UPDATE that waited for another transaction's row lock re-checks
   * its WHERE on the row as committed). Callers run it inside a transaction.
   */
  async move(
    tx: Statements,
    current: PurchaseIntent,
    to: IntentStatus,
    now: number,
    fields: MoveFields,
    actor: number | null,
  ): Promise<PurchaseIntent> {
    assertMove(current.id, current.status, to);
    const [moved] = await tx.rows<IntentRow>(MOVE_SQL, {
      id: current.id,
      from: current.status,
      to,
      now,
      finishedAt: fields.finishedAt ?? null,
      response: fields.response === undefined ? null : JSON.stringify(fields.response),
      txHash: fields.txHash ?? null,
      outcomeDetail: fields.outcomeDetail ?? null,
      resolvedBy: fields.resolvedBy ?? null,
      resolvedAt: fields.resolvedAt ?? null,
    });
    if (moved === undefined) {
      // The status changed under us (another connection): judge the move from the new status.
      const fresh = await this.mustGet(current.id, tx);
      assertMove(fresh.id, fresh.status, to);
      return this.move(tx, fresh, to, now, fields, actor);
    }
    await this.event(tx, { id: current.id, from: current.status, to, at: now }, actor);
    return rowToIntent(moved);
  }

  /**
   * Moves every intent `where` selects (its rows locked; `where` ends with its ORDER BY), one
   * after another as {@link move} does; answers them as moved. `actor` "requester": each
   * intent's own requester.
   */
  async moveAll(
    tx: Statements,
    select: { where: string; params?: Params },
    to: IntentStatus,
    now: number,
    fields: MoveFields,
    actor: number | null | "requester",
  ): Promise<PurchaseIntent[]> {
    const sql = `SELECT * FROM purchase_intents WHERE ${select.where}${this.db.dialect.forUpdate}`;
    const moved: PurchaseIntent[] = [];
    for (const row of await tx.rows<IntentRow>(sql, select.params)) {
      const intent = rowToIntent(row);
      const by = actor === "requester" ? intent.requester.userId : actor;
      moved.push(await this.move(tx, intent, to, now, fields, by));
    }
    return moved;
  }
}
