/**
 * The purchase path (docs/service-contract.md §2, §5): one request, never retried, classified,
 * and logged at error level when its outcome is unknown, since then someone must reconcile the
 * wallet and the recipient before any new purchase.
 */
import type { Logger } from "../shared/logger.js";
import { classifyPurchaseAnswer } from "./classify-purchase.js";
import type { QuotaGrant } from "./quota.js";
import type { ServiceRequest } from "./requests.js";
import type { QuotaSender } from "./sender.js";
import type { PurchaseCallOptions, PurchaseOutcome } from "./types.js";

/**
 * Sends the purchase exactly once and returns its classified outcome; in its `reserved` slot
 * at once when one was reserved for it, else after its turn in the quota.
 */
export async function sendPurchaseOnce(
  sender: QuotaSender,
  request: ServiceRequest,
  options: PurchaseCallOptions,
  settings: { maxBodyBytes: number; logger: Logger },
  reserved?: QuotaGrant,
): Promise<PurchaseOutcome> {
  const result = await sender.send(request, options, { told: false }, reserved);
  const outcome = classifyPurchaseAnswer(result, settings);
  const level = outcome.kind === "ambiguous" ? "error" : "info";
  settings.logger[level](
    {
      operation: request.operation,
      outcome: outcome.kind,
      ...(outcome.kind === "ambiguous" ? { cause: outcome.cause, status: outcome.status } : {}),
      ...(outcome.kind === "rejected" ? { status: outcome.status, detail: outcome.detail } : {}),
    },
    outcome.kind === "ambiguous"
      ? "purchase outcome unknown: reconcile before any new purchase"
      : "purchase answered",
  );
  return outcome;
}
