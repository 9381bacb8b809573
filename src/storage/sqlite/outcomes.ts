/**
 * Outcomes in SQLite: what a purchase's request came to (→ succeeded, rejected or
 * unconfirmed), a late answer (settling an intent recovered meanwhile, or kept as evidence),
 * the recovery of requests left in flight by a process that died, and an admin's settlement of
 * an unknown outcome (a restored backup's marks: ./restored.ts).
 */
import { lateAnswer } from "../../ledger/transitions.js";
import type { PurchaseOutcome } from "../../service/types.js";
import type { PurchaseIntent, RecordedOutcome } from "../../ledger/types.js";
import type { LedgerCore, MovePatch } from "./ledger-core.js";
import type { SqliteLedgerQueries } from "./ledger-queries.js";

export class SqliteOutcomes {
  readonly #core: LedgerCore;
  readonly #queries: SqliteLedgerQueries;

  constructor(core: LedgerCore, queries: SqliteLedgerQueries) {
    this.#core = core;
    this.#queries = queries;
  }

  /**
   * Writes a purchase's outcome right after the response: success → succeeded (tx_hash and
   * the full body), rejected or invalid → rejected, ambiguous → unconfirmed (cause, body and
   * tx_hash kept). The intent must be `sending`.
   */
  recordOutcome(
    id: string,
    outcome: PurchaseOutcome,
    now: number = this.#core.clock(),
  ): RecordedOutcome {
    const { to, patch } = outcomePatch(outcome, now);
    return this.#record(id, to, patch, now, isDefinite(outcome));
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
    now: number = this.#core.clock(),
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
      false,
    );
  }

  /**
   * Writes that a claimed intent's request never left (cancelled while it waited for the
   * service's quota at shutdown, or refused by the client's own checks): `sending` → rejected,
   * with `detail` saying so. Nothing was sent, so nothing can have been spent.
   */
  recordNotSent(id: string, detail: string, now: number = this.#core.clock()): RecordedOutcome {
    return this.#record(
      id,
      "rejected",
      { finishedAt: now, response: { notSent: detail }, outcomeDetail: detail },
      now,
      false,
    );
  }

  /** `definite`: the service's own success or refusal, which may settle a late answer. */
  #record(
    id: string,
    to: OutcomeStatus,
    patch: MovePatch,
    now: number,
    definite: boolean,
  ): RecordedOutcome {
    return this.#core.durably((): RecordedOutcome => {
      const current = this.#core.mustGet(id);
      const late = lateAnswer(current.status, to, definite);
      if (late === undefined) {
        return { recorded: true, intent: this.#core.move(current, to, now, patch, null) };
      }
      // Recovered as interrupted while this response was on its way (and perhaps settled by
      // an admin since).
      if (late === "settled") {
        const settled = this.#core.move(current, to, now, latePatch(to, patch, now), null);
        return { recorded: true, late, intent: settled };
      }
      // The status stays; the late answer is kept as evidence unless one is held already.
      this.#core.sql
        .prepare(
          `UPDATE purchase_intents SET response = @response, tx_hash = COALESCE(@txHash, tx_hash),
               outcome_detail = @detail, updated_at = @now WHERE id = @id AND response IS NULL`,
        )
        .run({ id, now, ...lateEvidence(to, patch) });
      return { recorded: false, late, intent: this.#core.mustGet(id) };
    });
  }

  /**
   * At start: every intent still `sending` belongs to a process that died mid-request. Its
   * outcome is unknown, so it becomes unconfirmed and is never sent again.
   */
  recoverInterrupted(now: number = this.#core.clock()): PurchaseIntent[] {
    return this.#core.durably(() =>
      this.#makeUnconfirmed(
        "status = 'sending' ORDER BY sent_at",
        "interrupted: the process stopped while the purchase request was in flight",
        now,
      ),
    );
  }

  /** Moves every intent `where` selects to unconfirmed with `detail` (inside a transaction). */
  #makeUnconfirmed(where: string, detail: string, now: number): PurchaseIntent[] {
    const rows = this.#core.sql
      .prepare<[], { id: string }>(`SELECT id FROM purchase_intents WHERE ${where}`)
      .all();
    return rows.map(({ id }) =>
      this.#core.move(
        this.#core.mustGet(id),
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
    now: number = this.#core.clock(),
  ): { intent: PurchaseIntent; unconfirmedLeft: number } {
    return this.#core.durably(() => {
      const intent = this.#core.move(
        this.#core.mustGet(id),
        delivered ? "delivered" : "not_delivered",
        now,
        { resolvedBy: adminId, resolvedAt: now },
        adminId,
      );
      return { intent, unconfirmedLeft: this.#queries.unconfirmedCount() };
    });
  }
}

type OutcomeStatus = "succeeded" | "rejected" | "unconfirmed";

/** The service's own success or refusal: an answer that may settle an intent recovered meanwhile. */
export function isDefinite(outcome: PurchaseOutcome): boolean {
  return outcome.kind === "success" || outcome.kind === "rejected";
}

/**
 * A late answer as evidence (shared with the PostgreSQL ledger): the outcome it would have
 * written and the answer itself, its tx_hash, and a detail for logs and audits.
 */
export function lateEvidence(
  to: OutcomeStatus,
  patch: MovePatch,
): { response: string; txHash: string | null; detail: string } {
  return {
    response: JSON.stringify({ lateOutcome: to, response: patch.response ?? null }),
    txHash: patch.txHash ?? null,
    detail: `A response arrived after the restart's recovery: ${to}.`,
  };
}

/**
 * What a late definite answer writes as it settles an intent still unconfirmed: the answer
 * (marked late), its tx_hash, and when it settled it, with no admin (shared with PostgreSQL).
 */
export function latePatch(to: OutcomeStatus, patch: MovePatch, now: number): MovePatch {
  return {
    finishedAt: now,
    response: { lateOutcome: to, response: patch.response ?? null },
    txHash: patch.txHash,
    outcomeDetail: `settled by a late answer: ${to}${patch.outcomeDetail === undefined ? "" : ` (${patch.outcomeDetail})`}`,
    resolvedAt: now,
  };
}

/** The status and the fields an outcome writes (shared with the PostgreSQL ledger). */
export function outcomePatch(
  outcome: PurchaseOutcome,
  now: number,
): { to: OutcomeStatus; patch: MovePatch } {
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
