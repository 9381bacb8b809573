/**
 * What Telegram's answer to `giftPremiumSubscription` means for the money (docs/telegram-premium.md,
 * "Which answers mean not done"). Telegram answers every Bot API call with a JSON envelope: `ok:
 * true` with the result (`true` for this method), or `ok: false` with an `error_code` and a
 * `description`. An error code below 500 is Telegram refusing the call before it did anything
 * (a bad parameter, not enough Stars, a user it cannot gift, the bot blocked, a flood wait):
 * the gift was not made. A 5xx, a body that is not Telegram's envelope, a timeout or a dropped
 * connection does not say whether the gift was made: the outcome is unknown and is never sent
 * again, but settled from the bot's Star transactions (src/purchases/telegram-way.ts `prove`)
 * or by an admin.
 */
import { GrammyError, HttpError } from "grammy";
import type { FailureBody, PurchaseOutcome } from "../service/types.js";

/** The gift's answer arrived: Telegram returns `true` for a gift it made. */
export function answerOf(result: unknown): PurchaseOutcome {
  if (result === true) {
    return {
      kind: "success",
      value: { txHash: undefined, data: undefined },
      body: { ok: true, result: true },
    };
  }
  return {
    kind: "ambiguous",
    cause: "malformed",
    body: { ok: true, result: typeof result === "object" ? "(an object)" : JSON.stringify(result) },
    detail: "Telegram answered ok with an unexpected result",
  };
}

/** The gift's call threw: Telegram's refusal, or no answer that says what happened. */
export function failureOf(error: unknown, timedOut: boolean): PurchaseOutcome {
  if (error instanceof GrammyError) {
    const body: FailureBody = {
      ok: false,
      error: error.description,
      error_code: error.error_code,
      ...(error.parameters.retry_after === undefined
        ? {}
        : { retry_after: error.parameters.retry_after }),
    };
    if (error.error_code < 500) {
      return { kind: "rejected", status: error.error_code, body, detail: error.description };
    }
    return {
      kind: "ambiguous",
      cause: "unexpected_status",
      status: error.error_code,
      body,
      detail: `Telegram answered ${error.error_code}: ${error.description}`,
    };
  }
  if (timedOut) {
    return { kind: "ambiguous", cause: "timeout", detail: "no answer from Telegram in time" };
  }
  // grammY wraps what fetch threw: the connection failed or dropped, or the body was no JSON.
  const inner = error instanceof HttpError ? error.error : error;
  const malformed = inner instanceof SyntaxError;
  return {
    kind: "ambiguous",
    cause: malformed ? "malformed" : "transport",
    detail: malformed
      ? "Telegram's answer was not its JSON envelope"
      : `the call to Telegram failed (${inner instanceof Error ? inner.name : "non-error"})`,
  };
}
