/**
 * Classifying a read's answer (docs/service-contract.md §5, §7): success, definite refusal,
 * rate limited (after the retries), or unavailable. A pure decision per attempt; the loop that
 * acts on it is `readWithRetries`. No money moves on a read, so nothing here is "ambiguous".
 */
import {
  type Answer,
  failureBodyOf,
  isAnswer,
  isRetryWaitStatus,
  type NoAnswer,
  rawText,
  rejectedFrom,
  tooLargeDetail,
  waitHintSeconds,
} from "./answer.js";
import { objectBodySchema, userInfoSchema } from "./schemas.js";
import type { RawBody, ReadOutcome, UserInfo } from "./types.js";

/** Where a read stands after one attempt. */
export interface ReadAttempt {
  /** 0 for the first request, 1 for the first retry... */
  attempt: number;
  /** Retries allowed after a 429/503 (0 to 2). */
  readRetries: number;
  /** Longest wait hint a retry honours; a longer one gives up at once. */
  maxRetryWaitSeconds: number;
  maxBodyBytes: number;
}

/** What to do after one attempt: send again (after the quota's retry wait), or return. */
export type ReadDecision<T> =
  { action: "retry"; retryAfterSeconds: number } | { action: "return"; outcome: ReadOutcome<T> };

/**
 * Decides one attempt of a read. `interpret` reads a 200 JSON object into the endpoint's
 * value (user info, balance); everything else is decided here the same way for every read.
 */
export function classifyReadAnswer<T>(
  result: Answer | NoAnswer,
  attempt: ReadAttempt,
  interpret: (answer: Answer) => ReadOutcome<T>,
): ReadDecision<T> {
  const done = (outcome: ReadOutcome<T>): ReadDecision<T> => ({ action: "return", outcome });
  if (!isAnswer(result)) {
    if (result.cause === "too_large") {
      const detail = tooLargeDetail(attempt.maxBodyBytes);
      return done({ kind: "unavailable", cause: "malformed", detail });
    }
    const detail =
      result.cause === "timeout" ? "the gift service did not answer in time" : result.code;
    // A read the HTTP client refused to send fails like a connection that failed.
    const cause = result.cause === "not_sent" ? "transport" : result.cause;
    return done({ kind: "unavailable", cause, detail });
  }
  const answer = result;
  if (isRetryWaitStatus(answer.status)) return retryWaitDecision(answer, answer.status, attempt);
  if (!answer.isJson || !objectBodySchema.safeParse(answer.json).success) {
    const detail = `the body is not a JSON object: ${rawText(answer).slice(0, 100)}`;
    return done({ kind: "unavailable", cause: "malformed", status: answer.status, detail });
  }
  if (answer.status === 200) return done(interpret(answer));
  if (answer.status === 400) {
    return done(
      rejectedFrom(answer) ?? {
        kind: "unavailable",
        cause: "malformed",
        status: 400,
        detail: "a 400 without a failure body",
      },
    );
  }
  return done({
    kind: "unavailable",
    cause: "unexpected_status",
    status: answer.status,
    detail: `unexpected HTTP status ${answer.status}`,
  });
}

/** A 429/503: retry within the limits, give up at once on a long wait, else rate limited. */
function retryWaitDecision<T>(
  answer: Answer,
  status: 429 | 503,
  attempt: ReadAttempt,
): ReadDecision<T> {
  const seconds = waitHintSeconds(answer);
  if (seconds > attempt.maxRetryWaitSeconds) {
    return {
      action: "return",
      outcome: {
        kind: "unavailable",
        cause: "wait_too_long",
        status,
        retryAfterSeconds: seconds,
        detail: `the gift service asks to wait ${seconds} s, longer than ${attempt.maxRetryWaitSeconds} s`,
      },
    };
  }
  if (attempt.attempt < attempt.readRetries) return { action: "retry", retryAfterSeconds: seconds };
  return {
    action: "return",
    outcome: {
      kind: "rate_limited",
      status,
      retryAfterSeconds: seconds,
      body: failureBodyOf(answer),
    },
  };
}

/**
 * A user-info answer (HTTP 200, a JSON object): `ok` says whether the account exists,
 * `is_premium` whether it already has premium (undefined when the service did not say).
 */
export function classifyUserInfoAnswer(asked: string, answer: Answer): ReadOutcome<UserInfo> {
  const parsed = userInfoSchema.safeParse(answer.json);
  if (!parsed.success) {
    return { kind: "unavailable", cause: "malformed", status: 200, detail: "not a user-info body" };
  }
  // The service may spell the name its own way (case), never name someone else: an answer
  // about another account would make the summary, and the purchase, for that account.
  const named = parsed.data.username;
  if (named !== undefined && !sameUsername(named, asked)) {
    return {
      kind: "unavailable",
      cause: "malformed",
      status: 200,
      detail: "the answer names another account than the one asked about",
    };
  }
  return {
    kind: "success",
    value: {
      found: parsed.data.ok,
      username: parsed.data.username,
      isPremium: parsed.data.is_premium,
    },
    body: answer.json as RawBody,
  };
}

/** Whether two spellings name one account: Telegram usernames ignore case and the `@`. */
function sameUsername(a: string, b: string): boolean {
  const plain = (name: string) => name.trim().replace(/^@/, "").toLowerCase();
  return plain(a) === plain(b);
}
