/**
 * The core the SQLite ledger's pieces share over one connection: reading an intent, the one
 * status move every piece makes after the claim (checked against the transition table,
 * compare-and-set on the status read), its history row, and the durable transaction that
 * money's writes commit in.
 */
import type { Statement } from "better-sqlite3";
import { IntentNotFoundError } from "../../ledger/errors.js";
import { assertMove } from "../../ledger/transitions.js";
import type { IntentStatus, PurchaseIntent } from "../../ledger/types.js";
import { type Db, durably } from "./database.js";
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

/** `db.prepare` that prepares each SQL text once and then hands out the same statement. */
function statementCache(db: Db): Pick<Db, "prepare"> {
  const statements = new Map<string, Statement>();
  const prepare = (source: string): Statement => {
    let statement = statements.get(source);
    if (statement === undefined) {
      statement = db.prepare(source);
      statements.set(source, statement);
    }
    return statement;
  };
  return { prepare: prepare as Db["prepare"] };
}

export class LedgerCore {
  readonly db: Db;
  /**
   * Statements prepared on first use and reused: preparing (compiling the SQL) costs more than
   * running most of these, and some run on every flow (the draft insert, `recent`). The SQL
   * texts are fixed strings in the ledger's files, so the cache holds a bounded few dozen.
   */
  readonly sql: Pick<Db, "prepare">;
  /** Milliseconds since the epoch; tests move time without sleeping. */
  readonly clock: () => number;
  readonly #get;
  readonly #event;

  constructor(db: Db, clock: () => number) {
    this.db = db;
    this.sql = statementCache(db);
    this.clock = clock;
    this.#get = db.prepare<[string], IntentRow>("SELECT * FROM purchase_intents WHERE id = ?");
    this.#event = db.prepare<[string, string | null, string, number, number | null]>(
      `INSERT INTO purchase_intent_events (intent_id, from_status, to_status, at, actor)
       VALUES (?, ?, ?, ?, ?)`,
    );
  }

  /** One intent by id. */
  get(id: string): PurchaseIntent | undefined {
    const row = this.#get.get(id);
    return row === undefined ? undefined : rowToIntent(row);
  }

  mustGet(id: string): PurchaseIntent {
    const intent = this.get(id);
    if (intent === undefined) throw new IntentNotFoundError(id);
    return intent;
  }

  /** Writes one status change to the intent's history. */
  event(
    id: string,
    from: IntentStatus | null,
    to: IntentStatus,
    at: number,
    actor: number | null,
  ): void {
    this.#event.run(id, from, to, at, actor);
  }

  /**
   * The one place a status changes after the claim. It refuses moves the lifecycle does not
   * allow, and compares-and-sets on the status it read, so a concurrent move cannot be
   * overwritten. Callers run it inside a transaction.
   */
  move(
    current: PurchaseIntent,
    to: IntentStatus,
    now: number,
    patch: MovePatch,
    actor: number | null,
  ): PurchaseIntent {
    assertMove(current.id, current.status, to);
    const moved = this.sql
      .prepare<Record<string, string | number | null>, IntentRow>(
        `UPDATE purchase_intents SET status = @to, updated_at = @now,
           finished_at = COALESCE(@finishedAt, finished_at),
           response = COALESCE(@response, response),
           tx_hash = COALESCE(@txHash, tx_hash),
           outcome_detail = COALESCE(@outcomeDetail, outcome_detail),
           resolved_by = COALESCE(@resolvedBy, resolved_by),
           resolved_at = COALESCE(@resolvedAt, resolved_at)
         WHERE id = @id AND status = @from
         RETURNING *`,
      )
      .get({
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
      const fresh = this.mustGet(current.id);
      assertMove(fresh.id, fresh.status, to);
      return this.move(fresh, to, now, patch, actor);
    }
    this.event(current.id, current.status, to, now, actor);
    return rowToIntent(moved);
  }

  /**
   * One IMMEDIATE transaction committed with synchronous=FULL: the commits that decide or
   * record money (the claim, a queued promise, an outcome, a recovery, a settlement) must
   * survive a power loss once a request may have left. Other commits (drafts, conversation
   * state) keep the connection's cheaper level; see `durably`.
   */
  durably<T>(commit: () => T): T {
    return durably(this.db, () => this.db.transaction(commit).immediate());
  }
}
