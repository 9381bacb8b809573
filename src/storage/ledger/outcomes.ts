/**
 * Outcomes: what a purchase's request came to (→ succeeded, rejected or unconfirmed), a late
 * answer kept as evidence, the recovery of requests left in flight by a process that died or by
 * a restored backup, and the settlement of an unknown outcome (an admin's, or a gift through
 * Telegram proved by the bot's Star transactions). Each passes the ledger gate, durably, since
 * each changes what a claim's rules read (something `sending`, something `unconfirmed`, the
 * day's totals) and none may roll back once a request may have left.
 */
import { LeaseNotHeldError } from "../../ledger/errors.js";
import {
  lateAnswerFields,
  notSentFields,
  type OutcomeRecord,
  outcomeRecord,
  unrecordedOutcomeFields,
} from "../../ledger/outcomes.js";
import { restoredDetail } from "../../ledger/restore.js";
import { withEvidence } from "../../ledger/star-proof.js";
import { lateAnswer } from "../../ledger/transitions.js";
import type { PurchaseIntent, PurchaseLedger, RecordedOutcome } from "../../ledger/types.js";
import type { Statements } from "../db/port.js";
import type { LedgerCore } from "./core.js";
import type { LedgerQueryRows } from "./queries.js";
import { closeWhatWasOpen } from "./restored.js";

/** The ledger's outcome moves (typed by PurchaseLedger's members). */
export class LedgerOutcomes {
  constructor(
    private readonly core: LedgerCore,
    private readonly queries: LedgerQueryRows,
    /** Inside a gated transaction: whether this process still holds its lease (./claims.ts). */
    private readonly holdsLease: (tx: Statements) => Promise<boolean>,
  ) {}

  /**
   * Writes a purchase's outcome right after the response: success → succeeded (tx_hash and the
   * full body), rejected or invalid → rejected, ambiguous → unconfirmed (cause, body and tx_hash
   * kept). The intent must be `sending`.
   */
  recordOutcome: PurchaseLedger["recordOutcome"] = (id, outcome, now = this.core.clock()) => {
    // The service's own success or refusal may settle an intent a recovery made unconfirmed.
    const definite = outcome.kind === "success" || outcome.kind === "rejected";
    return this.#record(id, outcomeRecord(outcome, now), now, definite);
  };

  /**
   * Writes the outcome of a request whose first outcome write failed (the database refused
   * writes for a while after the answer came): `sending` → unconfirmed, whatever the service
   * answered. By then the admins were told from memory, and the person may have been told; an
   * admin confirms it against the evidence kept here (the service's answer, its tx_hash, when
   * it came and when the ledger could record it). Never sends anything.
   */
  recordUnwrittenOutcome: PurchaseLedger["recordUnwrittenOutcome"] = (
    id,
    outcome,
    answeredAt,
    now = this.core.clock(),
  ) => {
    const fields = unrecordedOutcomeFields(outcome, answeredAt, now);
    return this.#record(id, { to: "unconfirmed", fields }, now);
  };

  /**
   * Writes that a claimed intent's request never left (cancelled while it waited for the
   * service's quota at shutdown, or refused by the client's own checks): `sending` → rejected,
   * with `detail` saying so. Nothing was sent, so nothing can have been spent.
   */
  recordNotSent: PurchaseLedger["recordNotSent"] = (id, detail, now = this.core.clock()) => {
    return this.#record(id, { to: "rejected", fields: notSentFields(detail, now) }, now);
  };

  /** `definite`: the service's own success or refusal, which may settle a late answer. */
  #record(
    id: string,
    record: OutcomeRecord,
    now: number,
    definite = false,
  ): Promise<RecordedOutcome> {
    const core = this.core;
    return core.db.gated(async (tx): Promise<RecordedOutcome> => {
      const current = await core.mustGet(id, tx, true);
      const late = lateAnswer(current.status, record.to, definite);
      if (late === undefined) {
        const intent = await core.move(tx, current, record.to, now, record.fields, null);
        return { recorded: true, intent };
      }
      // Recovered as interrupted while this response was on its way (and perhaps settled by an
      // admin since): a definite answer settles an intent still unconfirmed, with no admin.
      if (late === "settled") {
        const fields = lateAnswerFields(record, now, true);
        const settled = await core.move(tx, current, record.to, now, fields, null);
        return { recorded: true, late, intent: settled };
      }
      // The status stays; the late answer is kept as evidence unless one is held already.
      const evidence = lateAnswerFields(record, now, false);
      await tx.run(
        `UPDATE purchase_intents SET response = @response, tx_hash = COALESCE(@txHash, tx_hash),
           outcome_detail = @detail, updated_at = @now WHERE id = @id AND response IS NULL`,
        {
          ...{ id, now, response: JSON.stringify(evidence.response) },
          ...{ txHash: evidence.txHash ?? null, detail: evidence.outcomeDetail },
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
  recoverInterrupted = (now = this.core.clock()): Promise<PurchaseIntent[]> => {
    const detail = "interrupted: the process stopped while the purchase request was in flight";
    const where = `status = 'sending' ORDER BY sent_at, ${this.core.db.dialect.seq}`;
    return this.core.db.gated(async (tx) => {
      if (!(await this.holdsLease(tx))) throw new LeaseNotHeldError();
      return this.#makeUnconfirmed(tx, where, detail, now);
    });
  };

  /**
   * After a restore from a backup (src/ledger/restore.ts), in one gated transaction: every
   * purchase the backup shows in flight (`sending`) or promised (`queued`) may have been sent
   * after the backup was taken, so each becomes unconfirmed, for an admin to settle, never sent
   * again; what else the backup shows open is closed (./restored.ts). The sender lease is
   * cleared, its epoch moved far past any a process of before the restore could still hold.
   */
  markRestored: PurchaseLedger["markRestored"] = (backupTakenAt, now = this.core.clock()) => {
    const where = `status IN ('sending', 'queued') ORDER BY ${this.core.db.dialect.seq}`;
    return this.core.db.gated(async (tx) => {
      await tx.run(
        "UPDATE sender_lease SET owner = NULL, expires_at = 0, epoch = epoch + 1000 WHERE name = 'sender'",
      );
      const detail = restoredDetail(backupTakenAt);
      const unknown = await this.#makeUnconfirmed(tx, where, detail, now);
      const marks = { backupTakenAt, now, unknown: unknown.length };
      return { unknown, notice: await closeWhatWasOpen(this.core, tx, marks) };
    });
  };

  /** Moves every intent `where` selects to unconfirmed with `detail` (inside the gate). */
  #makeUnconfirmed(
    tx: Statements,
    where: string,
    detail: string,
    now: number,
  ): Promise<PurchaseIntent[]> {
    const fields = { finishedAt: now, outcomeDetail: detail };
    return this.core.moveAll(tx, { where }, "unconfirmed", now, fields, null);
  }

  /**
   * An admin's reconciliation of an unconfirmed intent (delivered or not), with who and when.
   * Purchases resume when no unconfirmed intent is left.
   */
  resolve: PurchaseLedger["resolve"] = (id, adminId, delivered, now = this.core.clock()) => {
    return this.core.db.gated(async (tx) => {
      const current = await this.core.mustGet(id, tx, true);
      const to = delivered ? "delivered" : "not_delivered";
      const fields = { resolvedBy: adminId, resolvedAt: now };
      const intent = await this.core.move(tx, current, to, now, fields, adminId);
      return { intent, unconfirmedLeft: await this.queries.unconfirmedCount(tx) };
    });
  };

  /**
   * A gift through Telegram found among the bot's Star transactions (src/ledger/star-proof.ts):
   * delivered with no admin, the proof kept beside the answer that left it unknown.
   */
  settleByProof: PurchaseLedger["settleByProof"] = (id, proof, detail, now = this.core.clock()) => {
    return this.core.db.gated(async (tx) => {
      const current = await this.core.get(id, tx, true);
      if (current?.status !== "unconfirmed") return undefined; // an admin settled it first
      const response = withEvidence(current.response, "proof", proof);
      const fields = { response, outcomeDetail: detail, resolvedAt: now };
      const intent = await this.core.move(tx, current, "delivered", now, fields, null);
      return { intent, unconfirmedLeft: await this.queries.unconfirmedCount(tx) };
    });
  };

  /**
   * What a search for proof looked at, kept on an intent still unconfirmed for the admin who
   * settles it. Not gated: the status stays, so no claim's rule reads a change.
   */
  noteSearch: PurchaseLedger["noteSearch"] = (id, search, now = this.core.clock()) => {
    return this.core.db.transaction(async (tx) => {
      const current = await this.core.get(id, tx, true);
      if (current?.status !== "unconfirmed") return false;
      const response = JSON.stringify(withEvidence(current.response, "search", search));
      const sql = `UPDATE purchase_intents SET response = @response, updated_at = @now
        WHERE id = @id AND status = 'unconfirmed'`;
      return (await tx.run(sql, { id, now, response })) === 1;
    });
  };
}
