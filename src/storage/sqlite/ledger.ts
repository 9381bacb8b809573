/**
 * The purchase ledger in SQLite, assembled from its pieces: drafts, the claim, outcomes, the
 * pause switch and the queries, over one connection. It alone decides whether a purchase
 * request may be sent, with one atomic claim statement (./claims.ts), so that any number of
 * concurrent or repeated confirmations (promises, connections, processes) send at most one
 * request. Several Ledger instances (connections, processes) may share a file: every decision
 * is made inside SQLite, never in this object's memory. It answers synchronously, which the
 * {@link PurchaseLedger} interface allows (the PostgreSQL ledger answers with promises).
 */
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
import { SqliteClaims } from "./claims.js";
import { type Db, isTransientSqliteError } from "./database.js";
import { SqliteDrafts } from "./drafts.js";
import { LedgerCore } from "./ledger-core.js";
import { SqliteLedgerQueries } from "./ledger-queries.js";
import { SqliteOutcomes } from "./outcomes.js";
import { SqlitePauseSwitch } from "./pause-switch.js";
import { markRestored } from "./restored.js";

export { newIntentId } from "../../ledger/intent-id.js";

export interface LedgerOptions {
  /** Missing members take {@link DEFAULT_LIMITS}. */
  limits?: Partial<SpendingLimits>;
  /** How long a draft (a summary shown) stays confirmable. */
  draftTtlMs?: number;
  /** Milliseconds since the epoch; tests move time without sleeping. */
  clock?: () => number;
}

export class Ledger implements PurchaseLedger {
  readonly draftTtlMs: number;
  readonly isTransientWriteError = isTransientSqliteError;
  #limits: Readonly<SpendingLimits>;
  readonly #core: LedgerCore;
  readonly #drafts: SqliteDrafts;
  readonly #claims: SqliteClaims;
  readonly #outcomes: SqliteOutcomes;
  readonly #pause: SqlitePauseSwitch;
  readonly #queries: SqliteLedgerQueries;

  constructor(db: Db, options: LedgerOptions = {}) {
    this.#limits = Object.freeze({ ...DEFAULT_LIMITS, ...options.limits });
    this.draftTtlMs = options.draftTtlMs ?? DEFAULT_DRAFT_TTL_MS;
    const core = new LedgerCore(db, options.clock ?? Date.now);
    this.#core = core;
    this.#queries = new SqliteLedgerQueries(core);
    this.#pause = new SqlitePauseSwitch(core);
    this.#drafts = new SqliteDrafts(core, this.draftTtlMs);
    this.#outcomes = new SqliteOutcomes(core, this.#queries);
    this.#claims = new SqliteClaims({
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

  get(id: string): PurchaseIntent | undefined {
    return this.#core.get(id);
  }

  // Drafts (./drafts.ts).
  createDraft(request: NewIntent, now?: number): PurchaseIntent {
    return this.#drafts.createDraft(request, now);
  }

  changePaymentMethod(
    id: string,
    userId: number,
    method: PurchaseIntent["paymentMethod"],
    now?: number,
  ): PurchaseIntent | undefined {
    return this.#drafts.changePaymentMethod(id, userId, method, now);
  }

  recordBalanceBefore(id: string, balance: BalanceSnapshot, readAt: number, now?: number): boolean {
    return this.#drafts.recordBalanceBefore(id, balance, readAt, now);
  }

  reopenQueued(id: string, now?: number): boolean {
    return this.#drafts.reopenQueued(id, now);
  }

  closeQueued(id: string, reason: QueuedCloseReason, now?: number): PurchaseIntent | undefined {
    return this.#drafts.closeQueued(id, reason, now);
  }

  cancel(id: string, userId: number, now?: number): boolean {
    return this.#drafts.cancel(id, userId, now);
  }

  expireDrafts(now?: number): number {
    return this.#drafts.expireDrafts(now);
  }

  // The claim (./claims.ts).
  claim(id: string, userId: number, now?: number, options?: ClaimContext): ClaimResult {
    return this.#claims.claim(id, userId, now, options);
  }

  queue(id: string, userId: number, now?: number): QueueResult {
    return this.#claims.queue(id, userId, now);
  }

  // Outcomes (./outcomes.ts).
  recordOutcome(id: string, outcome: PurchaseOutcome, now?: number): RecordedOutcome {
    return this.#outcomes.recordOutcome(id, outcome, now);
  }

  recordUnwrittenOutcome(
    id: string,
    outcome: PurchaseOutcome,
    answeredAt: number,
    now?: number,
  ): RecordedOutcome {
    return this.#outcomes.recordUnwrittenOutcome(id, outcome, answeredAt, now);
  }

  recordNotSent(id: string, detail: string, now?: number): RecordedOutcome {
    return this.#outcomes.recordNotSent(id, detail, now);
  }

  recoverInterrupted(now?: number): PurchaseIntent[] {
    return this.#outcomes.recoverInterrupted(now);
  }

  // After a restore (./restored.ts).
  markRestored(backupTakenAt: string | undefined, now?: number): RestoreMarks {
    return markRestored(this.#core, backupTakenAt, now ?? this.#core.clock());
  }

  resolve(
    id: string,
    adminId: number,
    delivered: boolean,
    now?: number,
  ): { intent: PurchaseIntent; unconfirmedLeft: number } {
    return this.#outcomes.resolve(id, adminId, delivered, now);
  }

  // The pause switch (./pause-switch.ts).
  setPaused(paused: boolean, adminId: number, now?: number): void {
    this.#pause.setPaused(paused, adminId, now);
  }

  pauseByBreaker(detail: unknown, now?: number): void {
    this.#pause.pauseByBreaker(detail, now);
  }

  pauseState(): PauseState {
    return this.#pause.pauseState();
  }

  pauseReason(): PauseReason | undefined {
    return this.#pause.pauseReason();
  }

  // Reads (./ledger-queries.ts).
  queued(): PurchaseIntent[] {
    return this.#queries.queued();
  }

  sendingCount(): number {
    return this.#queries.sendingCount();
  }

  unconfirmedCount(): number {
    return this.#queries.unconfirmedCount();
  }

  unconfirmed(): PurchaseIntent[] {
    return this.#queries.unconfirmed();
  }

  openDrafts(userId: number, chatId: number): PurchaseIntent[] {
    return this.#queries.openDrafts(userId, chatId);
  }

  recent(query: { limit: number; offset?: number; userId?: number }): PurchaseIntent[] {
    return this.#queries.recent(query);
  }

  usage(userId?: number, now?: number): DayUsage {
    return this.#queries.usage(userId, now);
  }

  dailyTotals(days?: number, now?: number): DayTotals[] {
    return this.#queries.dailyTotals(days, now);
  }

  history(id: string): StatusChange[] {
    return this.#queries.history(id);
  }

  sentDuring(from: number, to: number, exceptId: string): PurchaseIntent[] {
    return this.#queries.sentDuring(from, to, exceptId);
  }

  outBetween(from: number, to: number): OutWindow[] {
    return this.#queries.outBetween(from, to);
  }
}
