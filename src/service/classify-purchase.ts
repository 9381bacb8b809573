/**
 * Classifying a purchase's answer (docs/service-contract.md §5): success, definite refusal or
 * ambiguous. A pure decision on what came back; anything that leaves doubt about the money is
 * ambiguous, because an ambiguous purchase is reconciled and never resent, while a wrong
 * "refused" would invite a second purchase and a wrong "success" would hide a lost one.
 */
import {
  type Answer,
  isAnswer,
  isRetryWaitStatus,
  type NoAnswer,
  rawText,
  rejectedFrom,
  tooLargeDetail,
  waitHintSeconds,
} from "./answer.js";
import { objectBodySchema, purchaseSuccessSchema } from "./schemas.js";
import type { Ambiguous, Invalid, PurchaseResult, RawBody, Rejected, Success } from "./types.js";

export type PurchaseAnswerOutcome = Success<PurchaseResult> | Rejected | Ambiguous | Invalid;

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
  if (isRetryWaitStatus(answer.status)) {
    return ambiguous("rate_limited", `HTTP ${answer.status}: the purchase may not have happened`, {
      retryAfterSeconds: waitHintSeconds(answer),
    });
  }
  if (!answer.isJson || !objectBodySchema.safeParse(answer.json).success) {
    return ambiguous("malformed", `HTTP ${answer.status} with a body that is not a JSON object`);
  }
  const json = answer.json as RawBody;
  const doubt = doubtIn(json, answer.status);
  if (doubt) return ambiguous("unconfirmed", doubt.detail, { txHash: doubt.txHash });
  // What the parse may have lost (a duplicate key keeps its last value; nesting deeper than
  // the markers are looked for): a doubt marker anywhere in the text is a doubt.
  const written = doubtWrittenIn(answer.text, answer.status);
  if (written !== undefined) return ambiguous("unconfirmed", written);
  if (answer.status === 200) {
    const success = purchaseSuccessSchema.safeParse(json);
    if (!success.success) return ambiguous("malformed", "HTTP 200 without ok: true");
    const data = success.data.data;
    const txHash = success.data.tx_hash ?? topLevelTxHash(data);
    return { kind: "success", value: { txHash, data }, body: json };
  }
  if (answer.status === 400) {
    return rejectedFrom(answer) ?? ambiguous("malformed", "HTTP 400 without a failure body");
  }
  return ambiguous("unexpected_status", `unexpected HTTP status ${answer.status}`);
}

/**
 * A timeout, a dropped connection or an unread body: the request may have been carried out.
 * Except a request the HTTP client refused before sending any of it: nothing left.
 */
function noAnswerOutcome(failure: NoAnswer, context: PurchaseClassifyContext): Ambiguous | Invalid {
  if (failure.cause === "not_sent") {
    return {
      kind: "invalid",
      field: "request",
      detail: `the HTTP client refused the request before sending it (${failure.code})`,
    };
  }
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

/** How deep the doubt markers are looked for; bodies nest a level or two, never this deep. */
const MAX_MARKER_DEPTH = 8;
/** Names a transaction hash goes by; the service documents `tx_hash`, the rest cost nothing. */
const TX_HASH_KEYS: ReadonlySet<string> = new Set([
  "tx_hash",
  "txHash",
  "transaction_hash",
  "transactionHash",
]);

/** A marker found in a body, the shallowest first. */
interface Marker {
  /** Where it stands, e.g. ["info", "transfer"]: the keys of the objects holding it. */
  path: string[];
  value: unknown;
}

/**
 * Every `unconfirmed` with a truthy value and every non-empty transaction hash in a body, at any
 * depth (arrays included), the shallowest first. Any truthy `unconfirmed` counts, the string
 * "false" included: a service that writes its booleans as strings cannot be trusted to mean "no".
 */
function doubtMarkers(body: unknown): { unconfirmed: Marker[]; txHashes: Marker[] } {
  const unconfirmed: Marker[] = [];
  const txHashes: Marker[] = [];
  let level: { value: unknown; path: string[] }[] = [{ value: body, path: [] }];
  for (let depth = 0; depth < MAX_MARKER_DEPTH && level.length > 0; depth++) {
    const next: typeof level = [];
    for (const { value, path } of level) {
      if (typeof value !== "object" || value === null) continue;
      for (const [key, item] of Object.entries(value)) {
        if (key === "unconfirmed" && Boolean(item)) unconfirmed.push({ path, value: item });
        if (TX_HASH_KEYS.has(key) && hasHash(item)) txHashes.push({ path, value: item });
        next.push({ value: item, path: Array.isArray(value) ? path : [...path, key] });
      }
    }
    level = next;
  }
  return { unconfirmed, txHashes };
}

function hasHash(value: unknown): boolean {
  if (typeof value === "string") return value.trim() !== "";
  return value !== null && value !== undefined && value !== false;
}

/**
 * The sign, if any, that money may have moved although the answer does not say so for certain
 * (docs/service-contract.md §5.1):
 * - any truthy `unconfirmed`, at any depth, whatever the status;
 * - on a 400, a transaction hash anywhere: a transfer progressed;
 * - on a 200, a transaction hash inside `info` (the failure details): the success contradicts
 *   itself. A hash at the top or in `data` is the success's own.
 */
function doubtIn(
  body: RawBody,
  status: number,
): { detail: string; txHash: string | undefined } | undefined {
  const markers = doubtMarkers(body);
  const firstHash = markers.txHashes.find((m) => typeof m.value === "string")?.value as
    string | undefined;
  const where = (marker: Marker) => (marker.path.length > 0 ? ` in ${marker.path.join(".")}` : "");
  const [unconfirmed] = markers.unconfirmed;
  if (unconfirmed) {
    return {
      detail: `the service could not confirm the purchase (unconfirmed${where(unconfirmed)})`,
      txHash: firstHash,
    };
  }
  if (status === 400) {
    const [hash] = markers.txHashes;
    if (hash) {
      return {
        detail: `HTTP 400 carrying a transaction hash${where(hash)}: a transfer may have happened`,
        txHash: firstHash,
      };
    }
  }
  if (status === 200) {
    const hash = markers.txHashes.find((m) => m.path[0] === "info");
    if (hash) {
      return {
        detail: `a success with a transaction hash${where(hash)} among failure details`,
        txHash: firstHash,
      };
    }
  }
  return undefined;
}

function topLevelTxHash(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const hash = (value as Record<string, unknown>).tx_hash;
  return typeof hash === "string" ? hash : undefined;
}

/**
 * A truthy `unconfirmed`, or (on anything but a 200, whose own hash is expected) a non-empty
 * transaction hash under any of its names, written anywhere in the body's text, whatever the
 * parse kept. Conservative on purpose: a false alarm costs an admin's look, a missed one a
 * purchase bought twice.
 */
function doubtWrittenIn(text: string, status: number): string | undefined {
  const keys = ["unconfirmed", ...(status === 200 ? [] : TX_HASH_KEYS)].join("|");
  const pattern = new RegExp(`"(${keys})"\\s*:\\s*("(?:[^"\\\\]|\\\\.)*"|[^,}\\]\\s]+)`, "g");
  for (const [, key = "", value = ""] of text.matchAll(pattern)) {
    if (NOTHING_WRITTEN.has(value.trim())) continue;
    if (key !== "unconfirmed" && value.trim() === '"0"') continue;
    return key === "unconfirmed"
      ? "the body says unconfirmed where its parse does not (a duplicate key, or deep nesting)"
      : `the body carries a ${key} where its parse does not (a duplicate key, or deep nesting)`;
  }
  return undefined;
}

/** Values that say nothing happened, as written in JSON. */
const NOTHING_WRITTEN: ReadonlySet<string> = new Set(["false", "null", "0", '""', "[]", "{}"]);
