/**
 * Who may start a purchase flow and confirm a purchase. This is a seam: the access-control
 * work (admins, allowed buyers, group administrators) replaces the default, which allows
 * everyone, without touching the flows themselves.
 */
import type { IntentKind } from "../ledger/types.js";
import type { BotContext } from "./context.js";

export interface AccessCheckRequest {
  kind: IntentKind;
  /** `start`: before anything is asked upstream; `confirm`: before the claim is attempted. */
  stage: "start" | "confirm";
}

export type AccessCheckDecision =
  | { allowed: true }
  /** `text` is shown to the person (already translated); the default explains access is closed. */
  | { allowed: false; text?: string };

export type AccessCheck = (
  ctx: BotContext,
  request: AccessCheckRequest,
) => AccessCheckDecision | Promise<AccessCheckDecision>;
