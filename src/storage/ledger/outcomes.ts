/**
 * Outcomes: what a purchase's request came to (→ succeeded, rejected or unconfirmed), a late
 * answer kept as evidence, the recovery of requests left in flight by a process that died or by
 * a restored backup, and an admin's settlement of an unknown outcome. Each passes the ledger
 * gate, durably, since each changes what a claim's rules read (something `sending`, something
 * `unconfirmed`, the day's totals) and none may roll back once a request may have left.
 */
import { LeaseNotHeldError } from "../../ledger/errors.js";
import { restoredDetail } from "../../ledger/restore.js";
import { lateAnswer } from "../../ledger/transitions.js";
import type {
  PurchaseIntent,
  PurchaseLedger,
  RecordedOutcome,
  RestoreMarks,
} from "../../ledger/types.js";
import type { PurchaseOutcome } from "../../service/types.js";
import type { Statements } from "../db/port.js";
import type { LedgerCore, MovePatch } from "./core.js";
import type { LedgerQueryRows } from "./queries.js";
import { closeWhatWasOpen } from "./restored.js";

type OutcomeStatus = "succeeded" | "rejected" | "unconfirmed";

type OutcomeMoves = Pick<
  PurchaseLedger,
  | "recordOutcome"
  | "recordUnwrittenOutcome"
  | "recordNotSent"
  | "recoverInterrupted"
  | "markRestored"
  | "resolve"
>;

export class LedgerOutcomes implements OutcomeMoves {
  readonly #core: LedgerCore;
  readonly #queries: LedgerQueryRows;
  /** Inside a gated transaction: whether this process still holds its lease (./claims.ts). */
  readonly #holdsLease: (tx: Statements) => Promise<boolean>;

  constructor(
    core: LedgerCore,
    queries: LedgerQueryRows,
    holdsLease: (tx: Statements) => Promise<boolean>,
  ) {
    this.#core = core;
    this.#queries = queries;
    this.#holdsLease = holdsLease;
  }

  /**
   * Writes a purchase's outcome right after the response: success → succeeded (tx_hash and the
   * full body), rejected or invalid → rejected, ambiguous → unconfirmed (cause, body and tx_hash
   * kept). The intent must be `sending`.
   */
  recordOutcome = (
    id: string,
    outcome: PurchaseOutcome,
    now = this.#core.clock(),
  ): Promise<RecordedOutcome> => {
    const { to, patch } = outcomePatch(outcome, now);
    // The service's own success or refusal may settle an intent a recovery made unconfirmed.
    const definite = outcome.kind === "success" || outcome.kind === "rejected";
    return this.#record(id, to, patch, now, definite);
  };

  /**
   * Writes the outcome of a request whose first outcome write failed (the database refused
   * writes for a while after the answer came): `sending` → unconfirmed, whatever the service
   * answered. By then the admins were told from memory, and the person may have been told; an
   * admin confirms it against the evidence kept here (the service's answer, its tx_hash, when
   * it came and when the ledger could record it). Never sends anything.
   */
  recordUnwrittenOutcome = (
    id: string,
    outcome: PurchaseOutcome,
    answeredAt: number,
    now = this.#core.clock(),
  ): Promise<RecordedOutcome> => {
    const { to, patch } = outcomePatch(outcome, answeredAt);
    const detail = patch.outcomeDetail === undefined ? "" : ` (${patch.outcomeDetail})`;
    const response = {
      unrecordedOutcome: to,
      answeredAt,
      recordedAt: now,
      response: patch.response,
    };
    return this.#record(
      id,
      "unconfirmed",
      {
        finishedAt: answeredAt,
        response,
        txHash: patch.txHash,
        outcomeDetail: `outcome_unrecorded: ${to}${detail}`,
      },
      now,
    );
  };

  /**
   * Writes that a claimed intent's request never left (cancelled while it waited for the
   * service's quota at shutdown, or refused by the client's own checks): `sending` → rejected,
   * with `detail` saying so. Nothing was sent, so nothing can have been spent.
   */
  recordNotSent = (
    id: string,
    detail: string,
    now = this.#core.clock(),
  ): Promise<RecordedOutcome> => {
    const patch = { finishedAt: now, response: { notSent: detail }, outcomeDetail: detail };
    return this.#record(id, "rejected", patch, now);
  };

  /** `definite`: the service's own success or refusal, which may settle a late answer. */
  #record(
    id: string,
    to: OutcomeStatus,
    patch: MovePatch,
    now: number,
    definite = false,
  ): Promise<RecordedOutcome> {
    const core = this.#core;
    return core.db.gated(async (tx): Promise<RecordedOutcome> => {
      const current = await core.lock(id, tx);
      const late = lateAnswer(current.status, to, definite);
      if (late === undefined) {
        return { recorded: true, intent: await core.move(tx, current, to, now, patch, null) };
      }
      // Recovered as interrupted while this response was on its way (and perhaps settled by an
      // admin since): a definite answer settles an intent still unconfirmed, with no admin.
      const response = { lateOutcome: to, response: patch.response ?? null };
      if (late === "settled") {
        const detail = patch.outcomeDetail === undefined ? "" : ` (${patch.outcomeDetail})`;
        const settled = await core.move(
          tx,
          current,
          to,
          now,
          {
            ...{ finishedAt: now, response, txHash: patch.txHash, resolvedAt: now },
            outcomeDetail: `settled by a late answer: ${to}${detail}`,
          },
          null,
        );
        return { recorded: true, late, intent: settled };
      }
      // The status stays; the late answer is kept as evidence unless one is held already.
      await tx.run(
        `UPDATE purchase_intents SET response = @response, tx_hash = COALESCE(@txHash, tx_hash),
           outcome_detail = @detail, updated_at = @now WHERE id = @id AND response IS NULL`,
        {
          ...{ id, now, response: JSON.stringify(response), txHash: patch.txHash ?? null },
          detail: `A response arrived after the restart's recovery: ${to}.`,
        },
      );
      return { recorded: false, late, intent: await core.mustGet(id, tx) };
    });
  }

  /**
   * At start: every intent still `sending` belongs to a process that died mid-request. Its
   * outcome is unknown, so it becomes unconfirmed and is never sent again. Fenced, only while
   * this process still holds the sender lease, in the same transaction (the lease's row locked):
   * a start stalled past its lease would otherwise make the next holder's purchase on its way
   * unknown, and an admin could settle it "not delivered" before it reaches the service (issue
   * #35). It then throws LeaseNotHeldError and moves nothing.
   */
  recoverInterrupted = (now = this.#core.clock()): Promise<PurchaseIntent[]> => {
    const { seq } = this.#core.db.dialect;
    return this.#core.db.gated(async (tx) => {
      if (!(await this.#holdsLease(tx))) throw new LeaseNotHeldError();
      return this.#makeUnconfirmed(
        tx,
        `status = 'sending' ORDER BY sent_at, ${seq}`,
        "interrupted: the process stopped while the purchase request was in flight",
        now,
      );
    });
  };

  /**
   * After a restore from a backup (src/ledger/restore.ts), in one gated transaction: every
   * purchase the backup shows in flight (`sending`) or promised (`queued`) may have been sent
   * after the backup was taken, so each becomes unconfirmed, for an admin to settle, never sent
   * again; what else the backup shows open is closed (./restored.ts). The sender lease is
   * cleared, its epoch moved far past any a process of before the restore could still hold.
   */
  markRestored = (
    backupTakenAt: string | undefined,
    now = this.#core.clock(),
  ): Promise<RestoreMarks> => {
    const { seq } = this.#core.db.dialect;
    return this.#core.db.gated(async (tx) => {
      await tx.run(
        "UPDATE sender_lease SET owner = NULL, expires_at = 0, epoch = epoch + 1000 WHERE name = 'sender'",
      );
      const detail = restoredDetail(backupTakenAt);
      const where = `status IN ('sending', 'queued') ORDER BY ${seq}`;
      const unknown = await this.#makeUnconfirmed(tx, where, detail, now);
      const marks = { backupTakenAt, now, unknown: unknown.length };
      return { unknown, notice: await closeWhatWasOpen(this.#core, tx, marks) };
    });
  };

  /** Moves every intent `where` selects to unconfirmed with `detail` (inside the gate). */
  async #makeUnconfirmed(
    tx: Statements,
    where: string,
    detail: string,
    now: number,
  ): Promise<PurchaseIntent[]> {
    const core = this.#core;
    const found = await tx.rows<{ id: string }>(
      `SELECT id FROM purchase_intents WHERE ${where}${core.db.dialect.forUpdate}`,
    );
    const moved: PurchaseIntent[] = [];
    for (const { id } of found) {
      const patch = { finishedAt: now, outcomeDetail: detail };
      moved.push(await core.move(tx, await core.lock(id, tx), "unconfirmed", now, patch, null));
    }
    return moved;
  }

  /**
   * An admin's reconciliation of an unconfirmed intent (delivered or not), with who and when.
   * Purchases resume when no unconfirmed intent is left.
   */
  resolve = (
    id: string,
    adminId: number,
    delivered: boolean,
    now = this.#core.clock(),
  ): Promise<{ intent: PurchaseIntent; unconfirmedLeft: number }> => {
    const core = this.#core;
    return core.db.gated(async (tx) => {
      const intent = await core.move(
        tx,
        await core.lock(id, tx),
        delivered ? "delivered" : "not_delivered",
        now,
        { resolvedBy: adminId, resolvedAt: now },
        adminId,
      );
      return { intent, unconfirmedLeft: await this.#queries.unconfirmedCount(tx) };
    });
  };
}

/** The status and the fields an outcome writes. */
function outcomePatch(
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
