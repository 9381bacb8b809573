/**
 * The core the PostgreSQL ledger's pieces share: reading an intent, the one status move every
 * piece makes after the claim (checked against the transition table, compare-and-set on the
 * status read), its history row, and the ledger gate (see ./ledger.ts for why it exists).
 */
import type pg from "pg";
import { IntentNotFoundError } from "../../ledger/errors.js";
import { assertMove } from "../../ledger/transitions.js";
import type { IntentStatus, PurchaseIntent } from "../../ledger/types.js";
import { type IntentRow, rowToIntent } from "../sqlite/rows.js";
import { inTransaction, type Queryable, rows } from "./sql.js";

/**
 * The ledger gate's advisory lock key: any fixed number no other program on the database uses
 * (the migrations' lock is 7_460_215_001).
 */
const LEDGER_GATE_KEY = 7_460_215_002;

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

export class PostgresLedgerCore {
  readonly pool: pg.Pool;
  /** Milliseconds since the epoch; tests move time without sleeping. */
  readonly clock: () => number;

  constructor(pool: pg.Pool, clock: () => number) {
    this.pool = pool;
    this.clock = clock;
  }

  /** One intent by id. */
  async get(id: string, on: Queryable = this.pool): Promise<PurchaseIntent | undefined> {
    const [row] = await rows<IntentRow>(on, "SELECT * FROM purchase_intents WHERE id = @id", {
      id,
    });
    return row === undefined ? undefined : rowToIntent(row);
  }

  /**
   * One intent by id, its row locked until the transaction ends: a move judged on what was
   * read cannot be overtaken by another connection's (which waits for this one to commit).
   */
  async lock(id: string, client: pg.PoolClient): Promise<PurchaseIntent> {
    const intent = await this.lockIfAny(id, client);
    if (intent === undefined) throw new IntentNotFoundError(id);
    return intent;
  }

  /** As {@link lock}, undefined when no intent has this id. */
  async lockIfAny(id: string, client: pg.PoolClient): Promise<PurchaseIntent | undefined> {
    const [row] = await rows<IntentRow>(
      client,
      "SELECT * FROM purchase_intents WHERE id = @id FOR UPDATE",
      { id },
    );
    return row === undefined ? undefined : rowToIntent(row);
  }

  async mustGet(id: string, on: Queryable = this.pool): Promise<PurchaseIntent> {
    const intent = await this.get(id, on);
    if (intent === undefined) throw new IntentNotFoundError(id);
    return intent;
  }

  /** Writes one status change to the intent's history. */
  async event(
    on: Queryable,
    change: { id: string; from: IntentStatus | null; to: IntentStatus; at: number },
    actor: number | null,
  ): Promise<void> {
    await rows(
      on,
      `INSERT INTO purchase_intent_events (intent_id, from_status, to_status, at, actor)
       VALUES (@id, @from, @to, @at, @actor)`,
      { ...change, actor },
    );
  }

  /**
   * The one place a status changes after the claim. It refuses moves the lifecycle does not
   * allow, and compares-and-sets on the status it read: under READ COMMITTED an UPDATE that
   * waited for another transaction's row lock re-checks its WHERE on the row as committed, so a
   * concurrent move is never overwritten. Callers run it inside a transaction.
   */
  async move(
    on: pg.PoolClient,
    current: PurchaseIntent,
    to: IntentStatus,
    now: number,
    patch: MovePatch,
    actor: number | null,
  ): Promise<PurchaseIntent> {
    assertMove(current.id, current.status, to);
    const [moved] = await rows<IntentRow>(on, MOVE_SQL, {
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
      const fresh = await this.mustGet(current.id, on);
      assertMove(fresh.id, fresh.status, to);
      return this.move(on, fresh, to, now, patch, actor);
    }
    await this.event(on, { id: current.id, from: current.status, to, at: now }, actor);
    return rowToIntent(moved);
  }

  /** One transaction on one client. */
  transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, work);
  }

  /**
   * One transaction that first takes the ledger gate (a transaction-level advisory lock, let go
   * at commit or rollback): the claim and every write whose effect a claim's rules read (the
   * pause switch, a move out of `sending` or to `unconfirmed`, a settlement) pass it one at a
   * time, on every connection of every replica. Each statement after the lock sees everything
   * committed before it was granted (READ COMMITTED takes a new snapshot per statement).
   */
  gated<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, async (client) => {
      await client.query("SELECT pg_advisory_xact_lock($1)", [LEDGER_GATE_KEY]);
      return work(client);
    });
  }
}
