/**
 * What the ledger writes for a purchase's outcome: the status it moves to, and what it keeps
 * beside the status (when it finished, the service's answer as `response`, its tx_hash, a short
 * English `outcomeDetail` for logs and audits; src/bot/outcome-detail.ts reads `response` back
 * for the admins). Pure rules: the stores write these fields as they are.
 */
import type { PurchaseOutcome } from "../service/types.js";

/** The fields a status move writes beside the status; the ones left out keep their value. */
export interface MoveFields {
  finishedAt?: number;
  response?: unknown;
  txHash?: string | undefined;
  outcomeDetail?: string | undefined;
  resolvedBy?: number;
  resolvedAt?: number;
}

/** The statuses a purchase's answer moves it to (src/ledger/transitions.ts `lateAnswer`). */
type OutcomeStatus = "succeeded" | "rejected" | "unconfirmed";

/** An outcome as written: its status and fields. */
export interface OutcomeRecord {
  to: OutcomeStatus;
  fields: MoveFields;
}

/**
 * Success → succeeded (tx_hash and the full body), rejected or invalid → rejected, ambiguous →
 * unconfirmed (cause, body and tx_hash kept).
 */
export function outcomeRecord(outcome: PurchaseOutcome, now: number): OutcomeRecord {
  switch (outcome.kind) {
    case "success":
      return {
        to: "succeeded",
        fields: { finishedAt: now, response: outcome.body, txHash: outcome.value.txHash },
      };
    case "rejected":
      return {
        to: "rejected",
        fields: {
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
        fields: {
          finishedAt: now,
          response: { invalid: outcome.field, detail: outcome.detail },
          outcomeDetail: `not sent: invalid ${outcome.field}`,
        },
      };
    case "ambiguous":
      return {
        to: "unconfirmed",
        fields: {
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

/** ` (detail)`, or nothing. */
function detailSuffix(fields: MoveFields): string {
  return fields.outcomeDetail === undefined ? "" : ` (${fields.outcomeDetail})`;
}

/**
 * A request whose first outcome write failed, written once the database takes writes again:
 * unconfirmed whatever the service answered, with that answer, when it came and when it could
 * be recorded kept as evidence for an admin.
 */
export function unrecordedOutcomeFields(
  outcome: PurchaseOutcome,
  answeredAt: number,
  now: number,
): MoveFields {
  const { to, fields } = outcomeRecord(outcome, answeredAt);
  return {
    finishedAt: answeredAt,
    response: { unrecordedOutcome: to, answeredAt, recordedAt: now, response: fields.response },
    txHash: fields.txHash,
    outcomeDetail: `outcome_unrecorded: ${to}${detailSuffix(fields)}`,
  };
}

/** A claimed request that never left: rejected, with `detail` saying why. */
export function notSentFields(detail: string, now: number): MoveFields {
  return { finishedAt: now, response: { notSent: detail }, outcomeDetail: detail };
}

/**
 * An answer that came after a recovery had made its intent unconfirmed: the late answer as
 * `response`, and (`settled`) the fields of the settlement it makes, or (kept as evidence, the
 * status staying) the detail that says it came late.
 */
export function lateAnswerFields(record: OutcomeRecord, now: number, settled: boolean): MoveFields {
  const { to, fields } = record;
  const response = { lateOutcome: to, response: fields.response ?? null };
  if (!settled) {
    const outcomeDetail = `A response arrived after the restart's recovery: ${to}.`;
    return { response, txHash: fields.txHash, outcomeDetail };
  }
  return {
    ...{ finishedAt: now, response, txHash: fields.txHash, resolvedAt: now },
    outcomeDetail: `settled by a late answer: ${to}${detailSuffix(fields)}`,
  };
}
