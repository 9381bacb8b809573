/**
 * What came back from one request, in the shape the classifiers read: the status, the one
 * header they read (`Retry-After`), the body as (scrubbed) text and, when it parsed, as
 * (scrubbed) JSON. Also the small readings every classifier shares: the wait the service asks
 * for, the human detail of a failure body, and a definite refusal (docs/service-contract.md
 * §4, §5).
 */
import { CLIENT_DEFAULTS } from "./options.js";
import { failureBodySchema } from "./schemas.js";
import type { SecretScrubber } from "./secrets.js";
import type { Exchange } from "./transport.js";
import type { FailureBody, Rejected } from "./types.js";

/** A response whose body was read as JSON when it could be; secrets already scrubbed. */
export interface Answer {
  status: number;
  /**
   * `Retry-After`, the only header anything reads. The others are dropped here, unscrubbed
   * as they are (a `Set-Cookie` may echo the session), so nothing downstream can keep them.
   */
  retryAfter: string | undefined;
  text: string;
  json: unknown;
  isJson: boolean;
}

/** No answer at all: a timeout, a transport failure, or a body over the size limit. */
export type NoAnswer = Extract<Exchange, { kind: "failure" }>;

/** Ambiguous/unavailable bodies that are not JSON are kept, cut to this many characters. */
const MAX_RAW_TEXT = 500;

/** Whether an answer came back at all (as opposed to a timeout or transport failure). */
export function isAnswer(result: Answer | NoAnswer): result is Answer {
  return "status" in result;
}

/** The service's "wait" statuses: 429 FLOOD_WAIT and 503 RATE_LIMIT_UNAVAILABLE. */
export function isRetryWaitStatus(status: number): status is 429 | 503 {
  return status === 429 || status === 503;
}

/**
 * Turns a response into an `Answer`, scrubbing every secret out of the text and the parsed
 * body first, so nothing downstream (outcomes, the ledger, log lines) can see one.
 */
export function toAnswer(
  response: Extract<Exchange, { kind: "response" }>,
  scrubber: SecretScrubber,
): Answer {
  let json: unknown;
  let isJson = false;
  try {
    json = scrubber.deep(JSON.parse(response.text) as unknown);
    isJson = true;
  } catch {
    json = undefined;
  }
  return {
    status: response.status,
    retryAfter: response.headers["retry-after"],
    text: scrubber.text(response.text),
    json,
    isJson,
  };
}

/**
 * Seconds to wait from `Retry-After` (seconds or HTTP date), `retry_after` or `flood_wait`; the
 * largest hint is the one every party agrees is safe. Without any, a short default.
 */
export function waitHintSeconds(answer: Answer, nowMs: number = Date.now()): number {
  const hints: number[] = [];
  const header = answer.retryAfter;
  if (header !== undefined) {
    const seconds = Number(header);
    if (header.trim() !== "" && Number.isFinite(seconds) && seconds >= 0) hints.push(seconds);
    else {
      const date = Date.parse(header);
      if (!Number.isNaN(date)) hints.push(Math.max(0, (date - nowMs) / 1000));
    }
  }
  if (typeof answer.json === "object" && answer.json !== null) {
    for (const key of ["retry_after", "flood_wait"]) {
      const value = Number((answer.json as Record<string, unknown>)[key]);
      if (Number.isFinite(value) && value >= 0) hints.push(value);
    }
  }
  return hints.length > 0 ? Math.ceil(Math.max(...hints)) : CLIENT_DEFAULTS.defaultWaitSeconds;
}

/** The best human-readable detail of a failure body: `error: reason`, else `info`. */
function failureDetail(body: FailureBody): string | undefined {
  if (body.error) return body.reason ? `${body.error}: ${body.reason}` : body.error;
  if (body.reason) return body.reason;
  if (typeof body.info === "string") return body.info;
  if (body.info !== undefined) return JSON.stringify(body.info).slice(0, MAX_RAW_TEXT);
  return undefined;
}

/** The answer's text, cut to `MAX_RAW_TEXT` characters. */
export function rawText(answer: Answer): string {
  return answer.text.slice(0, MAX_RAW_TEXT);
}

/** The failure body of an answer, when it is one (`ok: false`, typed fields well-formed). */
export function failureBodyOf(answer: Answer): FailureBody | undefined {
  return failureBodySchema.safeParse(answer.json).success
    ? (answer.json as FailureBody)
    : undefined;
}

/** A definite refusal read from a failure body; undefined when the body is not one. */
export function rejectedFrom(answer: Answer): Rejected | undefined {
  const body = failureBodyOf(answer);
  if (!body) return undefined;
  return { kind: "rejected", status: answer.status, body, detail: failureDetail(body) };
}

/** The detail of a body over the size limit. */
export function tooLargeDetail(maxBodyBytes: number): string {
  return `the response body is larger than ${maxBodyBytes} bytes`;
}
