/**
 * Classifying a purchase's answer (docs/service-contract.md §5): success, definite refusal or
 * ambiguous. A pure decision on what came back; anything that leaves doubt about the money is
 * ambiguous, because an ambiguous purchase is reconciled and never resent, while a wrong
 * "refused" would invite a second purchase and a wrong "success" would hide a lost one.
 */
import {
  type Answer,
  isAnswer,
  isHoldStatus,
  type NoAnswer,
  rawText,
  rejectedFrom,
  tooLargeDetail,
  waitHintSeconds,
} from "./answer.js";
import { objectBodySchema, purchaseSuccessSchema } from "./schemas.js";
import type { Ambiguous, PurchaseResult, RawBody, Rejected, Success } from "./types.js";

export type PurchaseAnswerOutcome = Success<PurchaseResult> | Rejected | Ambiguous;

/** What the classifier needs besides the answer. */
export interface PurchaseClassifyContext {
  /** The body size limit, for the detail of a body that was too large. */
  maxBodyBytes: number;
}

/** Classifies what came back from one purchase request (or that nothing did). */
export function classifyPurchaseAnswer(
  result: Answer | NoAnswer,
  context: PurchaseClassifyContext,
): PurchaseAnswerOutcome {
  if (!isAnswer(result)) return noAnswerOutcome(result, context);
  const answer = result;
  const ambiguous = ambiguousFor(answer);
  if (isHoldStatus(answer.status)) {
    return ambiguous("rate_limited", `HTTP ${answer.status}: the purchase may not have happened`, {
      retryAfterSeconds: waitHintSeconds(answer),
    });
  }
  if (!answer.isJson || !objectBodySchema.safeParse(answer.json).success) {
    return ambiguous("malformed", `HTTP ${answer.status} with a body that is not a JSON object`);
  }
  const json = answer.json as RawBody;
  if (json.unconfirmed === true) {
    return ambiguous("unconfirmed", "the service could not confirm the purchase");
  }
  if (answer.status === 200) {
    const success = purchaseSuccessSchema.safeParse(json);
    if (!success.success) return ambiguous("malformed", "HTTP 200 without ok: true");
    const data = success.data.data;
    const txHash = success.data.tx_hash ?? topLevelTxHash(data);
    return { kind: "success", value: { txHash, data }, body: json };
  }
  if (answer.status === 400) {
    // A transaction hash is there "when a transfer progressed" (docs/service-contract.md §4),
    // so money may have moved even though the service calls it a failure. Only a 400 without
    // one is a definite refusal.
    const txHash = topLevelTxHash(json);
    if (txHash !== undefined && txHash.trim() !== "") {
      return ambiguous(
        "unconfirmed",
        "HTTP 400 carrying a transaction hash: a transfer may have happened",
      );
    }
    return rejectedFrom(answer) ?? ambiguous("malformed", "HTTP 400 without a failure body");
  }
  return ambiguous("unexpected_status", `unexpected HTTP status ${answer.status}`);
}

/** A timeout, a dropped connection or an unread body: the request may have been carried out. */
function noAnswerOutcome(failure: NoAnswer, context: PurchaseClassifyContext): Ambiguous {
  if (failure.cause === "too_large") {
    return {
      kind: "ambiguous",
      cause: "malformed",
      detail: `${tooLargeDetail(context.maxBodyBytes)}: the purchase may or may not have happened`,
    };
  }
  return {
    kind: "ambiguous",
    cause: failure.cause,
    detail:
      failure.cause === "timeout"
        ? "no answer in time: the purchase may or may not have happened"
        : `the connection failed (${failure.code}): the purchase may or may not have happened`,
  };
}

/** Builds ambiguous outcomes of one answer, with its status, body and any hash it carries. */
function ambiguousFor(answer: Answer) {
  const body: unknown = answer.isJson ? answer.json : rawText(answer);
  return (
    cause: Ambiguous["cause"],
    detail: string,
    extra: Partial<Ambiguous> = {},
  ): Ambiguous => ({
    kind: "ambiguous",
    cause,
    status: answer.status,
    body,
    txHash: topLevelTxHash(body),
    detail,
    ...extra,
  });
}

function topLevelTxHash(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const hash = (value as Record<string, unknown>).tx_hash;
  return typeof hash === "string" ? hash : undefined;
}
