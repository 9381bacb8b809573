/**
 * Typed ledger errors. The ledger refuses instead of guessing, because a wrong status move can
 * mean a purchase sent twice or an outcome lost; callers tell these apart by class, not text.
 */
import type { IntentStatus } from "./types.js";

/** Base class, so callers can catch every ledger refusal at once. */
class LedgerError extends Error {
  override name = "LedgerError";
}

/** A status move the lifecycle does not allow (for example succeeded → sending). */
export class IllegalTransitionError extends LedgerError {
  override name = "IllegalTransitionError";
  constructor(
    readonly intentId: string,
    readonly from: IntentStatus,
    readonly to: IntentStatus,
  ) {
    super(`Purchase intent ${intentId} cannot move from ${from} to ${to}.`);
  }
}

/** No intent has this id. */
export class IntentNotFoundError extends LedgerError {
  override name = "IntentNotFoundError";
  constructor(readonly intentId: string) {
    super(`No purchase intent has the id ${intentId}.`);
  }
}

/** A draft request the ledger will not record (bad quantity, unknown kind...). */
export class InvalidDraftError extends LedgerError {
  override name = "InvalidDraftError";
}

/**
 * A process fenced with the sender lease asked to recover what was left in flight, and no
 * longer holds the lease: those purchases may be another holder's, still on their way (issue
 * #35). The start that asked ends; the process that holds the lease recovers them.
 */
export class LeaseNotHeldError extends LedgerError {
  override name = "LeaseNotHeldError";
  constructor() {
    super("This process no longer holds the sender lease: it recovers nothing.");
  }
}
