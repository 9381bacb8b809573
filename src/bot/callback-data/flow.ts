/**
 * A press on a private flow prompt's button; the conversation reads these itself.
 * - `flow:amount:<n>` | `flow:amount:other`   (stars amount step; n one of the presets)
 * - `flow:duration:<3|6|12>`                   (premium duration step)
 * - `flow:cancel`                              (cancel button of any flow prompt)
 */
import {
  isPremiumDuration,
  type PremiumDuration,
  STAR_AMOUNT_PRESETS,
} from "../../gifts/catalogue.js";

/** Every press with this prefix, well-formed or not, belongs to a flow prompt. */
export const FLOW_DATA = /^flow:/;

const WHOLE = /^[1-9][0-9]{0,6}$/;

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
  return FLOW_DATA.test(data);
}
