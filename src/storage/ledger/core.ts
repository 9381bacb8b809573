/**
 * What the ledger's pieces share over the database port: reading an intent (locked, inside a
 * transaction that goes on to move it), the one status move every piece makes after the claim
 * (checked against the transition table, compare-and-set on the status read) and its history
 * row, and the ledger's clock.
 */
import { IntentNotFoundError } from "../../ledger/errors.js";
import { assertMove } from "../../ledger/transitions.js";
import type { IntentStatus, PurchaseIntent } from "../../ledger/types.js";
import type { Database, Statements } from "../db/port.js";
import { type IntentRow, rowToIntent } from "./rows.js";

/** Fields an outcome or a reconciliation writes alongside a status move. */
export interface MovePatch {
  finishedAt?: number;
  response?: unknown;
  txHash?: string | undefined;
  outcomeDetail?: string | undefined;
  resolvedBy?: number;
  resolvedAt?: number;
}

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
  readonly db: Database;
  /** Milliseconds since the epoch; tests move time without sleeping. */
  readonly clock: () => number;
  readonly #lockSql: string;

  constructor(db: Database, clock: () => number) {
    this.db = db;
    this.clock = clock;
    this.#lockSql = `SELECT * FROM purchase_intents WHERE id = @id${db.dialect.forUpdate}`;
  }

  /** One intent by id, on the database or inside a transaction. */
  async get(id: string, on: Statements = this.db): Promise<PurchaseIntent | undefined> {
    const [row] = await on.rows<IntentRow>("SELECT * FROM purchase_intents WHERE id = @id", { id });
    return row === undefined ? undefined : rowToIntent(row);
  }

  async mustGet(id: string, on: Statements = this.db): Promise<PurchaseIntent> {
    const intent = await this.get(id, on);
    if (intent === undefined) throw new IntentNotFoundError(id);
    return intent;
  }

  /**
   * One intent by id, its row locked until the transaction ends (the dialect's row lock): a
   * move judged on what was read cannot be overtaken by another connection's.
   */
  async lockIfAny(id: string, tx: Statements): Promise<PurchaseIntent | undefined> {
    const [row] = await tx.rows<IntentRow>(this.#lockSql, { id });
    return row === undefined ? undefined : rowToIntent(row);
  }

  async lock(id: string, tx: Statements): Promise<PurchaseIntent> {
    const intent = await this.lockIfAny(id, tx);
    if (intent === undefined) throw new IntentNotFoundError(id);
    return intent;
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
    patch: MovePatch,
    actor: number | null,
  ): Promise<PurchaseIntent> {
    assertMove(current.id, current.status, to);
    const [moved] = await tx.rows<IntentRow>(MOVE_SQL, {
      id: current.id,
      from: current.status,
      to,
      now,
      finishedAt: patch.finishedAt ?? null,
      response: patch.response === undefined ? null : JSON.stringify(patch.response),
      txHash: patch.txHash ?? null,
      outcomeDetail: patch.outcomeDetail ?? null,
      resolvedBy: patch.resolvedBy ?? null,
      resolvedAt: patch.resolvedAt ?? null,
    });
    if (moved === undefined) {
      // The status changed under us (another connection): judge the move from the new status.
      const fresh = await this.mustGet(current.id, tx);
      assertMove(fresh.id, fresh.status, to);
      return this.move(tx, fresh, to, now, patch, actor);
    }
    await this.event(tx, { id: current.id, from: current.status, to, at: now }, actor);
    return rowToIntent(moved);
  }
}
