/**
 * The claim in SQLite: the one statement that lets a draft or a queued confirmation out
 * (→ sending), and the queueing of a confirmation that must wait its turn. The claim checks
 * every rule inside that statement, so SQLite's write lock makes the check and the move one
 * indivisible step on any number of connections and processes.
 */
import type {
  ClaimContext,
  ClaimRefusal,
  ClaimResult,
  LeaseFence,
  QueueResult,
  SpendingLimits,
} from "../../ledger/types.js";
import { utcDayNumber } from "../../shared/utc-day.js";
import { assertMove, refusalForStatus } from "../../ledger/transitions.js";
import type { IntentStatus } from "../../ledger/types.js";
import type { LedgerCore } from "./ledger-core.js";
import type { SqliteLedgerQueries } from "./ledger-queries.js";
import { PAUSED_KEY, spent } from "./ledger-sql.js";
import type { SqlitePauseSwitch } from "./pause-switch.js";
import { type IntentRow, rowToIntent } from "./rows.js";
import { SQLITE_NOW_MS } from "./sender-lease.js";

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
 *
 * The fence reads the lease's expiry against SQLite's own clock, as the lease itself is
 * written (./sender-lease.ts), at the moment the statement runs under the write lock.
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
        AND l.owner = @fenceOwner AND l.epoch = @fenceEpoch AND l.expires_at > ${SQLITE_NOW_MS}))
  AND (kind <> 'stars' OR quantity <= @starsPerPurchase)
  AND (kind <> 'stars' OR @exempt = 1
        OR quantity + ${spent("quantity", "stars", "@userId")} <= @starsPerUserDay)
  AND (kind <> 'stars' OR quantity + ${spent("quantity", "stars", "0")} <= @starsPerBotDay)
  AND (kind <> 'premium' OR @exempt = 1
        OR 1 + ${spent("purchases", "premium", "@userId")} <= @premiumPerUserDay)
  AND (kind <> 'premium' OR 1 + ${spent("purchases", "premium", "0")} <= @premiumPerBotDay)
RETURNING *
`;

export class SqliteClaims {
  readonly #core: LedgerCore;
  readonly #pause: SqlitePauseSwitch;
  readonly #queries: SqliteLedgerQueries;
  readonly #limits: () => Readonly<SpendingLimits>;
  /** This process's hold on the sender lease, checked by every claim once set. */
  #fence: LeaseFence | undefined;
  readonly #claim;
  readonly #status;

  constructor(parts: {
    core: LedgerCore;
    pause: SqlitePauseSwitch;
    queries: SqliteLedgerQueries;
    limits: () => Readonly<SpendingLimits>;
  }) {
    this.#core = parts.core;
    this.#pause = parts.pause;
    this.#queries = parts.queries;
    this.#limits = parts.limits;
    const db = parts.core.db;
    this.#status = db
      .prepare<[string], IntentStatus>("SELECT status FROM purchase_intents WHERE id = ?")
      .pluck();
    // With RETURNING, the claim that wins hands back the claimed row: no second read.
    this.#claim = db.prepare<Record<string, number | string | null>, IntentRow>(CLAIM_SQL);
  }

  fenceWith(fence: LeaseFence | undefined): void {
    this.#fence = fence;
  }

  /** The claim's fencing parameters: both null (no check) without a fence. */
  #fenceParameters(): { fenceOwner: string | null; fenceEpoch: number | null } {
    const fence = this.#fence;
    return fence === undefined
      ? { fenceOwner: null, fenceEpoch: null }
      : { fenceOwner: fence.owner, fenceEpoch: fence.epoch };
  }

  /** Whether the fence, if any, still holds (read-only: to explain a refused claim). */
  #holdsLease(): boolean {
    const { fenceOwner, fenceEpoch } = this.#fenceParameters();
    if (fenceOwner === null) return true;
    return (
      this.#core.sql
        .prepare<{ owner: string; epoch: number | null }, number>(
          `SELECT 1 FROM sender_lease WHERE name = 'sender' AND owner = @owner
             AND epoch = @epoch AND expires_at > ${SQLITE_NOW_MS}`,
        )
        .pluck()
        .get({ owner: fenceOwner, epoch: fenceEpoch }) !== undefined
    );
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
    now: number = this.#core.clock(),
    options: ClaimContext = {},
  ): ClaimResult {
    const exempt = options.isAdmin === true && this.#limits().adminsExempt ? 1 : 0;
    // IMMEDIATE: take the write lock first, so the reads around the UPDATE see the same state
    // it saw. The UPDATE alone decides; the reads only name the move and explain a refusal.
    const outcome = this.#core.durably((): ClaimResult => {
      const from = this.#status.get(id) ?? "draft";
      const claimed = this.#claim.get({
        id,
        userId,
        now,
        day: utcDayNumber(now),
        exempt,
        starsPerPurchase: this.#limits().starsPerPurchase,
        starsPerUserDay: this.#limits().starsPerUserDay,
        starsPerBotDay: this.#limits().starsPerBotDay,
        premiumPerUserDay: this.#limits().premiumPerUserDay,
        premiumPerBotDay: this.#limits().premiumPerBotDay,
        ...this.#fenceParameters(),
      });
      if (claimed !== undefined) {
        assertMove(id, from, "sending");
        this.#core.event(id, from, "sending", now, userId);
        return { ok: true, intent: rowToIntent(claimed) };
      }
      return { ok: false, ...this.#explainRefusal(id, userId, now, exempt === 1) };
    });
    return outcome;
  }

  /** Works out, read-only, why the claim statement changed nothing. */
  #explainRefusal(id: string, userId: number, now: number, exempt: boolean): ClaimRefusal {
    const intent = this.#core.get(id);
    if (intent === undefined) return { reason: "not_found" };
    if (intent.requester.userId !== userId) return { reason: "not_owner" };
    // A queued confirmation is as claimable as a draft: only the rules below can refuse it.
    const byStatus = refusalForStatus(
      intent.status === "queued" ? "draft" : intent.status,
      intent.expiresAt,
      now,
    );
    if (byStatus !== undefined) return byStatus;
    const pause = this.#pause.pauseReason();
    if (pause !== undefined) return { reason: "paused", source: pause.source };
    const unconfirmed = this.#queries.unconfirmedCount();
    if (unconfirmed > 0) return { reason: "frozen", unconfirmed };
    const usage = this.#queries.usage(userId, now);
    const resetsAt = usage.resetsAt;
    const l = this.#limits();
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
    if (this.#queries.sendingCount() > 0 || !this.#holdsLease()) return { reason: "busy" };
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
  queue(id: string, userId: number, now: number = this.#core.clock()): QueueResult {
    return this.#core.durably((): QueueResult => {
      const changed = this.#core.sql
        .prepare(
          `UPDATE purchase_intents SET status = 'queued', queued_at = @now, updated_at = @now
             WHERE id = @id AND status = 'draft' AND requester_user_id = @userId
               AND expires_at > @now`,
        )
        .run({ id, userId, now }).changes;
      if (changed === 1) {
        this.#core.event(id, "draft", "queued", now, userId);
        return { ok: true, intent: this.#core.mustGet(id) };
      }
      const intent = this.#core.get(id);
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
}

function limit(
  name: Extract<ClaimRefusal, { reason: "limit" }>["limit"],
  max: number,
  used: number,
  resetsAt: number,
): ClaimRefusal {
  return { reason: "limit", limit: name, max, used, resetsAt };
}
