/**
 * The claim in PostgreSQL: the step that lets a draft or a queued confirmation out
 * (→ sending), and the queueing of a confirmation that must wait its turn. The claim runs
 * inside the ledger gate (./ledger-core.ts), with the claimed row and the sender lease's row
 * locked, so its checks and its move are one indivisible step across connections and replicas;
 * ./ledger.ts says why one UPDATE alone, enough in SQLite, is not enough here.
 */
import type pg from "pg";
import type {
  ClaimContext,
  ClaimRefusal,
  ClaimResult,
  IntentStatus,
  LeaseFence,
  QueueResult,
  SpendingLimits,
} from "../../ledger/types.js";
import { utcDayNumber } from "../../shared/utc-day.js";
import { assertMove, refusalForStatus } from "../../ledger/transitions.js";
import { type IntentRow, rowToIntent } from "../sqlite/rows.js";
import type { PostgresLedgerCore } from "./ledger-core.js";
import type { PostgresLedgerQueries } from "./ledger-queries.js";
import { PAUSED_KEY, spent } from "./ledger-sql.js";
import type { PostgresPauseSwitch } from "./pause-switch.js";
import { POSTGRES_NOW_MS } from "./sender-lease.js";
import { rows } from "./sql.js";

/**
 * Every rule of the claim, as in SQLite's one statement (src/storage/sqlite/claims.ts): the
 * UPDATE alone decides; the reads around it only name the move and explain a refusal. Only one
 * intent may be `sending` at a time (see the SQLite claim for why). The fence judges the lease's
 * expiry by the server's clock at the moment the UPDATE runs, inside the gate with the lease's
 * row locked, as the lease itself is written (./sender-lease.ts): never a time this process read
 * before it waited for the gate.
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
  AND (@fenceOwner::text IS NULL OR EXISTS (SELECT 1 FROM sender_lease l WHERE l.name = 'sender'
        AND l.owner = @fenceOwner AND l.epoch = @fenceEpoch::bigint
        AND l.expires_at > ${POSTGRES_NOW_MS}))
  AND (kind <> 'stars' OR quantity <= @starsPerPurchase::bigint)
  AND (kind <> 'stars' OR @exempt::integer = 1
        OR quantity + ${spent("quantity", "stars", "@userId")} <= @starsPerUserDay::bigint)
  AND (kind <> 'stars' OR quantity + ${spent("quantity", "stars", "0")} <= @starsPerBotDay::bigint)
  AND (kind <> 'premium' OR @exempt = 1
        OR 1 + ${spent("purchases", "premium", "@userId")} <= @premiumPerUserDay::bigint)
  AND (kind <> 'premium' OR 1 + ${spent("purchases", "premium", "0")} <= @premiumPerBotDay::bigint)
RETURNING *
`;

interface FenceParameters {
  fenceOwner: string | null;
  fenceEpoch: number | null;
}

export class PostgresClaims {
  readonly #core: PostgresLedgerCore;
  readonly #pause: PostgresPauseSwitch;
  readonly #queries: PostgresLedgerQueries;
  readonly #limits: () => Readonly<SpendingLimits>;
  /** This process's hold on the sender lease, checked by every claim once set. */
  #fence: LeaseFence | undefined;

  constructor(parts: {
    core: PostgresLedgerCore;
    pause: PostgresPauseSwitch;
    queries: PostgresLedgerQueries;
    limits: () => Readonly<SpendingLimits>;
  }) {
    this.#core = parts.core;
    this.#pause = parts.pause;
    this.#queries = parts.queries;
    this.#limits = parts.limits;
  }

  fenceWith(fence: LeaseFence | undefined): void {
    this.#fence = fence;
  }

  #fenceParameters(): FenceParameters {
    const fence = this.#fence;
    return fence === undefined
      ? { fenceOwner: null, fenceEpoch: null }
      : { fenceOwner: fence.owner, fenceEpoch: fence.epoch };
  }

  /**
   * Claims a draft or a queued confirmation for sending (→ sending), only if it is still a
   * draft or queued, not expired, asked for by `userId`, purchases are not paused, nothing is
   * unconfirmed or sending, this process holds the lease (when fenced) and every spending limit
   * allows it. Exactly one of any number of concurrent claims wins. A refusal says why.
   */
  claim(
    id: string,
    userId: number,
    now: number = this.#core.clock(),
    options: ClaimContext = {},
  ): Promise<ClaimResult> {
    const exempt = options.isAdmin === true && this.#limits().adminsExempt;
    const fence = this.#fenceParameters();
    return this.#core.gated(async (client): Promise<ClaimResult> => {
      // The lease's row, locked for this transaction: a takeover (an UPDATE of it) waits until
      // this claim has committed, so once another process holds the lease no claim judged
      // under the old holder can still commit.
      if (fence.fenceOwner !== null) {
        await client.query("SELECT 1 FROM sender_lease WHERE name = 'sender' FOR SHARE");
      }
      const [current] = await rows<{ status: IntentStatus }>(
        client,
        "SELECT status FROM purchase_intents WHERE id = @id FOR UPDATE",
        { id },
      );
      const limits = this.#limits();
      const [claimed] = await rows<IntentRow>(client, CLAIM_SQL, {
        id,
        userId,
        now,
        day: utcDayNumber(now),
        exempt: exempt ? 1 : 0,
        starsPerPurchase: limits.starsPerPurchase,
        starsPerUserDay: limits.starsPerUserDay,
        starsPerBotDay: limits.starsPerBotDay,
        premiumPerUserDay: limits.premiumPerUserDay,
        premiumPerBotDay: limits.premiumPerBotDay,
        ...fence,
      });
      if (claimed !== undefined && current !== undefined) {
        assertMove(id, current.status, "sending");
        await this.#core.event(
          client,
          { id, from: current.status, to: "sending", at: now },
          userId,
        );
        return { ok: true, intent: rowToIntent(claimed) };
      }
      return {
        ok: false,
        ...(await this.#explainRefusal(client, { id, userId, now, exempt }, fence)),
      };
    });
  }

  /** Works out, read-only and inside the claim's transaction, why the claim changed nothing. */
  async #explainRefusal(
    client: pg.PoolClient,
    ask: { id: string; userId: number; now: number; exempt: boolean },
    fence: FenceParameters,
  ): Promise<ClaimRefusal> {
    const intent = await this.#core.get(ask.id, client);
    if (intent === undefined) return { reason: "not_found" };
    if (intent.requester.userId !== ask.userId) return { reason: "not_owner" };
    // A queued confirmation is as claimable as a draft: only the rules below can refuse it.
    const byStatus = refusalForStatus(
      intent.status === "queued" ? "draft" : intent.status,
      intent.expiresAt,
      ask.now,
    );
    if (byStatus !== undefined) return byStatus;
    const pause = await this.#pause.pauseReason(client);
    if (pause !== undefined) return { reason: "paused", source: pause.source };
    const unconfirmed = await this.#queries.unconfirmedCount(client);
    if (unconfirmed > 0) return { reason: "frozen", unconfirmed };
    const usage = await this.#queries.usage(ask.userId, ask.now, client);
    const byLimit = limitRefusal(this.#limits(), intent, usage, ask);
    if (byLimit !== undefined) return byLimit;
    // Last, because it passes by itself in a moment: another purchase is in flight, or this
    // process no longer holds the sender lease (another has taken over: it sends from now on).
    if ((await this.#queries.sendingCount(client)) > 0) return { reason: "busy" };
    if (!(await holdsLease(client, fence))) return { reason: "busy" };
    // Inside the gate nothing the claim reads can change between the UPDATE and these reads,
    // so reaching here means a condition above disagrees with the SQL: refuse, never allow.
    return { reason: "already_processing" };
  }

  /**
   * Records a person's confirmation that must wait for its turn: draft → queued, only for its
   * requester and while it has not expired. The claim that lets it out re-checks every rule.
   */
  queue(id: string, userId: number, now: number = this.#core.clock()): Promise<QueueResult> {
    return this.#core.transaction(async (client): Promise<QueueResult> => {
      const [queued] = await rows<IntentRow>(
        client,
        `UPDATE purchase_intents SET status = 'queued', queued_at = @now, updated_at = @now
         WHERE id = @id AND status = 'draft' AND requester_user_id = @userId AND expires_at > @now
         RETURNING *`,
        { id, userId, now },
      );
      if (queued !== undefined) {
        await this.#core.event(client, { id, from: "draft", to: "queued", at: now }, userId);
        return { ok: true, intent: rowToIntent(queued) };
      }
      const intent = await this.#core.get(id, client);
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

/** Whether the fence, if any, still holds (read-only: to explain a refused claim). */
async function holdsLease(client: pg.PoolClient, fence: FenceParameters): Promise<boolean> {
  if (fence.fenceOwner === null) return true;
  const found = await rows(
    client,
    `SELECT 1 FROM sender_lease WHERE name = 'sender' AND owner = @fenceOwner
       AND epoch = @fenceEpoch AND expires_at > ${POSTGRES_NOW_MS}`,
    { ...fence },
  );
  return found.length > 0;
}

/** The spending limit that refuses this intent, if one does (the claim's order of checks). */
function limitRefusal(
  l: Readonly<SpendingLimits>,
  intent: { kind: "stars" | "premium"; quantity: number },
  usage: {
    starsBot: number;
    premiumBot: number;
    starsUser?: number | undefined;
    premiumUser?: number | undefined;
    resetsAt: number;
  },
  ask: { now: number; exempt: boolean },
): ClaimRefusal | undefined {
  const resetsAt = usage.resetsAt;
  if (intent.kind === "stars") {
    if (intent.quantity > l.starsPerPurchase) {
      // Not a daily limit: it never resets by waiting, so "resets" is now.
      return limit("stars_per_purchase", l.starsPerPurchase, 0, ask.now);
    }
    const starsUser = usage.starsUser ?? 0;
    if (!ask.exempt && starsUser + intent.quantity > l.starsPerUserDay) {
      return limit("stars_per_user_day", l.starsPerUserDay, starsUser, resetsAt);
    }
    if (usage.starsBot + intent.quantity > l.starsPerBotDay) {
      return limit("stars_per_bot_day", l.starsPerBotDay, usage.starsBot, resetsAt);
    }
    return undefined;
  }
  const premiumUser = usage.premiumUser ?? 0;
  if (!ask.exempt && premiumUser + 1 > l.premiumPerUserDay) {
    return limit("premium_per_user_day", l.premiumPerUserDay, premiumUser, resetsAt);
  }
  if (usage.premiumBot + 1 > l.premiumPerBotDay) {
    return limit("premium_per_bot_day", l.premiumPerBotDay, usage.premiumBot, resetsAt);
  }
  return undefined;
}

function limit(
  name: Extract<ClaimRefusal, { reason: "limit" }>["limit"],
  max: number,
  used: number,
  resetsAt: number,
): ClaimRefusal {
  return { reason: "limit", limit: name, max, used, resetsAt };
}
