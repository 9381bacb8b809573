/**
 * The purchase ledger in PostgreSQL, for several replicas on one database, assembled from its
 * pieces as the SQLite one is: drafts, the claim, outcomes, the pause switch and the queries.
 * It answers with promises. Every decision is made inside PostgreSQL, never in this object's
 * memory, so any number of ledgers (pools, replicas) may share the database.
 *
 * Why a gate. SQLite's claim is one UPDATE whose subqueries read "nothing sending, nothing
 * unconfirmed, not paused, under the limits", and SQLite's single writer makes that read and
 * the move indivisible. PostgreSQL runs writers side by side: under READ COMMITTED each
 * statement reads a snapshot from its start, and an UPDATE re-checks only the row it changes.
 * Two claims of two different intents would both see nothing sending and both win; a claim
 * judged just before a pause committed would still commit after the pause had returned.
 * SERIALIZABLE would catch the first as a serialization failure, but every loser would then
 * have to be retried by its caller, and a claim must answer "busy", not throw.
 *
 * So the claim, and every write whose effect a claim's rules read (the pause switch, an
 * outcome, the recovery to unconfirmed, a restore, a settlement), run in a transaction that
 * first takes one transaction-level advisory lock, the ledger gate (`pg_advisory_xact_lock`,
 * let go at commit or rollback, so a crashed replica cannot keep it). They pass one at a time;
 * each statement after the lock sees everything committed before it was granted. The claim
 * also locks the sender lease's row (FOR SHARE) and checks the fence in the same transaction,
 * so a takeover waits for a claim being judged and no claim of the old holder commits after
 * it. Moves that leave `draft` or `queued` for a status that spends nothing (cancel, expiry, a
 * queued confirmation closed or reopened) take only their row's lock, which the claim of the
 * same intent also takes. Only one purchase is ever `sending`, so the gate costs nothing the
 * claim's own rule does not already cost.
 */
import type pg from "pg";
import type { PurchaseOutcome } from "../../service/types.js";
import { DEFAULT_DRAFT_TTL_MS, DEFAULT_LIMITS } from "../../ledger/limits.js";
import type {
  BalanceSnapshot,
  ClaimContext,
  ClaimResult,
  DayTotals,
  DayUsage,
  LeaseFence,
  NewIntent,
  OutWindow,
  PauseReason,
  PauseState,
  PurchaseIntent,
  PurchaseLedger,
  RestoreMarks,
  QueueResult,
  QueuedCloseReason,
  RecordedOutcome,
  SpendingLimits,
  StatusChange,
} from "../../ledger/types.js";
import { PostgresClaims } from "./claims.js";
import { isTransientPostgresError } from "./connection.js";
import { PostgresDrafts } from "./drafts.js";
import { PostgresLedgerCore } from "./ledger-core.js";
import { PostgresLedgerQueries } from "./ledger-queries.js";
import { PostgresOutcomes } from "./outcomes.js";
import { markRestored } from "./restored.js";

import { PostgresPauseSwitch } from "./pause-switch.js";

export interface PostgresLedgerOptions {
  /** Missing members take {@link DEFAULT_LIMITS}. */
  limits?: Partial<SpendingLimits> | undefined;
  /** How long a draft (a summary shown) stays confirmable. */
  draftTtlMs?: number | undefined;
  /** Milliseconds since the epoch; tests move time without sleeping. */
  clock?: (() => number) | undefined;
}

export class PostgresLedger implements PurchaseLedger {
  readonly draftTtlMs: number;
  readonly isTransientWriteError = isTransientPostgresError;
  #limits: Readonly<SpendingLimits>;
  readonly #core: PostgresLedgerCore;
  readonly #drafts: PostgresDrafts;
  readonly #claims: PostgresClaims;
  readonly #outcomes: PostgresOutcomes;
  readonly #pause: PostgresPauseSwitch;
  readonly #queries: PostgresLedgerQueries;

  constructor(pool: pg.Pool, options: PostgresLedgerOptions = {}) {
    this.#limits = Object.freeze({ ...DEFAULT_LIMITS, ...options.limits });
    this.draftTtlMs = options.draftTtlMs ?? DEFAULT_DRAFT_TTL_MS;
    const core = new PostgresLedgerCore(pool, options.clock ?? Date.now);
    this.#core = core;
    this.#queries = new PostgresLedgerQueries(core);
    this.#pause = new PostgresPauseSwitch(core);
    this.#drafts = new PostgresDrafts(core, this.draftTtlMs);
    this.#outcomes = new PostgresOutcomes(core, this.#queries);
    this.#claims = new PostgresClaims({
      core,
      pause: this.#pause,
      queries: this.#queries,
      limits: () => this.#limits,
    });
  }

  get limits(): Readonly<SpendingLimits> {
    return this.#limits;
  }

  setLimits(limits: SpendingLimits): void {
    this.#limits = Object.freeze({ ...limits });
  }

  now(): number {
    return this.#core.clock();
  }

  fenceWith(fence: LeaseFence | undefined): void {
    this.#claims.fenceWith(fence);
  }

  get(id: string): Promise<PurchaseIntent | undefined> {
    return this.#core.get(id);
  }

  // Drafts (./drafts.ts).
  createDraft(request: NewIntent, now?: number): Promise<PurchaseIntent> {
    return this.#drafts.createDraft(request, now);
  }

  changePaymentMethod(
    id: string,
    userId: number,
    method: PurchaseIntent["paymentMethod"],
    now?: number,
  ): Promise<PurchaseIntent | undefined> {
    return this.#drafts.changePaymentMethod(id, userId, method, now);
  }

  recordBalanceBefore(
    id: string,
    balance: BalanceSnapshot,
    readAt: number,
    now?: number,
  ): Promise<boolean> {
    return this.#drafts.recordBalanceBefore(id, balance, readAt, now);
  }

  reopenQueued(id: string, now?: number): Promise<boolean> {
    return this.#drafts.reopenQueued(id, now);
  }

  closeQueued(
    id: string,
    reason: QueuedCloseReason,
    now?: number,
  ): Promise<PurchaseIntent | undefined> {
    return this.#drafts.closeQueued(id, reason, now);
  }

  cancel(id: string, userId: number, now?: number): Promise<boolean> {
    return this.#drafts.cancel(id, userId, now);
  }

  expireDrafts(now?: number): Promise<number> {
    return this.#drafts.expireDrafts(now);
  }

  // The claim (./claims.ts).
  claim(id: string, userId: number, now?: number, options?: ClaimContext): Promise<ClaimResult> {
    return this.#claims.claim(id, userId, now, options);
  }

  queue(id: string, userId: number, now?: number): Promise<QueueResult> {
    return this.#claims.queue(id, userId, now);
  }

  // Outcomes (./outcomes.ts).
  recordOutcome(id: string, outcome: PurchaseOutcome, now?: number): Promise<RecordedOutcome> {
    return this.#outcomes.recordOutcome(id, outcome, now);
  }

  recordUnwrittenOutcome(
    id: string,
    outcome: PurchaseOutcome,
    answeredAt: number,
    now?: number,
  ): Promise<RecordedOutcome> {
    return this.#outcomes.recordUnwrittenOutcome(id, outcome, answeredAt, now);
  }

  recordNotSent(id: string, detail: string, now?: number): Promise<RecordedOutcome> {
    return this.#outcomes.recordNotSent(id, detail, now);
  }

  recoverInterrupted(now?: number): Promise<PurchaseIntent[]> {
    return this.#outcomes.recoverInterrupted(now);
  }

  // After a restore (./restored.ts).
  markRestored(backupTakenAt: string | undefined, now?: number): Promise<RestoreMarks> {
    return markRestored(this.#core, backupTakenAt, now ?? this.#core.clock());
  }

  resolve(
    id: string,
    adminId: number,
    delivered: boolean,
    now?: number,
  ): Promise<{ intent: PurchaseIntent; unconfirmedLeft: number }> {
    return this.#outcomes.resolve(id, adminId, delivered, now);
  }

  // The pause switch (./pause-switch.ts).
  setPaused(paused: boolean, adminId: number, now?: number): Promise<void> {
    return this.#pause.setPaused(paused, adminId, now);
  }

  pauseByBreaker(detail: unknown, now?: number): Promise<void> {
    return this.#pause.pauseByBreaker(detail, now);
  }

  pauseState(): Promise<PauseState> {
    return this.#pause.pauseState();
  }

  pauseReason(): Promise<PauseReason | undefined> {
    return this.#pause.pauseReason();
  }

  // Reads (./ledger-queries.ts).
  queued(): Promise<PurchaseIntent[]> {
    return this.#queries.queued();
  }

  sendingCount(): Promise<number> {
    return this.#queries.sendingCount();
  }

  unconfirmedCount(): Promise<number> {
    return this.#queries.unconfirmedCount();
  }

  unconfirmed(): Promise<PurchaseIntent[]> {
    return this.#queries.unconfirmed();
  }

  openDrafts(userId: number, chatId: number): Promise<PurchaseIntent[]> {
    return this.#queries.openDrafts(userId, chatId);
  }

  recent(query: { limit: number; offset?: number; userId?: number }): Promise<PurchaseIntent[]> {
    return this.#queries.recent(query);
  }

  usage(userId?: number, now?: number): Promise<DayUsage> {
    return this.#queries.usage(userId, now);
  }

  dailyTotals(days?: number, now?: number): Promise<DayTotals[]> {
    return this.#queries.dailyTotals(days, now);
  }

  history(id: string): Promise<StatusChange[]> {
    return this.#queries.history(id);
  }

  sentDuring(from: number, to: number, exceptId: string): Promise<PurchaseIntent[]> {
    return this.#queries.sentDuring(from, to, exceptId);
  }

  outBetween(from: number, to: number): Promise<OutWindow[]> {
    return this.#queries.outBetween(from, to);
  }
}
