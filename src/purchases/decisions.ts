/**
 * The desk's pure decisions, as functions of their inputs only (no client, no ledger, no
 * clock of their own), so each can be read and tested alone: what a service answer means for
 * the chat flows, which balance figure a draft keeps, when `is_premium` must be asked again
 * and what its answer means, which refusals pass, and what a person's Confirm came to.
 */
import { parseUsername } from "../gifts/username.js";
import type { BalanceSnapshot, PurchaseIntent, RecordedOutcome } from "../ledger/types.js";
import type { GiftServiceClient, PurchaseOutcome } from "../service/types.js";
import type {
  BalanceRead,
  ConfirmRefusal,
  ConfirmResult,
  RecipientCheck,
  SentResult,
} from "./types.js";

/** What `getUserInfo`'s outcome means for a chat flow (`asked`: the name asked about). */
export function toRecipientCheck(
  asked: string,
  outcome: Awaited<ReturnType<GiftServiceClient["getUserInfo"]>>,
): RecipientCheck {
  switch (outcome.kind) {
    case "success": {
      if (!outcome.value.found) return { kind: "not_found" };
      // The service's spelling when it is a valid name, else the (valid) name asked about.
      const username = parseUsername(outcome.value.username ?? "") ?? parseUsername(asked);
      if (username === undefined) return { kind: "invalid_username" };
      return { kind: "ok", username, isPremium: outcome.value.isPremium };
    }
    case "rejected":
      return { kind: "refused", detail: outcome.detail };
    case "rate_limited":
      return { kind: "rate_limited", retryAfterSeconds: outcome.retryAfterSeconds };
    case "unavailable":
      return { kind: "unavailable" };
    case "invalid":
      return { kind: "invalid_username" };
    case "superseded":
      return { kind: "superseded" };
  }
}

/** What `getWalletBalance`'s outcome means for a summary. */
export function toBalanceRead(
  outcome: Awaited<ReturnType<GiftServiceClient["getWalletBalance"]>>,
): BalanceRead {
  switch (outcome.kind) {
    case "success":
      return { kind: "ok", balance: outcome.value };
    case "rate_limited":
      return { kind: "rate_limited", retryAfterSeconds: outcome.retryAfterSeconds };
    default:
      return { kind: "unavailable" };
  }
}

/**
 * The figure a draft, or an admin's evidence, records from a balance read: the TON and USDT
 * amounts as the service reported them; none when the read failed.
 */
export function balanceSnapshot(read: BalanceRead): BalanceSnapshot | undefined {
  return read.kind === "ok" ? { ton: read.balance.ton, usdt: read.balance.usdt } : undefined;
}

/** A cached balance read and when it started, as the desk's shared reads hold it. */
export interface CachedBalance {
  value: BalanceRead;
  at: number;
}

/**
 * The good figure a cached read holds, with its time: a read the service answered with a
 * balance it recognised. Used as a purchase's "balance before" without a new request.
 */
export function knownBalance(
  cached: CachedBalance | undefined,
): { balance: BalanceSnapshot; at: number } | undefined {
  if (cached?.value.kind !== "ok" || !cached.value.balance.recognised) return undefined;
  const { ton, usdt } = cached.value.balance;
  return { balance: { ton, usdt }, at: cached.at };
}

/**
 * When the figure a draft shows was read: known when the cache still holds that very figure
 * (the read the draft was made from); otherwise unknown (then it was read at or before the
 * draft's creation).
 */
export function balanceReadAt(
  shown: BalanceSnapshot | undefined,
  cached: CachedBalance | undefined,
): number | undefined {
  const known = knownBalance(cached);
  if (known === undefined || shown === undefined) return undefined;
  return known.balance.ton === shown.ton && known.balance.usdt === shown.usdt
    ? known.at
    : undefined;
}

/**
 * Whether a Confirm must know `is_premium` before the claim (the service asks that it be
 * checked before buying premium): the requester's own open (draft, or queued behind another
 * purchase), unexpired premium intent. Anything else the claim refuses anyway.
 */
export function needsPremiumCheck(intent: PurchaseIntent, userId: number, now: number): boolean {
  return (
    intent.kind === "premium" &&
    // Telegram gifts Premium to a user by id whatever they hold: the service's check is moot.
    intent.paidVia !== "telegram" &&
    (intent.status === "draft" || intent.status === "queued") &&
    intent.requester.userId === userId &&
    intent.expiresAt > now
  );
}

/**
 * The recipient check that may stand for `is_premium` now without asking again: one read
 * less than `recheckAfterMs` ago (its age counts from when it was read, not from when the
 * draft was made: a person may sit at the duration step for minutes) that said `is_premium`
 * plainly. Undefined when it must be asked again.
 */
export function freshPremiumCheck(
  cached: { value: RecipientCheck; at: number } | undefined,
  now: number,
  recheckAfterMs: number,
): RecipientCheck | undefined {
  if (cached === undefined || now - cached.at > recheckAfterMs) return undefined;
  const check = cached.value;
  return check.kind === "ok" && typeof check.isPremium === "boolean" ? check : undefined;
}

/**
 * What a recipient check read right before the claim means for buying premium: undefined
 * when it may be bought, `has_premium` when the recipient has it, else why nothing is bought
 * (no answer to be had, or an answer that left `is_premium` unknown).
 */
export function premiumVerdict(check: RecipientCheck): "has_premium" | ConfirmRefusal | undefined {
  if (check.kind !== "ok") return { reason: "recipient_unverified" };
  if (check.isPremium === true) return "has_premium";
  if (check.isPremium !== false) return { reason: "recipient_premium_unknown" };
  return undefined;
}

/**
 * Refusals that pass by themselves: a queued confirmation refused for one of them goes back to
 * an open draft the person may confirm again, while it has not expired. Any other refusal (and
 * any at the start after a crash, when nobody is at the summary) closes it unsent.
 */
export function isPassingRefusal(refusal: ConfirmRefusal): boolean {
  return PASSING_REFUSALS.has(refusal.reason);
}

const PASSING_REFUSALS: ReadonlySet<ConfirmRefusal["reason"]> = new Set([
  "paused",
  "frozen",
  "limit",
  "busy",
  "recipient_unverified",
  "recipient_premium_unknown",
  "storage",
  "stopping",
  "not_enough_stars",
  "stars_unavailable",
]);

/**
 * What a person's Confirm came to once the outcome of its request was written. `recorded`
 * false means a restart's recovery had already made the intent unconfirmed: it stays so.
 */
export function confirmResultOf(
  outcome: Exclude<PurchaseOutcome, { kind: "invalid" }>,
  recorded: RecordedOutcome,
): ConfirmResult {
  const { intent } = recorded;
  if (outcome.kind === "ambiguous") return { kind: "unconfirmed", intent, ambiguity: outcome };
  if (!recorded.recorded) return lateAfterRecovery(intent);
  return outcome.kind === "success"
    ? { kind: "succeeded", intent, txHash: outcome.value.txHash }
    : { kind: "rejected", intent, rejection: outcome };
}

/** A restart's recovery had already made the intent unconfirmed: it stays so for an admin. */
export function lateAfterRecovery(intent: PurchaseIntent): ConfirmResult {
  return {
    kind: "unconfirmed",
    intent,
    ambiguity: {
      kind: "ambiguous",
      cause: "transport",
      detail: "the outcome arrived after the intent was recovered as interrupted",
    },
  };
}

/**
 * The outcome could not be written: the intent stays `sending` while the desk holds the
 * outcome and writes it again in the background (then it becomes unconfirmed for an admin);
 * the person is told the outcome is unknown, never that they may retry (the request may have
 * gone out).
 */
export function unrecorded(claimed: PurchaseIntent): ConfirmResult {
  return {
    kind: "unconfirmed",
    intent: claimed,
    ambiguity: {
      kind: "ambiguous",
      cause: "transport",
      detail: "the outcome could not be recorded",
    },
  };
}

/** Whether a confirmation sent its request (whatever came of it). */
export function isSent(result: ConfirmResult): result is SentResult {
  return result.kind === "succeeded" || result.kind === "rejected" || result.kind === "unconfirmed";
}
