/**
 * The detail of a purchase's outcome, in the reader's language. The ledger stores a short
 * English `outcomeDetail` for logs and audits, and the structured answer in `response`; an admin
 * reads this text instead, built from that structure through the locale files, with the
 * service's own words (which no locale can translate) quoted as they came.
 */
import type { PurchaseIntent } from "../ledger/types.js";
import { quoteServiceText } from "../service/quote.js";
import type { PurchaseOutcome } from "../service/types.js";
import type { Translate } from "./context.js";

/** What the ledger keeps in `response`, as far as this text needs it (see src/storage/ledger/outcomes.ts). */
interface StoredResponse {
  cause?: unknown;
  status?: unknown;
  body?: unknown;
  notSent?: unknown;
  reason?: unknown;
  invalid?: unknown;
  lateOutcome?: unknown;
  unrecordedOutcome?: unknown;
  response?: unknown;
}

const CAUSES = [
  "rate_limited",
  "timeout",
  "transport",
  "malformed",
  "unexpected_status",
  "unconfirmed",
] as const;
const OUTCOMES = ["succeeded", "rejected", "unconfirmed"] as const;
const NOT_SENT_SHUTDOWN = "not sent: cancelled at shutdown";
const NOT_SENT_ABORTED = "not sent: cancelled before sending";

/** The admin-facing detail line's content, or undefined when the intent has none. */
export function outcomeDetailText(t: Translate, intent: PurchaseIntent): string | undefined {
  const detail = intent.outcomeDetail;
  if (detail === undefined) return undefined;
  const stored = asRecord(intent.response) as StoredResponse | undefined;
  if (detail.startsWith("interrupted:")) return t("detail-interrupted");
  if (detail.startsWith("restored:")) return t("detail-restored");
  if (stored === undefined) return t("detail-other", { detail: quoteServiceText(detail) });
  const unrecorded = oneOf(stored.unrecordedOutcome, OUTCOMES);
  if (unrecorded !== undefined) {
    return withReason(t, t("detail-unrecorded", { outcome: t(`status-${unrecorded}`) }), stored);
  }
  const late = oneOf(stored.lateOutcome, OUTCOMES);
  if (late !== undefined) {
    // A definite answer that is the intent's status now settled it (unconfirmed → that status).
    const settled = late !== "unconfirmed" && intent.status === late;
    const key = settled ? "detail-late-settled" : "detail-late-answer";
    return withReason(t, t(key, { outcome: t(`status-${late}`) }), stored);
  }
  if (typeof stored.notSent === "string") return notSentText(t, stored);
  if (typeof stored.invalid === "string") {
    return t("detail-not-sent-invalid", { field: stored.invalid });
  }
  return detailOfResponse(t, stored) ?? t("detail-other", { detail: quoteServiceText(detail) });
}

/** An ambiguous answer's cause, or a refusal's status and reason; undefined for neither. */
function detailOfResponse(t: Translate, stored: StoredResponse): string | undefined {
  const cause = oneOf(stored.cause, CAUSES);
  if (cause !== undefined) {
    const status = typeof stored.status === "number" ? String(stored.status) : "-";
    return withReason(t, t(`detail-cause-${cause}`, { status }), stored);
  }
  if (typeof stored.status === "number") {
    const reason = serviceReason(stored.body);
    return reason === undefined
      ? t("detail-refused-no-reason", { status: String(stored.status) })
      : t("detail-refused", { status: String(stored.status), reason });
  }
  return undefined;
}

/**
 * The service's answer to a purchase, for admins who must learn it before the ledger could
 * record it: what it said, in their language, its own reason quoted.
 */
export function answerText(t: Translate, answer: PurchaseOutcome): string {
  switch (answer.kind) {
    case "success":
      return t("detail-answer-success");
    case "rejected":
      return detailOfResponse(t, { status: answer.status, body: answer.body }) ?? "";
    case "invalid":
      return t("detail-not-sent-invalid", { field: answer.field });
    case "ambiguous":
      return (
        detailOfResponse(t, { cause: answer.cause, status: answer.status, body: answer.body }) ?? ""
      );
  }
}

function notSentText(t: Translate, stored: StoredResponse): string {
  if (stored.notSent === NOT_SENT_SHUTDOWN) return t("detail-not-sent-shutdown");
  if (stored.notSent === NOT_SENT_ABORTED) return t("detail-not-sent-cancelled");
  const invalid = /\(invalid (\w+)\)$/.exec(String(stored.notSent))?.[1];
  if (invalid !== undefined) return t("detail-not-sent-invalid", { field: invalid });
  if (typeof stored.reason === "string") {
    return t("detail-not-sent-queued", {
      reason: t(`detail-queued-${queuedReason(stored.reason)}`),
    });
  }
  return t("detail-other", { detail: quoteServiceText(String(stored.notSent)) });
}

/** Why a queued confirmation was closed, in the few words its locale key names. */
function queuedReason(
  reason: string,
): "paused" | "frozen" | "limit" | "no_access" | "recipient_has_premium" | "other" {
  switch (reason) {
    case "paused":
    case "frozen":
    case "limit":
    case "no_access":
    case "recipient_has_premium":
      return reason;
    default:
      return "other";
  }
}

/** `text`, then the service's own reason quoted when its answer carried one. */
function withReason(t: Translate, text: string, stored: StoredResponse): string {
  const reason = serviceReason(stored.body) ?? serviceReason(asRecord(stored.response)?.body);
  return reason === undefined ? text : `${text} ${t("detail-service-said", { reason })}`;
}

/**
 * The service's own words in a failure body, quoted cut: `error: reason` as the client reads
 * them (an admin needs both the code and the sentence), else `info` when it is text.
 */
function serviceReason(body: unknown): string | undefined {
  const record = asRecord(body);
  if (record === undefined) return undefined;
  const words = ["error", "reason"]
    .map((key) => record[key])
    .filter((value): value is string => typeof value === "string" && value.trim() !== "");
  if (words.length === 0 && typeof record.info === "string" && record.info.trim() !== "") {
    words.push(record.info);
  }
  return words.length === 0 ? undefined : quoteServiceText(words.join(": "));
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[]): T | undefined {
  return typeof value === "string" && (allowed as readonly string[]).includes(value)
    ? (value as T)
    : undefined;
}
