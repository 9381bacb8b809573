/**
 * A press on a summary's button, keyed by the intent id; handled outside any conversation,
 * because the ledger, not the conversation, decides what it does.
 * - `buy:confirm:<intentId>` | `buy:cancel:<intentId>`
 * - `buy:method:<intentId>:<ton|usdt_ton>`
 */
import { INTENT_ID_PATTERN, isPaymentMethod, type PaymentMethod } from "../../gifts/catalogue.js";

/** Routes every press with this prefix, well-formed or not, to the summary's handler. */
export const BUY_DATA = /^buy:/;

export type SummaryAction =
  | { type: "confirm"; intentId: string }
  | { type: "cancel"; intentId: string }
  | { type: "method"; intentId: string; method: PaymentMethod };

export function encodeSummary(action: SummaryAction): string {
  switch (action.type) {
    case "confirm":
      return `buy:confirm:${action.intentId}`;
    case "cancel":
      return `buy:cancel:${action.intentId}`;
    case "method":
      return `buy:method:${action.intentId}:${action.method}`;
  }
}

export function decodeSummary(data: string): SummaryAction | undefined {
  const parts = data.split(":");
  if (parts[0] !== "buy") return undefined;
  const [, type, intentId = "", method] = parts;
  if (!INTENT_ID_PATTERN.test(intentId)) return undefined;
  if (parts.length === 3 && type === "confirm") return { type: "confirm", intentId };
  if (parts.length === 3 && type === "cancel") return { type: "cancel", intentId };
  if (parts.length === 4 && type === "method") {
    return isPaymentMethod(method) ? { type: "method", intentId, method } : undefined;
  }
  return undefined;
}
