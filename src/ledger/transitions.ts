/**
 * The one table of allowed status moves. Everything that changes an intent's status asks this
 * table first, so a move the issue does not name (a resend, an undo) cannot happen by accident.
 */
import { IllegalTransitionError } from "./errors.js";
import type { ClaimRefusal, IntentStatus, LateAnswer, PurchaseIntent } from "./types.js";

/** Every status and the statuses it may move to; anything absent is refused. */
const TRANSITIONS: Readonly<Record<IntentStatus, readonly IntentStatus[]>> = {
  draft: ["queued", "sending", "cancelled", "expired"],
  // A queued confirmation leaves by the claim, back to an open draft when its claim is refused
  // for a reason that passes (the person may press again), or closed as never sent.
  // unconfirmed: only after a restore from a backup, which cannot know whether the promise was
  // kept (sent) after the backup was taken.
  queued: ["sending", "draft", "rejected", "expired", "unconfirmed"],
  sending: ["succeeded", "rejected", "unconfirmed"],
  // delivered | not_delivered: an admin's settlement. succeeded | rejected: the service's own
  // definite answer, arriving after a recovery had made the intent unconfirmed (lateAnswer).
  unconfirmed: ["delivered", "not_delivered", "succeeded", "rejected"],
  succeeded: [],
  rejected: [],
  delivered: [],
  not_delivered: [],
  cancelled: [],
  expired: [],
};

/** Statuses whose purchase may have spent money: they count against the daily limits. */
export const SPENDING_STATUSES: readonly IntentStatus[] = [
  "sending",
  "succeeded",
  "unconfirmed",
  "delivered",
];

/**
 * What an answer to a request does when it arrives after its intent was made unconfirmed (a
 * recovery ran while the request was out: a restart, or another process that took over), and
 * perhaps settled by an admin since. `answer` is the status the answer would have written
 * (src/storage/sqlite/outcomes.ts `outcomePatch`); `definite`: the service's own success or
 * refusal, not an ambiguous answer, nor the bot's own "not sent". Undefined when the intent
 * was not waiting for a late answer (the answer is then written as usual).
 */
export function lateAnswer(
  status: IntentStatus,
  answer: "succeeded" | "rejected" | "unconfirmed",
  definite: boolean,
): LateAnswer | undefined {
  switch (status) {
    case "unconfirmed":
      return definite ? "settled" : "kept";
    case "delivered":
      return definite && answer === "rejected" ? "contradicts" : "kept";
    case "not_delivered":
      return definite && answer === "succeeded" ? "contradicts" : "kept";
    default:
      return undefined;
  }
}

/** Whether `from → to` is an allowed move. */
export function canMove(from: IntentStatus, to: IntentStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** Throws {@link IllegalTransitionError} unless `from → to` is an allowed move. */
export function assertMove(intentId: string, from: IntentStatus, to: IntentStatus): void {
  if (!canMove(from, to)) throw new IllegalTransitionError(intentId, from, to);
}

/**
 * The refusal an intent's status alone implies for a confirmation, or `undefined` while it is
 * an open draft (then only the claim decides). A queued intent has been confirmed already: a
 * second press is "already processing", as for one being sent. Shared by the claim's explanation and by the
 * bot's early answer to a press, so both always give the same reason.
 */
export function refusalForStatus(
  status: IntentStatus,
  expiresAt: number,
  now: number,
): ClaimRefusal | undefined {
  switch (status) {
    case "draft":
      return expiresAt <= now ? { reason: "expired" } : undefined;
    case "queued":
    case "sending":
      return { reason: "already_processing" };
    case "cancelled":
      return { reason: "cancelled" };
    case "expired":
      return { reason: "expired" };
    default:
      return { reason: "already_done", status };
  }
}

/**
 * The refusal an intent implies by itself to a press of `userId` at `now` (missing, another's,
 * or its status: {@link refusalForStatus}), or `undefined` when only the claim's other rules
 * decide. `queuedAsDraft`: for the claim, which lets a queued confirmation out as a draft.
 */
export function refusalForIntent(
  intent: PurchaseIntent | undefined,
  userId: number,
  now: number,
  queuedAsDraft = false,
): ClaimRefusal | undefined {
  if (intent === undefined) return { reason: "not_found" };
  if (intent.requester.userId !== userId) return { reason: "not_owner" };
  const status = queuedAsDraft && intent.status === "queued" ? "draft" : intent.status;
  return refusalForStatus(status, intent.expiresAt, now);
}
