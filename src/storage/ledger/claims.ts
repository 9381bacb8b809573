/**
 * The claim: the one step that lets a draft or a queued confirmation out (→ sending), and the
 * queueing of a confirmation that must wait its turn.
 *
 * Every rule of the claim is in one UPDATE ({@link claimSql}); the reads around it only name
 * the move and explain a refusal. SQLite's single writer makes that UPDATE's reads ("nothing
 * sending, nothing unconfirmed, not paused, under the limits") and its move one indivisible step
 * on any number of connections and processes. PostgreSQL runs writers side by side: under READ
 * COMMITTED each statement reads a snapshot from its start, so two claims of two intents would
 * both see nothing sending and both win, and a claim judged just before a pause committed would
 * still commit after the pause had returned. So the claim, and every write whose effect a
 * claim's rules read (the pause, an outcome, a recovery, a restore, a settlement), pass the
 * ledger gate one at a time (src/storage/db/port.ts `gated`); SERIALIZABLE would make every
 * loser throw, and a claim must answer "busy", not throw. The claim also locks the sender
 * lease's row (the dialect's FOR SHARE) and checks the fence in the same statement, so a takeover
 * waits for a claim being judged and no claim of the old holder commits after it.
 *
 * Only one intent may be `sending` at a time. Were two in flight, the first could come back
 * ambiguous while the second was still queued for the service's quota, and the second would go
 * out after the freeze had begun, against the rule that no new purchase goes out before an
 * ambiguous one is settled (docs/service-contract.md §5.1). One wallet paying one transfer at a
 * time is also what a TON wallet's seqno wants.
 */
import { LIMIT_RULES, type LimitRule, limitRefusal } from "../../ledger/limits.js";
import { assertMove, refusalForIntent } from "../../ledger/transitions.js";
import type {
  ClaimRefusal,
  ClaimResult,
  IntentStatus,
  LeaseFence,
  QueueResult,
  SpendingLimits,
  PurchaseLedger,
} from "../../ledger/types.js";
import { utcDayNumber } from "../../shared/utc-day.js";
import type { Dialect } from "../db/dialect.js";
import type { Statements } from "../db/port.js";
import type { LedgerCore } from "./core.js";
import { PAUSED_KEY, type PauseSwitchRows } from "./pause-switch.js";
import { type LedgerQueryRows, spent } from "./queries.js";
import { type IntentRow, rowToIntent } from "./rows.js";

/** One limit as a condition of the claim: its count plus what it counted today, within max. */
function limitCondition(rule: LimitRule): string {
  const count = rule.kind === "stars" ? "quantity" : "1";
  const column = rule.kind === "stars" ? "quantity" : "purchases";
  const today =
    rule.over === "purchase"
      ? ""
      : ` + ${spent(column, rule.kind, rule.over === "bot" ? "0" : "@userId")}`;
  const exempt = rule.over === "person" ? "CAST(@exempt AS INTEGER) = 1 OR " : "";
  return `AND (kind <> '${rule.kind}' OR ${exempt}${count}${today} <= CAST(@${rule.name} AS BIGINT))`;
}

/**
 * That the fence (`@fenceOwner`, `@fenceEpoch`) still holds the sender lease, judged by the
 * database's clock when the statement runs (inside the gate, the lease's row locked), as the
 * lease itself is written: never a time read before the gate.
 */
const fenceHolds = (dialect: Dialect) => `EXISTS (SELECT 1 FROM sender_lease l
  WHERE l.name = 'sender' AND l.owner = @fenceOwner
    AND l.epoch = CAST(@fenceEpoch AS BIGINT) AND l.expires_at > ${dialect.nowMs})`;

/** The claim, for a draft or a queued confirmation alike: every condition is here. */
const claimSql = (dialect: Dialect) => `
UPDATE purchase_intents
SET status = 'sending', sent_at = @now, updated_at = @now
WHERE id = @id
  AND status IN ('draft', 'queued')
  AND expires_at > @now
  AND requester_user_id = @userId
  AND NOT EXISTS (SELECT 1 FROM ledger_settings WHERE key = '${PAUSED_KEY}' AND value = 'true')
  AND NOT EXISTS (SELECT 1 FROM purchase_intents o WHERE o.status = 'unconfirmed')
  AND NOT EXISTS (SELECT 1 FROM purchase_intents s WHERE s.status = 'sending')
  AND (CAST(@fenceOwner AS TEXT) IS NULL OR ${fenceHolds(dialect)})
  ${LIMIT_RULES.map(limitCondition).join("\n  ")}
RETURNING *
`;

interface FenceParameters {
  fenceOwner: string | null;
  fenceEpoch: number | null;
}

/** The claim, the queueing and the fence (typed by PurchaseLedger's members). */
export class LedgerClaims {
  readonly #core: LedgerCore;
  readonly #pause: PauseSwitchRows;
  readonly #queries: LedgerQueryRows;
  readonly #limits: () => Readonly<SpendingLimits>;
  /** This process's hold on the sender lease, checked by every claim once set. */
  #fence: LeaseFence | undefined;
  readonly #claimSql: string;
  /** The claim's own judgement of the fence, asked alone by {@link holdsLease}. */
  readonly #fenceHoldsSql: string;

  constructor(parts: {
    core: LedgerCore;
    pause: PauseSwitchRows;
    queries: LedgerQueryRows;
    limits: () => Readonly<SpendingLimits>;
  }) {
    this.#core = parts.core;
    this.#pause = parts.pause;
    this.#queries = parts.queries;
    this.#limits = parts.limits;
    this.#claimSql = claimSql(parts.core.db.dialect);
    this.#fenceHoldsSql = `SELECT 1 AS one WHERE ${fenceHolds(parts.core.db.dialect)}`;
  }

  fenceWith = (fence: LeaseFence | undefined): void => {
    this.#fence = fence;
  };

  /**
   * Inside `tx`, a gated transaction: whether this process still holds the lease it is fenced
   * with (always, unfenced), by the claim's own judgement of the fence, the lease's row locked
   * so a takeover waits until `tx` has committed. A method of the class, not of the ledger it
   * makes up: the recovery asks it (./outcomes.ts), and so does the claim's refusal.
   */
  async holdsLease(tx: Statements): Promise<boolean> {
    const fenced = this.#fenced();
    if (fenced.fenceOwner === null) return true;
    await this.#lockLease(tx);
    return (await tx.rows(this.#fenceHoldsSql, { ...fenced })).length > 0;
  }

  /** The claim's fencing parameters: all null (no check) without a fence. */
  #fenced(): FenceParameters {
    return { fenceOwner: this.#fence?.owner ?? null, fenceEpoch: this.#fence?.epoch ?? null };
  }

  /**
   * The lease's row, locked for `tx` (the dialect's FOR SHARE): a takeover (an UPDATE of it)
   * waits until `tx` has committed.
   */
  async #lockLease(tx: Statements): Promise<void> {
    const { forShare } = this.#core.db.dialect;
    await tx.rows(`SELECT 1 AS one FROM sender_lease WHERE name = 'sender'${forShare}`);
  }

  /**
   * Claims a draft or a queued confirmation for sending (→ sending), only if it is still a draft
   * or queued, not expired, asked for by `userId`, purchases are not paused, nothing is
   * unconfirmed or sending, this process holds the lease (when fenced) and every spending limit
   * allows it. Exactly one of any number of concurrent claims wins. A refusal says why.
   */
  claim: PurchaseLedger["claim"] = (id, userId, now = this.#core.clock(), options = {}) => {
    const core = this.#core;
    const limits = this.#limits();
    const exempt = options.isAdmin === true && limits.adminsExempt;
    const fenced = this.#fenced();
    const maxima = Object.fromEntries(LIMIT_RULES.map((rule) => [rule.name, rule.max(limits)]));
    return core.db.gated(async (tx): Promise<ClaimResult> => {
      if (fenced.fenceOwner !== null) await this.#lockLease(tx);
      const [from] = await tx.rows<{ status: IntentStatus }>(
        `SELECT status FROM purchase_intents WHERE id = @id${core.db.dialect.forUpdate}`,
        { id },
      );
      const [claimed] = await tx.rows<IntentRow>(this.#claimSql, {
        ...{ id, userId, now, day: utcDayNumber(now), exempt: exempt ? 1 : 0 },
        ...maxima,
        ...fenced,
      });
      if (claimed === undefined || from === undefined) {
        const ask = { id, userId, now, exempt };
        return { ok: false, ...(await this.#explainRefusal(tx, ask)) };
      }
      assertMove(id, from.status, "sending");
      await core.event(tx, { id, from: from.status, to: "sending", at: now }, userId);
      return { ok: true, intent: rowToIntent(claimed) };
    });
  };

  /** Works out, read-only and inside the claim's transaction, why the claim changed nothing. */
  async #explainRefusal(
    tx: Statements,
    ask: { id: string; userId: number; now: number; exempt: boolean },
  ): Promise<ClaimRefusal> {
    const intent = await this.#core.get(ask.id, tx);
    // A queued confirmation is as claimable as a draft: only the rules below can refuse it.
    const byIntent = refusalForIntent(intent, ask.userId, ask.now, true);
    if (byIntent !== undefined || intent === undefined) return byIntent ?? { reason: "not_found" };
    const paused = await this.#pause.pauseReason(tx);
    if (paused !== undefined) return { reason: "paused", source: paused.source };
    const unconfirmed = await this.#queries.unconfirmedCount(tx);
    if (unconfirmed > 0) return { reason: "frozen", unconfirmed };
    const usage = await this.#queries.usage(ask.userId, ask.now, tx);
    const byLimit = limitRefusal(this.#limits(), intent, usage, ask.exempt, ask.now);
    if (byLimit !== undefined) return byLimit;
    // Last, because it passes by itself in a moment: another purchase is in flight, or this
    // process no longer holds the sender lease (another has taken over: it sends from now on).
    if ((await this.#queries.sendingCount(tx)) > 0) return { reason: "busy" };
    if (!(await this.holdsLease(tx))) return { reason: "busy" };
    // Inside the gate nothing the claim reads can change between the UPDATE and these reads,
    // so reaching here means a condition above disagrees with the SQL: refuse, never allow.
    return { reason: "already_processing" };
  }

  /**
   * Records a person's confirmation that must wait for its turn (another purchase is in
   * flight): draft → queued, only for its requester and while it has not expired. Written,
   * durably, before the person is told "queued", so a crash cannot lose a promise. No rule but
   * these is judged here: the claim that lets it out later re-checks every one of them.
   */
  queue = (id: string, userId: number, now = this.#core.clock()): Promise<QueueResult> => {
    const core = this.#core;
    return core.db.transaction(
      async (tx): Promise<QueueResult> => {
        const [queued] = await tx.rows<IntentRow>(
          `UPDATE purchase_intents SET status = 'queued', queued_at = @now, updated_at = @now
           WHERE id = @id AND status = 'draft' AND requester_user_id = @userId
             AND expires_at > @now
           RETURNING *`,
          { id, userId, now },
        );
        if (queued !== undefined) {
          await core.event(tx, { id, from: "draft", to: "queued", at: now }, userId);
          return { ok: true, intent: rowToIntent(queued) };
        }
        const refusal = refusalForIntent(await core.get(id, tx), userId, now);
        return { ok: false, ...(refusal ?? { reason: "already_processing" }) };
      },
      { durable: true },
    );
  };
}
