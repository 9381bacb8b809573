/**
 * Every callback data string the bot puts on a button, with strict encode/decode pairs.
 *
 * Callback data comes back from the person's client, so it is untrusted input: anyone can forge
 * it. Decoders accept only the exact shapes the encoders produce and return `undefined` for
 * anything else, so a handler never acts on half-parsed data. Telegram caps callback data at
 * 64 bytes, which every format here stays well under.
 *
 * Formats:
 * - `menu:stars` | `menu:premium`                    (start menu: begin a flow)
 * - `flow:amount:<n>` | `flow:amount:other`          (stars amount step)
 * - `flow:duration:<3|6|12>`                          (premium duration step)
 * - `flow:cancel`                                     (cancel button of any flow prompt)
 * - `buy:confirm:<intentId>` | `buy:cancel:<intentId>` | `buy:method:<intentId>:<ton|usdt_ton>`
 *                                                      (summary buttons, handled outside the conversation)
 * - `lang:<en|ru>`                                    (language picker)
 */
import {
  INTENT_ID_PATTERN,
  isPaymentMethod,
  isPremiumDuration,
  type PaymentMethod,
  type PremiumDuration,
  STAR_AMOUNT_PRESETS,
} from "../../gifts/catalogue.js";

/** Locales the bot speaks. */
export const LOCALES = ["en", "ru"] as const;
export type Locale = (typeof LOCALES)[number];

const WHOLE = /^[1-9][0-9]{0,6}$/;

export type MenuAction = "stars" | "premium";

export function encodeMenu(action: MenuAction): string {
  return `menu:${action}`;
}

export function decodeMenu(data: string): MenuAction | undefined {
  if (data === "menu:stars") return "stars";
  if (data === "menu:premium") return "premium";
  return undefined;
}

/** A press on a flow prompt's button. */
export type FlowAction =
  | { type: "amount"; amount: number }
  | { type: "amount-other" }
  | { type: "duration"; months: PremiumDuration }
  | { type: "cancel" };

export function encodeFlow(action: FlowAction): string {
  switch (action.type) {
    case "amount":
      return `flow:amount:${action.amount}`;
    case "amount-other":
      return "flow:amount:other";
    case "duration":
      return `flow:duration:${action.months}`;
    case "cancel":
      return "flow:cancel";
  }
}

export function decodeFlow(data: string): FlowAction | undefined {
  if (data === "flow:cancel") return { type: "cancel" };
  if (data === "flow:amount:other") return { type: "amount-other" };
  const parts = data.split(":");
  if (parts.length !== 3 || parts[0] !== "flow") return undefined;
  const [, kind, value = ""] = parts;
  if (kind === "amount" && WHOLE.test(value)) {
    const amount = Number(value);
    return (STAR_AMOUNT_PRESETS as readonly number[]).includes(amount)
      ? { type: "amount", amount }
      : undefined;
  }
  if (kind === "duration" && WHOLE.test(value)) {
    const months = Number(value);
    return isPremiumDuration(months) ? { type: "duration", months } : undefined;
  }
  return undefined;
}

/** Whether data belongs to the flow prompts at all (even if malformed), for routing. */
export function isFlowData(data: string): boolean {
  return data.startsWith("flow:");
}

/** A press on a summary's button: the ledger, not the conversation, decides what it does. */
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

export function encodeLanguage(locale: Locale): string {
  return `lang:${locale}`;
}

export function decodeLanguage(data: string): Locale | undefined {
  const found = LOCALES.find((l) => `lang:${l}` === data);
  return found;
}
