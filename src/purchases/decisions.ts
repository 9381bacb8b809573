/**
 * The desk's pure decisions, as functions of their inputs only (no client, no ledger, no
 * clock of their own), so each can be read and tested alone: what a service answer means for
 * the chat flows, which balance figure a draft keeps, when a premium summary must be checked
 * again, and what a person's Confirm came to.
 */
import { parseUsername } from "../gifts/username.js";
import type { RecordedOutcome } from "../ledger/ledger.js";
import type { BalanceSnapshot, PurchaseIntent } from "../ledger/types.js";
import type { GiftServiceClient, PurchaseOutcome } from "../service/types.js";
import type { BalanceRead, ConfirmResult, RecipientCheck, SentResult } from "./types.js";

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
      // Only a check sent with an owner and `replace` ends so; the desk sends neither yet.
      return { kind: "unavailable" };
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
 * Whether a premium summary is old enough that the recipient may have got premium since
 * (the service asks that `is_premium` be checked before buying). Only the requester's own
 * unexpired draft is checked; anything else the claim refuses anyway.
 */
export function needsPremiumRecheck(
  intent: PurchaseIntent,
  userId: number,
  now: number,
  recheckAfterMs: number,
): boolean {
  return (
    intent.kind === "premium" &&
    intent.status === "draft" &&
    intent.requester.userId === userId &&
    intent.expiresAt > now &&
    now - intent.createdAt > recheckAfterMs
  );
}

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
 * The outcome could not be written: the intent stays `sending`, which holds every new claim
 * until a restart makes it unconfirmed for an admin; the person is told the outcome is
 * unknown, never that they may retry (the request may have gone out).
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
