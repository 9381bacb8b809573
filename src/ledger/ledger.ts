/**
 * The purchase ledger: every purchase intent in SQLite. It alone decides whether a purchase
 * request may be sent, with one atomic claim statement, so that any number of concurrent or
 * repeated confirmations (promises, connections, processes) send at most one request.
 */
import { randomBytes } from "node:crypto";
import type { Statement } from "better-sqlite3";
import type { PurchaseOutcome } from "../service/types.js";
import { type Db, durably, isTransientSqliteError } from "../storage/database.js";
import { IntentNotFoundError, InvalidDraftError } from "./errors.js";
import { DEFAULT_DRAFT_TTL_MS, DEFAULT_LIMITS } from "./limits.js";
import { type IntentRow, rowToIntent } from "./rows.js";
import { DAY_MS, nextUtcMidnight, utcDay, utcDayNumber, utcDayStart } from "./time.js";
import { assertMove, refusalForStatus, SPENDING_STATUSES } from "./transitions.js";
import type {
  BalanceSnapshot,
  ClaimOptions,
  ClaimRefusal,
  ClaimResult,
  DayTotals,
  DayUsage,
  IntentStatus,
  LeaseFence,
  NewIntent,
  OutWindow,
  PauseReason,
  PauseSource,
  PauseState,
  PurchaseIntent,
  PurchaseLedger,
  RecordedOutcome,
  QueueResult,
  QueuedCloseReason,
  SpendingLimits,
} from "./types.js";
import { isPremiumDuration, isStarsAmount } from "../gifts/catalogue.js";
import { parseUsername } from "../gifts/username.js";

export type { ClaimOptions, RecordedOutcome } from "./types.js";

export interface LedgerOptions {
  /** Missing members take {@link DEFAULT_LIMITS}. */
  limits?: Partial<SpendingLimits>;
  /** How long a draft (a summary shown) stays confirmable. */
  draftTtlMs?: number;
  /** Milliseconds since the epoch; tests move time without sleeping. */
  clock?: () => number;
}

/** Fields an outcome or a reconciliation writes alongside a status move. */
interface MovePatch {
  finishedAt?: number;
  response?: unknown;
  txHash?: string | undefined;
  outcomeDetail?: string | undefined;
  resolvedBy?: number;
  resolvedAt?: number;
}

const PAUSED_KEY = "purchases_paused";

/**
 * What may have been spent on the UTC day `@day` (`sent_at / DAY_MS`): a `quantity` (stars) or
 * a count of `purchases` (premium), for one person (`@userId`) or the whole bot (`0`). One
 * lookup in the running totals that triggers keep (migration "running daily totals"), so the
 * claim and the limits shown to people cost the same on a busy day as on a quiet one.
 */
function spent(column: "quantity" | "purchases", kind: "stars" | "premium", who: string): string {
  return `COALESCE((SELECT d.${column} FROM daily_spending d
    WHERE d.day = @day AND d.kind = '${kind}' AND d.requester_user_id = ${who}), 0)`;
}
/** Who paused and why, JSON `{ source, detail }`, next to the switch itself. */
const PAUSE_REASON_KEY = "purchases_paused_reason";
/** Statuses an intent can reach while its request's answer is still on the way. */
const LATE_ANSWER_STATUSES: readonly IntentStatus[] = ["unconfirmed", "delivered", "not_delivered"];

/**
 * The single claim statement, for a draft or a queued confirmation alike. Every condition of
 * the issue is inside this one UPDATE, so
 * SQLite's write lock makes the check and the move one indivisible step: no other connection
 * can change the counts, the pause switch or the status between them.
 *
 * Only one intent may be `sending` at a time. Were two in flight, the first could come back
 * ambiguous while the second was still queued for the service's quota, and the second would go
 * out after the freeze had begun, against the rule that no new purchase goes out before an
 * ambiguous one is settled (docs/service-contract.md §5.1). One wallet paying one transfer at a
 * time is also what a TON wallet's seqno wants.
 */
const CLAIM_SQL = `
UPDATE purchase_intents
SET status = 'sending', sent_at = @now, updated_at = @now
WHERE id = @id
  AND status IN ('draft', 'queued')
  AND expires_at > @now
  AND requester_user_id = @userId
  AND NOT EXISTS (SELECT 1 FROM ledger_settings WHERE key = '${PAUSED_KEY}' AND value = 'true')
  AND NOT EXISTS (SELECT 1 FROM purchase_intents o WHERE o.status = 'unconfirmed')
  AND NOT EXISTS (SELECT 1 FROM purchase_intents s WHERE s.status = 'sending')
  AND (@fenceOwner IS NULL OR EXISTS (SELECT 1 FROM sender_lease l WHERE l.name = 'sender'
        AND l.owner = @fenceOwner AND l.epoch = @fenceEpoch AND l.expires_at > @fenceNow))
  AND (kind <> 'stars' OR quantity <= @starsPerPurchase)
  AND (kind <> 'stars' OR @exempt = 1
        OR quantity + ${spent("quantity", "stars", "@userId")} <= @starsPerUserDay)
  AND (kind <> 'stars' OR quantity + ${spent("quantity", "stars", "0")} <= @starsPerBotDay)
  AND (kind <> 'premium' OR @exempt = 1
        OR 1 + ${spent("purchases", "premium", "@userId")} <= @premiumPerUserDay)
  AND (kind <> 'premium' OR 1 + ${spent("purchases", "premium", "0")} <= @premiumPerBotDay)
RETURNING *
`;

/**
 * The intents whose request was out at some moment between `@from` and `@to` (not rejected:
 * those spent nothing). Two lookups in the index by when each finished (still out, or finished
 * within the window), not a walk through every purchase sent before `@to`.
 */
const OUT_BETWEEN_SQL = `rowid IN (
    SELECT rowid FROM purchase_intents WHERE finished_at IS NULL AND sent_at < @to
    UNION ALL
    SELECT rowid FROM purchase_intents WHERE finished_at >= @from AND sent_at < @to)
  AND status <> 'rejected'`;

const USAGE_SQL = `
SELECT
  ${spent("quantity", "stars", "0")} AS starsBot,
  ${spent("purchases", "premium", "0")} AS premiumBot,
  ${spent("quantity", "stars", "@userId")} AS starsUser,
  ${spent("purchases", "premium", "@userId")} AS premiumUser
`;

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

/**
 * A new random, unguessable intent id: 16 bytes, base64url (22 characters), never starting
 * with "-": a spreadsheet reads such a cell as a formula, so the accountant's export would
 * have to mark it (`'-...`) and the id in the file would no longer be the id.
 */
export function newIntentId(): string {
  for (;;) {
    const id = randomBytes(16).toString("base64url");
    if (!id.startsWith("-")) return id;
  }
}

/**
 * The ledger over one open database. Several Ledger instances (connections, processes) may
 * share a file: every decision is made inside SQLite, never in this object's memory.
 */
export class Ledger implements PurchaseLedger {
  #limits: Readonly<SpendingLimits>;
  readonly draftTtlMs: number;
  readonly #db: Db;
  /** This process's hold on the sender lease, checked by every claim once set. */
  #fence: LeaseFence | undefined;
  readonly #clock: () => number;
  readonly #get;
  readonly #claim;
  readonly #status;
  readonly #event;
  readonly #usage;
  readonly #countByStatus;
  /**
   * Statements prepared on first use and reused: preparing (compiling the SQL) costs more than
   * running most of these, and some run on every flow (the draft insert, `recent`). The SQL
   * texts are fixed strings in this file, so the cache holds a bounded few dozen.
   */
  readonly #sql: Pick<Db, "prepare">;

  constructor(db: Db, options: LedgerOptions = {}) {
    this.#db = db;
    this.#sql = statementCache(db);
    this.#limits = Object.freeze({ ...DEFAULT_LIMITS, ...options.limits });
    this.draftTtlMs = options.draftTtlMs ?? DEFAULT_DRAFT_TTL_MS;
    this.#clock = options.clock ?? Date.now;
    this.#get = db.prepare<[string], IntentRow>("SELECT * FROM purchase_intents WHERE id = ?");
    this.#status = db
      .prepare<[string], IntentStatus>("SELECT status FROM purchase_intents WHERE id = ?")
      .pluck();
    // With RETURNING, the claim that wins hands back the claimed row: no second read.
    this.#claim = db.prepare<Record<string, number | string | null>, IntentRow>(CLAIM_SQL);
    this.#event = db.prepare<[string, string | null, string, number, number | null]>(
      `INSERT INTO purchase_intent_events (intent_id, from_status, to_status, at, actor)
       VALUES (?, ?, ?, ?, ?)`,
    );
    // Asked at every flow's start, summary and Confirm (the desk's status), so prepared once,
    // with the status written into the SQL: better-sqlite3's SQLite is built with STAT4, which
    // compiles a statement again on every run when a bound value may change its use of an
    // index, and that tripled the cost of this count.
    this.#countByStatus = {
      sending: db
        .prepare<[], number>("SELECT COUNT(*) FROM purchase_intents WHERE status = 'sending'")
        .pluck(),
      unconfirmed: db
        .prepare<[], number>("SELECT COUNT(*) FROM purchase_intents WHERE status = 'unconfirmed'")
        .pluck(),
    };
    this.#usage = db.prepare<
      { userId: number | null; day: number },
      { starsBot: number; premiumBot: number; starsUser: number; premiumUser: number }
    >(USAGE_SQL);
  }

  fenceWith(fence: LeaseFence | undefined): void {
    this.#fence = fence;
  }

  /** The claim's fencing parameters: all null (no check) without a fence. */
  #fenceParameters(): {
    fenceOwner: string | null;
    fenceEpoch: number | null;
    fenceNow: number | null;
  } {
    const fence = this.#fence;
    return fence === undefined
      ? { fenceOwner: null, fenceEpoch: null, fenceNow: null }
      : { fenceOwner: fence.owner, fenceEpoch: fence.epoch, fenceNow: fence.now() };
  }

  /** Whether the fence, if any, still holds (read-only: to explain a refused claim). */
  #holdsLease(): boolean {
    const { fenceOwner, fenceEpoch, fenceNow } = this.#fenceParameters();
    if (fenceOwner === null) return true;
    return (
      this.#sql
        .prepare<{ owner: string; epoch: number | null; now: number | null }, number>(
          `SELECT 1 FROM sender_lease WHERE name = 'sender' AND owner = @owner
             AND epoch = @epoch AND expires_at > @now`,
        )
        .pluck()
        .get({ owner: fenceOwner, epoch: fenceEpoch, now: fenceNow }) !== undefined
    );
  }

  /** The ledger's clock, so callers and the ledger agree on "now". */
  now(): number {
    return this.#clock();
  }

  readonly isTransientWriteError = isTransientSqliteError;

  /** Records a draft: the summary a person is shown, confirmable until it expires. */
  createDraft(request: NewIntent, now: number = this.#clock()): PurchaseIntent {
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
    const row = this.#db.transaction(() => {
      const inserted = this.#sql
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
          expiresAt: now + this.draftTtlMs,
          balanceBefore:
            request.balanceBefore === undefined ? null : JSON.stringify(request.balanceBefore),
          balanceBeforeAt:
            request.balanceBefore === undefined ? null : (request.balanceBeforeAt ?? null),
        });
      this.#event.run(id, null, "draft", now, request.requester.userId);
      return inserted;
    })();
    if (row === undefined) throw new IntentNotFoundError(id);
    return rowToIntent(row);
  }

  /** One intent by id. */
  get(id: string): PurchaseIntent | undefined {
    const row = this.#get.get(id);
    return row === undefined ? undefined : rowToIntent(row);
  }

  /**
   * Claims a draft or a queued confirmation for sending (→ sending), only if it is still a
   * draft or queued, not expired,
   * asked for by `userId`, purchases are not paused, nothing is unconfirmed and every spending
   * limit allows it. Exactly one of any number of concurrent claims wins. A refusal says why.
   */
  claim(
    id: string,
    userId: number,
    now: number = this.#clock(),
    options: ClaimOptions = {},
  ): ClaimResult {
    const exempt = options.isAdmin === true && this.limits.adminsExempt ? 1 : 0;
    // IMMEDIATE: take the write lock first, so the reads around the UPDATE see the same state
    // it saw. The UPDATE alone decides; the reads only name the move and explain a refusal.
    const outcome = this.#durably((): ClaimResult => {
      const from = this.#status.get(id) ?? "draft";
      const claimed = this.#claim.get({
        id,
        userId,
        now,
        day: utcDayNumber(now),
        exempt,
        starsPerPurchase: this.limits.starsPerPurchase,
        starsPerUserDay: this.limits.starsPerUserDay,
        starsPerBotDay: this.limits.starsPerBotDay,
        premiumPerUserDay: this.limits.premiumPerUserDay,
        premiumPerBotDay: this.limits.premiumPerBotDay,
        ...this.#fenceParameters(),
      });
      if (claimed !== undefined) {
        assertMove(id, from, "sending");
        this.#event.run(id, from, "sending", now, userId);
        return { ok: true, intent: rowToIntent(claimed) };
      }
      return { ok: false, ...this.#explainRefusal(id, userId, now, exempt === 1) };
    });
    return outcome;
  }

  /** Works out, read-only, why the claim statement changed nothing. */
  #explainRefusal(id: string, userId: number, now: number, exempt: boolean): ClaimRefusal {
    const intent = this.get(id);
    if (intent === undefined) return { reason: "not_found" };
    if (intent.requester.userId !== userId) return { reason: "not_owner" };
    // A queued confirmation is as claimable as a draft: only the rules below can refuse it.
    const byStatus = refusalForStatus(
      intent.status === "queued" ? "draft" : intent.status,
      intent.expiresAt,
      now,
    );
    if (byStatus !== undefined) return byStatus;
    const pause = this.pauseReason();
    if (pause !== undefined) return { reason: "paused", source: pause.source };
    const unconfirmed = this.unconfirmedCount();
    if (unconfirmed > 0) return { reason: "frozen", unconfirmed };
    const usage = this.usage(userId, now);
    const resetsAt = usage.resetsAt;
    const l = this.limits;
    if (intent.kind === "stars") {
      if (intent.quantity > l.starsPerPurchase) {
        // Not a daily limit: it never resets by waiting, so "resets" is now.
        return limit("stars_per_purchase", l.starsPerPurchase, 0, now);
      }
      const starsUser = usage.starsUser ?? 0;
      if (!exempt && starsUser + intent.quantity > l.starsPerUserDay) {
        return limit("stars_per_user_day", l.starsPerUserDay, starsUser, resetsAt);
      }
      if (usage.starsBot + intent.quantity > l.starsPerBotDay) {
        return limit("stars_per_bot_day", l.starsPerBotDay, usage.starsBot, resetsAt);
      }
    } else {
      const premiumUser = usage.premiumUser ?? 0;
      if (!exempt && premiumUser + 1 > l.premiumPerUserDay) {
        return limit("premium_per_user_day", l.premiumPerUserDay, premiumUser, resetsAt);
      }
      if (usage.premiumBot + 1 > l.premiumPerBotDay) {
        return limit("premium_per_bot_day", l.premiumPerBotDay, usage.premiumBot, resetsAt);
      }
    }
    // Last, because it passes by itself in a moment: another purchase is in flight, or this
    // process no longer holds the sender lease (another has taken over: it sends from now on).
    if (this.sendingCount() > 0 || !this.#holdsLease()) return { reason: "busy" };
    // Inside the IMMEDIATE transaction nothing can change between the UPDATE and these reads,
    // so reaching here means a condition above disagrees with the SQL: refuse, never allow.
    return { reason: "already_processing" };
  }

  /**
   * Records a person's confirmation that must wait for its turn (another purchase is in flight):
   * draft → queued, only for its requester and while it has not expired. Written before the
   * person is told "queued", so a crash cannot lose a promise: the next start finds it with
   * {@link queued}. Nothing is sent and no rule but these is judged here: the claim that lets
   * it out later re-checks every one of them.
   */
  queue(id: string, userId: number, now: number = this.#clock()): QueueResult {
    return this.#durably((): QueueResult => {
      const changed = this.#sql
        .prepare(
          `UPDATE purchase_intents SET status = 'queued', queued_at = @now, updated_at = @now
             WHERE id = @id AND status = 'draft' AND requester_user_id = @userId
               AND expires_at > @now`,
        )
        .run({ id, userId, now }).changes;
      if (changed === 1) {
        this.#event.run(id, "draft", "queued", now, userId);
        return { ok: true, intent: this.#mustGet(id) };
      }
      const intent = this.get(id);
      if (intent === undefined) return { ok: false, reason: "not_found" };
      if (intent.requester.userId !== userId) return { ok: false, reason: "not_owner" };
      return {
        ok: false,
        ...(refusalForStatus(intent.status, intent.expiresAt, now) ?? {
          reason: "already_processing",
        }),
      };
    });
  }

  /** Confirmations recorded as queued and not yet claimed or closed, in the order queued. */
  queued(): PurchaseIntent[] {
    return this.#sql
      .prepare<[], IntentRow>(
        "SELECT * FROM purchase_intents WHERE status = 'queued' ORDER BY queued_at, rowid",
      )
      .all()
      .map(rowToIntent);
  }

  /**
   * Gives a queued confirmation back to its person as an open draft (queued → draft), when its
   * claim was refused for a reason that passes (paused, an unconfirmed purchase, a limit): the
   * summary gets its buttons back and may be confirmed again while it has not expired. False
   * when it is no longer queued.
   */
  reopenQueued(id: string, now: number = this.#clock()): boolean {
    return this.#durably((): boolean => {
      const current = this.get(id);
      if (current?.status !== "queued") return false;
      this.#move(current, "draft", now, {}, null);
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
    now: number = this.#clock(),
  ): PurchaseIntent | undefined {
    return this.#durably((): PurchaseIntent | undefined => {
      const current = this.get(id);
      if (current?.status !== "queued") return undefined;
      if (reason === "expired" || current.expiresAt <= now) {
        return this.#move(current, "expired", now, { finishedAt: now }, null);
      }
      const detail = `not sent: ${reason}`;
      return this.#move(
        current,
        "rejected",
        now,
        { finishedAt: now, response: { notSent: detail, reason }, outcomeDetail: detail },
        null,
      );
    });
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
    now: number = this.#clock(),
  ): boolean {
    return (
      this.#sql
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
   * Other intents whose request was out (sent, and not yet finished) at some moment between
   * `from` and `to`: for reconciliation, the purchases that may explain part of a balance drop
   * measured over that time. Rejected ones spent nothing and are left out. Oldest first; with
   * one purchase in flight at a time there are few, and at most 50 are returned.
   */
  sentDuring(from: number, to: number, exceptId: string): PurchaseIntent[] {
    return this.#sql
      .prepare<{ from: number; to: number; id: string }, IntentRow>(
        `SELECT * FROM purchase_intents WHERE ${OUT_BETWEEN_SQL} AND id <> @id
         ORDER BY sent_at, rowid LIMIT 50`,
      )
      .all({ from, to, id: exceptId })
      .map(rowToIntent);
  }

  /**
   * When each purchase out at some moment between `from` and `to` was sent and finished, without
   * the rows themselves and without a limit (rejected ones spent nothing and are left out): the
   * cost meter asks once per balance reading for all the purchases waiting for that reading.
   */
  outBetween(from: number, to: number): OutWindow[] {
    return this.#sql
      .prepare<
        { from: number; to: number },
        { id: string; sent_at: number; finished_at: number | null }
      >(`SELECT id, sent_at, finished_at FROM purchase_intents WHERE ${OUT_BETWEEN_SQL}`)
      .all({ from, to })
      .map((row) => ({
        id: row.id,
        sentAt: row.sent_at,
        finishedAt: row.finished_at ?? undefined,
      }));
  }

  /**
   * Writes a purchase's outcome right after the response: success → succeeded (tx_hash and
   * the full body), rejected or invalid → rejected, ambiguous → unconfirmed (cause, body and
   * tx_hash kept). The intent must be `sending`.
   */
  recordOutcome(
    id: string,
    outcome: PurchaseOutcome,
    now: number = this.#clock(),
  ): RecordedOutcome {
    const { to, patch } = outcomePatch(outcome, now);
    return this.#record(id, to, patch, now);
  }

  /**
   * Writes the outcome of a request whose first outcome write failed (the database refused
   * writes for a while after the answer came): `sending` → unconfirmed, whatever the service
   * answered. By then the admins were told from memory, and the person may have been told;
   * an admin confirms it against the evidence kept here (the service's answer, its tx_hash,
   * when it came and when the ledger could record it). Never sends anything.
   */
  recordUnwrittenOutcome(
    id: string,
    outcome: PurchaseOutcome,
    answeredAt: number,
    now: number = this.#clock(),
  ): RecordedOutcome {
    const { to, patch } = outcomePatch(outcome, answeredAt);
    return this.#record(
      id,
      "unconfirmed",
      {
        finishedAt: answeredAt,
        response: { unrecordedOutcome: to, answeredAt, recordedAt: now, response: patch.response },
        txHash: patch.txHash,
        outcomeDetail: `outcome_unrecorded: ${to}${patch.outcomeDetail === undefined ? "" : ` (${patch.outcomeDetail})`}`,
      },
      now,
    );
  }

  /**
   * Writes that a claimed intent's request never left (cancelled while it waited for the
   * service's quota at shutdown, or refused by the client's own checks): `sending` → rejected,
   * with `detail` saying so. Nothing was sent, so nothing can have been spent.
   */
  recordNotSent(id: string, detail: string, now: number = this.#clock()): RecordedOutcome {
    return this.#record(
      id,
      "rejected",
      { finishedAt: now, response: { notSent: detail }, outcomeDetail: detail },
      now,
    );
  }

  #record(
    id: string,
    to: "succeeded" | "rejected" | "unconfirmed",
    patch: MovePatch,
    now: number,
  ): RecordedOutcome {
    return this.#durably((): RecordedOutcome => {
      const current = this.#mustGet(id);
      if (LATE_ANSWER_STATUSES.includes(current.status)) {
        // Recovered as interrupted by a restart while this response was on its way (and
        // perhaps already settled by an admin): keep the status, and keep the late answer as
        // evidence unless the intent already holds one.
        this.#sql
          .prepare(
            `UPDATE purchase_intents SET response = @response, tx_hash = COALESCE(@txHash, tx_hash),
                 outcome_detail = @detail, updated_at = @now WHERE id = @id AND response IS NULL`,
          )
          .run({
            id,
            now,
            response: JSON.stringify({ lateOutcome: to, response: patch.response ?? null }),
            txHash: patch.txHash ?? null,
            detail: `A response arrived after the restart's recovery: ${to}.`,
          });
        return { recorded: false, intent: this.#mustGet(id) };
      }
      return { recorded: true, intent: this.#move(current, to, now, patch, null) };
    });
  }

  /**
   * At start: every intent still `sending` belongs to a process that died mid-request. Its
   * outcome is unknown, so it becomes unconfirmed and is never sent again.
   */
  recoverInterrupted(now: number = this.#clock()): PurchaseIntent[] {
    return this.#durably(() =>
      this.#makeUnconfirmed(
        "status = 'sending' ORDER BY sent_at",
        "interrupted: the process stopped while the purchase request was in flight",
        now,
      ),
    );
  }

  /**
   * After a restore from a backup: every purchase the backup shows in flight (`sending`) or
   * promised (`queued`) may have been sent after the backup was taken, so each becomes
   * unconfirmed, for an admin to settle, never sent again. The sender lease is cleared, with
   * its epoch moved far past any a process of before the restore could still hold.
   */
  markRestored(backupTakenAt: string, now: number = this.#clock()): PurchaseIntent[] {
    return this.#durably(() => {
      this.#sql
        .prepare(
          "UPDATE sender_lease SET owner = NULL, expires_at = 0, epoch = epoch + 1000 WHERE name = 'sender'",
        )
        .run();
      return this.#makeUnconfirmed(
        "status IN ('sending', 'queued') ORDER BY rowid",
        `restored: the database was restored from a backup taken ${backupTakenAt}; whether this purchase was sent after it is unknown`,
        now,
      );
    });
  }

  /** Moves every intent `where` selects to unconfirmed with `detail` (inside a transaction). */
  #makeUnconfirmed(where: string, detail: string, now: number): PurchaseIntent[] {
    const rows = this.#sql
      .prepare<[], { id: string }>(`SELECT id FROM purchase_intents WHERE ${where}`)
      .all();
    return rows.map(({ id }) =>
      this.#move(
        this.#mustGet(id),
        "unconfirmed",
        now,
        { finishedAt: now, outcomeDetail: detail },
        null,
      ),
    );
  }

  /**
   * An admin's reconciliation of an unconfirmed intent (delivered or not), with who and
   * when. Purchases resume when no unconfirmed intent is left.
   */
  resolve(
    id: string,
    adminId: number,
    delivered: boolean,
    now: number = this.#clock(),
  ): { intent: PurchaseIntent; unconfirmedLeft: number } {
    return this.#durably(() => {
      const intent = this.#move(
        this.#mustGet(id),
        delivered ? "delivered" : "not_delivered",
        now,
        { resolvedBy: adminId, resolvedAt: now },
        adminId,
      );
      return { intent, unconfirmedLeft: this.unconfirmedCount() };
    });
  }

  /** Cancels a draft; only its requester. False when it is not (or no longer) their draft. */
  cancel(id: string, userId: number, now: number = this.#clock()): boolean {
    return this.#db
      .transaction(() => {
        const current = this.get(id);
        if (current === undefined || current.requester.userId !== userId) return false;
        if (current.status !== "draft") return false;
        this.#move(current, "cancelled", now, { finishedAt: now }, userId);
        return true;
      })
      .immediate();
  }

  /** Marks every draft past its expiry as expired; returns how many. */
  expireDrafts(now: number = this.#clock()): number {
    return this.#db
      .transaction(() => {
        const rows = this.#sql
          .prepare<[number], { id: string }>(
            "SELECT id FROM purchase_intents WHERE status = 'draft' AND expires_at <= ?",
          )
          .all(now);
        for (const { id } of rows) {
          this.#move(this.#mustGet(id), "expired", now, { finishedAt: now }, null);
        }
        return rows.length;
      })
      .immediate();
  }

  /** Switches a draft's payment method: only its requester, only while it is a live draft. */
  changePaymentMethod(
    id: string,
    userId: number,
    method: PurchaseIntent["paymentMethod"],
    now: number = this.#clock(),
  ): PurchaseIntent | undefined {
    const changed = this.#sql
      .prepare(
        `UPDATE purchase_intents SET payment_method = @method, updated_at = @now
         WHERE id = @id AND requester_user_id = @userId AND status = 'draft' AND expires_at > @now`,
      )
      .run({ id, userId, method, now }).changes;
    return changed === 1 ? this.get(id) : undefined;
  }

  get limits(): Readonly<SpendingLimits> {
    return this.#limits;
  }

  setLimits(limits: SpendingLimits): void {
    this.#limits = Object.freeze({ ...limits });
  }

  /** The kill switch: while paused no claim succeeds. */
  setPaused(paused: boolean, adminId: number, now: number = this.#clock()): void {
    this.#writePause(paused, adminId, now, paused ? { source: "admin" } : undefined);
  }

  pauseByBreaker(detail: unknown, now: number = this.#clock()): void {
    this.#writePause(true, null, now, { source: "breaker", detail });
  }

  /**
   * The switch and its reason in one transaction: a reader never sees one without the other.
   * Durable like a claim: a pause that a power cut rolled back would reopen buying, and while
   * purchases are paused no later durable commit would carry it to the disk.
   */
  #writePause(
    paused: boolean,
    by: number | null,
    now: number,
    reason: { source: PauseSource; detail?: unknown } | undefined,
  ): void {
    const upsert = this.#sql.prepare(
      `INSERT INTO ledger_settings (key, value, updated_by, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_by = excluded.updated_by,
         updated_at = excluded.updated_at`,
    );
    this.#durably(() => {
      upsert.run(PAUSED_KEY, paused ? "true" : "false", by, now);
      if (reason === undefined) {
        this.#sql.prepare("DELETE FROM ledger_settings WHERE key = ?").run(PAUSE_REASON_KEY);
      } else {
        upsert.run(PAUSE_REASON_KEY, JSON.stringify(reason), by, now);
      }
    });
  }

  /** Whether purchases are paused, and who flipped the switch last and when. */
  pauseState(): PauseState {
    const row = this.#readSetting(PAUSED_KEY);
    if (row === undefined) return { paused: false, by: undefined, at: undefined };
    return { paused: row.value === "true", by: row.updated_by ?? undefined, at: row.updated_at };
  }

  pauseReason(): PauseReason | undefined {
    if (!this.pauseState().paused) return undefined;
    return parseReason(this.#readSetting(PAUSE_REASON_KEY)?.value);
  }

  #readSetting(
    key: string,
  ): { value: string; updated_by: number | null; updated_at: number } | undefined {
    return this.#sql
      .prepare<[string], { value: string; updated_by: number | null; updated_at: number }>(
        "SELECT value, updated_by, updated_at FROM ledger_settings WHERE key = ?",
      )
      .get(key);
  }

  /** How many purchase requests are in flight (at most one, by the claim). */
  sendingCount(): number {
    return this.#countByStatus.sending.get() ?? 0;
  }

  /** How many intents wait for reconciliation (while > 0, no claim succeeds). */
  unconfirmedCount(): number {
    return this.#countByStatus.unconfirmed.get() ?? 0;
  }

  /** Unconfirmed intents, oldest first (the order they should be reconciled in). */
  unconfirmed(): PurchaseIntent[] {
    return this.#sql
      .prepare<[], IntentRow>(
        "SELECT * FROM purchase_intents WHERE status = 'unconfirmed' ORDER BY sent_at, created_at",
      )
      .all()
      .map(rowToIntent);
  }

  /**
   * A person's drafts still open in one chat, oldest first: looked up in the index of drafts
   * alone (migration "open drafts by person"), so it costs the same however long their history.
   */
  openDrafts(userId: number, chatId: number): PurchaseIntent[] {
    return this.#sql
      .prepare<[number, number], IntentRow>(
        // Named, since without statistics SQLite would pick the index of all their intents.
        `SELECT * FROM purchase_intents INDEXED BY purchase_intents_open_drafts
         WHERE requester_user_id = ? AND requester_chat_id = ? AND status = 'draft'
         ORDER BY created_at, rowid`,
      )
      .all(userId, chatId)
      .map(rowToIntent);
  }

  /** Newest first; all intents, or one person's. */
  recent(query: { limit: number; offset?: number; userId?: number }): PurchaseIntent[] {
    const limitN = Math.max(0, Math.min(Math.trunc(query.limit), 500));
    const offset = Math.max(0, Math.trunc(query.offset ?? 0));
    const rows =
      query.userId === undefined
        ? this.#sql
            .prepare<[number, number], IntentRow>(
              "SELECT * FROM purchase_intents ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?",
            )
            .all(limitN, offset)
        : this.#sql
            .prepare<[number, number, number], IntentRow>(
              `SELECT * FROM purchase_intents WHERE requester_user_id = ?
               ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`,
            )
            .all(query.userId, limitN, offset);
    return rows.map(rowToIntent);
  }

  /** What today's (UTC) limits have counted so far, and when they reset. */
  usage(userId?: number, now: number = this.#clock()): DayUsage {
    const row = this.#usage.get({ userId: userId ?? null, day: utcDayNumber(now) }) ?? {
      starsBot: 0,
      premiumBot: 0,
      starsUser: 0,
      premiumUser: 0,
    };
    return {
      day: utcDay(now),
      starsBot: row.starsBot,
      premiumBot: row.premiumBot,
      starsUser: userId === undefined ? undefined : row.starsUser,
      premiumUser: userId === undefined ? undefined : row.premiumUser,
      resetsAt: nextUtcMidnight(now),
    };
  }

  /** Per UTC day (by when the request was sent), newest first, the last `days` days with any. */
  dailyTotals(days = 7, now: number = this.#clock()): DayTotals[] {
    const from = utcDayStart(now) - (Math.max(1, Math.trunc(days)) - 1) * DAY_MS;
    const rows = this.#sql
      .prepare<
        [number],
        { day: string; status: IntentStatus; kind: string; n: number; quantity: number }
      >(
        `SELECT strftime('%Y-%m-%d', sent_at / 1000, 'unixepoch') AS day, status, kind,
           COUNT(*) AS n, SUM(quantity) AS quantity
         FROM purchase_intents WHERE sent_at IS NOT NULL AND sent_at >= ?
         GROUP BY day, status, kind ORDER BY day DESC`,
      )
      .all(from);
    const byDay = new Map<string, DayTotals>();
    for (const row of rows) {
      let totals = byDay.get(row.day);
      if (totals === undefined) {
        totals = { day: row.day, starsSpent: 0, premiumGifts: 0, byStatus: {} };
        byDay.set(row.day, totals);
      }
      totals.byStatus[row.status] = (totals.byStatus[row.status] ?? 0) + row.n;
      if (SPENDING_STATUSES.includes(row.status)) {
        if (row.kind === "stars") totals.starsSpent += row.quantity;
        else totals.premiumGifts += row.n;
      }
    }
    return [...byDay.values()];
  }

  /** The status history of one intent, oldest first (for admins' details and audits). */
  history(
    id: string,
  ): { from: IntentStatus | undefined; to: IntentStatus; at: number; actor: number | undefined }[] {
    return this.#sql
      .prepare<
        [string],
        {
          from_status: IntentStatus | null;
          to_status: IntentStatus;
          at: number;
          actor: number | null;
        }
      >(
        `SELECT from_status, to_status, at, actor FROM purchase_intent_events
         WHERE intent_id = ? ORDER BY seq`,
      )
      .all(id)
      .map((r) => ({
        from: r.from_status ?? undefined,
        to: r.to_status,
        at: r.at,
        actor: r.actor ?? undefined,
      }));
  }

  /**
   * The one place a status changes after the claim. It refuses moves the lifecycle does not
   * allow, and compares-and-sets on the status it read, so a concurrent move cannot be
   * overwritten. Callers run it inside a transaction.
   */
  #move(
    current: PurchaseIntent,
    to: IntentStatus,
    now: number,
    patch: MovePatch,
    actor: number | null,
  ): PurchaseIntent {
    assertMove(current.id, current.status, to);
    const moved = this.#sql
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
      const fresh = this.#mustGet(current.id);
      assertMove(fresh.id, fresh.status, to);
      return this.#move(fresh, to, now, patch, actor);
    }
    this.#event.run(current.id, current.status, to, now, actor);
    return rowToIntent(moved);
  }

  /**
   * One IMMEDIATE transaction committed with synchronous=FULL: the commits that decide or
   * record money (the claim, a queued promise, an outcome, a recovery, a settlement) must
   * survive a power loss once a request may have left. Other commits (drafts, conversation
   * state) keep the connection's cheaper level; see `durably`.
   */
  #durably<T>(commit: () => T): T {
    return durably(this.#db, () => this.#db.transaction(commit).immediate());
  }

  #mustGet(id: string): PurchaseIntent {
    const intent = this.get(id);
    if (intent === undefined) throw new IntentNotFoundError(id);
    return intent;
  }
}

function limit(
  name: Extract<ClaimRefusal, { reason: "limit" }>["limit"],
  max: number,
  used: number,
  resetsAt: number,
): ClaimRefusal {
  return { reason: "limit", limit: name, max, used, resetsAt };
}

/** Maps a client outcome to the status it ends in and what is stored with it. */
function outcomePatch(
  outcome: PurchaseOutcome,
  now: number,
): { to: "succeeded" | "rejected" | "unconfirmed"; patch: MovePatch } {
  switch (outcome.kind) {
    case "success":
      return {
        to: "succeeded",
        patch: { finishedAt: now, response: outcome.body, txHash: outcome.value.txHash },
      };
    case "rejected":
      return {
        to: "rejected",
        patch: {
          finishedAt: now,
          response: { status: outcome.status, body: outcome.body },
          txHash: typeof outcome.body.tx_hash === "string" ? outcome.body.tx_hash : undefined,
          outcomeDetail: outcome.detail,
        },
      };
    case "invalid":
      // Refused by the client before any request went out: nothing was sent or spent.
      return {
        to: "rejected",
        patch: {
          finishedAt: now,
          response: { invalid: outcome.field, detail: outcome.detail },
          outcomeDetail: `not sent: invalid ${outcome.field}`,
        },
      };
    case "ambiguous":
      return {
        to: "unconfirmed",
        patch: {
          finishedAt: now,
          response: {
            cause: outcome.cause,
            status: outcome.status,
            retryAfterSeconds: outcome.retryAfterSeconds,
            body: outcome.body,
          },
          txHash: outcome.txHash,
          outcomeDetail: `${outcome.cause}: ${outcome.detail}`,
        },
      };
  }
}

/** A stored pause reason; anything unreadable (or a pause from before reasons) is an admin's. */
function parseReason(value: string | undefined): PauseReason {
  if (value === undefined) return { source: "admin", detail: undefined };
  try {
    const parsed = JSON.parse(value) as { source?: unknown; detail?: unknown };
    return parsed.source === "breaker"
      ? { source: "breaker", detail: parsed.detail }
      : { source: "admin", detail: undefined };
  } catch {
    return { source: "admin", detail: undefined };
  }
}
