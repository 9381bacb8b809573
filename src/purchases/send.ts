/**
 * Sends a claimed intent's one purchase request through the client. Called only after the
 * ledger's claim has committed; never retried.
 */
import type { PurchaseIntent } from "../ledger/types.js";
import { GiftServiceCallCancelledError } from "../service/errors.js";
import type { GiftServiceClient, PremiumDuration, PurchaseOutcome } from "../service/types.js";

/** The request never left, so nothing was spent (cancelled while queued for the quota). */
export interface NotSent {
  kind: "not_sent";
  detail: string;
}

/**
 * Sends the intent's request. `not_sent` when the client cancelled it before it left (the
 * shutdown stops purchases still waiting for the quota). The client promises never to throw;
 * if it does anyway, the request may have gone out: the outcome is ambiguous.
 */
export async function sendPurchase(
  client: GiftServiceClient,
  intent: PurchaseIntent,
  onQueued?: (waitMs: number) => void,
): Promise<PurchaseOutcome | NotSent> {
  try {
    if (intent.kind === "stars") {
      return await client.buyStars(
        {
          username: intent.recipient,
          amount: intent.quantity,
          paymentMethod: intent.paymentMethod,
        },
        { onQueued },
      );
    }
    return await client.buyPremium(
      {
        username: intent.recipient,
        // The ledger only records 3, 6 or 12; the client checks again before sending.
        duration: intent.quantity as PremiumDuration,
        paymentMethod: intent.paymentMethod,
      },
      { onQueued },
    );
  } catch (err) {
    if (err instanceof GiftServiceCallCancelledError && !err.sent) {
      return {
        kind: "not_sent",
        detail:
          err.reason === "aborted"
            ? "not sent: cancelled before sending"
            : "not sent: cancelled at shutdown",
      };
    }
    return {
      kind: "ambiguous",
      cause: "transport",
      detail: `the client failed unexpectedly (${err instanceof Error ? err.name : "non-error"})`,
    };
  }
}
