/**
 * Outcomes in PostgreSQL, as in SQLite (src/storage/sqlite/outcomes.ts): what a purchase's
 * request came to, a late answer (settling an intent recovered meanwhile, or kept as evidence),
 * the recovery of requests left in flight, and an admin's settlement (a restored backup's
 * marks: ./restored.ts). Each passes the ledger gate, since each changes what a claim's
 * rules read (something `sending`, something `unconfirmed`, the day's totals).
 */
import type pg from "pg";
import type { PurchaseOutcome } from "../../service/types.js";
import { lateAnswer } from "../../ledger/transitions.js";
import type { PurchaseIntent, RecordedOutcome } from "../../ledger/types.js";
import { isDefinite, lateEvidence, latePatch, outcomePatch } from "../sqlite/outcomes.js";
import type { MovePatch, PostgresLedgerCore } from "./ledger-core.js";
import type { PostgresLedgerQueries } from "./ledger-queries.js";
import { rows } from "./sql.js";

type OutcomeStatus = "succeeded" | "rejected" | "unconfirmed";

export class PostgresOutcomes {
  readonly #core: PostgresLedgerCore;
  readonly #queries: PostgresLedgerQueries;

  constructor(core: PostgresLedgerCore, queries: PostgresLedgerQueries) {
    this.#core = core;
    this.#queries = queries;
  }

  /** A response's outcome: sending → succeeded | rejected | unconfirmed. */
  recordOutcome(
    id: string,
    outcome: PurchaseOutcome,
    now: number = this.#core.clock(),
  ): Promise<RecordedOutcome> {
    const { to, patch } = outcomePatch(outcome, now);
    return this.#record(id, to, patch, now, isDefinite(outcome));
  }

  /** An outcome whose first write failed: sending → unconfirmed, the answer kept as evidence. */
  recordUnwrittenOutcome(
    id: string,
    outcome: PurchaseOutcome,
    answeredAt: number,
    now: number = this.#core.clock(),
  ): Promise<RecordedOutcome> {
    const { to, patch } = outcomePatch(outcome, answeredAt);
    const detail = patch.outcomeDetail === undefined ? "" : ` (${patch.outcomeDetail})`;
    return this.#record(
      id,
      "unconfirmed",
      {
        finishedAt: answeredAt,
        response: { unrecordedOutcome: to, answeredAt, recordedAt: now, response: patch.response },
        txHash: patch.txHash,
        outcomeDetail: `outcome_unrecorded: ${to}${detail}`,
      },
      now,
      false,
    );
  }

  /** A claimed request that never left: sending → rejected, with a "not sent" detail. */
  recordNotSent(
    id: string,
    detail: string,
    now: number = this.#core.clock(),
  ): Promise<RecordedOutcome> {
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
  ): Promise<RecordedOutcome> {
    return this.#core.gated(async (client): Promise<RecordedOutcome> => {
      const current = await this.#core.lock(id, client);
      const late = lateAnswer(current.status, to, definite);
      if (late === undefined) {
        return {
          recorded: true,
          intent: await this.#core.move(client, current, to, now, patch, null),
        };
      }
      // Recovered as interrupted while this response was on its way (and perhaps settled by an
      // admin since).
      if (late === "settled") {
        const settled = await this.#core.move(
          client,
          current,
          to,
          now,
          latePatch(to, patch, now),
          null,
        );
        return { recorded: true, late, intent: settled };
      }
      // The status stays; the late answer is kept as evidence unless one is held already.
      await rows(
        client,
        `UPDATE purchase_intents SET response = @response, tx_hash = COALESCE(@txHash, tx_hash),
           outcome_detail = @detail, updated_at = @now WHERE id = @id AND response IS NULL`,
        { id, now, ...lateEvidence(to, patch) },
      );
      return { recorded: false, late, intent: await this.#core.mustGet(id, client) };
    });
  }

  /** At start: every `sending` intent becomes unconfirmed (never resent). */
  recoverInterrupted(now: number = this.#core.clock()): Promise<PurchaseIntent[]> {
    return this.#core.gated((client) =>
      this.#makeUnconfirmed(
        client,
        "status = 'sending' ORDER BY sent_at, seq",
        "interrupted: the process stopped while the purchase request was in flight",
        now,
      ),
    );
  }

  /** Moves every intent `where` selects to unconfirmed with `detail` (inside a transaction). */
  async #makeUnconfirmed(
    client: pg.PoolClient,
    where: string,
    detail: string,
    now: number,
  ): Promise<PurchaseIntent[]> {
    const found = await rows<{ id: string }>(
      client,
      `SELECT id FROM purchase_intents WHERE ${where} FOR UPDATE`,
    );
    const moved: PurchaseIntent[] = [];
    for (const { id } of found) {
      const current = await this.#core.lock(id, client);
      moved.push(
        await this.#core.move(
          client,
          current,
          "unconfirmed",
          now,
          { finishedAt: now, outcomeDetail: detail },
          null,
        ),
      );
    }
    return moved;
  }

  /** An admin's reconciliation: unconfirmed → delivered | not_delivered. */
  resolve(
    id: string,
    adminId: number,
    delivered: boolean,
    now: number = this.#core.clock(),
  ): Promise<{ intent: PurchaseIntent; unconfirmedLeft: number }> {
    return this.#core.gated(async (client) => {
      const intent = await this.#core.move(
        client,
        await this.#core.lock(id, client),
        delivered ? "delivered" : "not_delivered",
        now,
        { resolvedBy: adminId, resolvedAt: now },
        adminId,
      );
      return { intent, unconfirmedLeft: await this.#queries.unconfirmedCount(client) };
    });
  }
}
