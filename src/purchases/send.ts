/**
 * Sends a claimed intent's one purchase request through the client, in the quota slot reserved
 * for it before the claim: the request leaves at once, it never waits for the quota once
 * claimed. Called only after the ledger's claim has committed; never retried.
 */
import type { PurchaseIntent } from "../ledger/types.js";
import { GiftServiceCallCancelledError } from "../service/errors.js";
import type {
  GiftServiceClient,
  PremiumDuration,
  PurchaseCallOptions,
  PurchaseOutcome,
} from "../service/types.js";

/**
 * The request never left, so nothing was spent: withheld at the last moment because this
 * process may no longer hold the sender lease (a purchase in its reserved slot waits for
 * nothing else that could cancel it).
 */
export interface NotSent {
  kind: "not_sent";
  detail: string;
}

const NOT_SENT_DETAILS: Readonly<Record<GiftServiceCallCancelledError["reason"], string>> = {
  aborted: "not sent: cancelled before sending",
  closed: "not sent: cancelled at shutdown",
  stopped: "not sent: cancelled at shutdown",
  withheld: "not sent: this process was no longer sure to hold the sender lease",
};

/**
 * Sends the intent's request, in its reserved `slot`. `not_sent` when the client cancelled it
 * before it left (`mayLeave`, asked by the client as the last step before the request is
 * written, withholds it). The client promises never to throw otherwise; if it does anyway,
 * the request may have gone out: the outcome is ambiguous.
 */
export async function sendPurchase(
  client: GiftServiceClient,
  intent: PurchaseIntent,
  options: PurchaseCallOptions,
): Promise<PurchaseOutcome | NotSent> {
  try {
    if (intent.kind === "stars") {
      return await client.buyStars(
        {
          username: intent.recipient,
          amount: intent.quantity,
          paymentMethod: intent.paymentMethod,
        },
        options,
      );
    }
    return await client.buyPremium(
      {
        username: intent.recipient,
        // The ledger only records 3, 6 or 12; the client checks again before sending.
        duration: intent.quantity as PremiumDuration,
        paymentMethod: intent.paymentMethod,
      },
      options,
    );
  } catch (err) {
    if (err instanceof GiftServiceCallCancelledError && !err.sent) {
      return { kind: "not_sent", detail: NOT_SENT_DETAILS[err.reason] };
    }
    return {
      kind: "ambiguous",
      cause: "transport",
      detail: `the client failed unexpectedly (${err instanceof Error ? err.name : "non-error"})`,
    };
  }
}
