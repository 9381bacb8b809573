/**
 * `grp:dur:<3|6|12>` | `grp:cancel`: a group premium prompt's buttons. They carry only the
 * choice: the prompt's state (who started it, for whom) is looked up by the message, so forged
 * data cannot name another recipient or pass for another administrator.
 */
import { PREMIUM_DURATIONS, type PremiumDuration } from "../../gifts/catalogue.js";

/** Routes every press with this prefix, well-formed or not, to the group flow's handler. */
export const GROUP_DATA = /^grp:/;

export type GroupAction = { type: "duration"; months: PremiumDuration } | { type: "cancel" };

export function encodeGroup(action: GroupAction): string {
  return action.type === "cancel" ? "grp:cancel" : `grp:dur:${action.months}`;
}

export function decodeGroup(data: string): GroupAction | undefined {
  if (data === "grp:cancel") return { type: "cancel" };
  const parts = data.split(":");
  if (parts.length !== 3 || parts[0] !== "grp" || parts[1] !== "dur") return undefined;
  const months = PREMIUM_DURATIONS.find((d) => String(d) === parts[2]);
  return months === undefined ? undefined : { type: "duration", months };
}
