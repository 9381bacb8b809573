/**
 * Input checks the client makes before any request (docs/service-contract.md §1, §3, §5.3), so a
 * request that the service would refuse is never sent and never counts against the shared quota.
 */
import {
  isPaymentMethod,
  isPremiumDuration,
  isStarsAmount,
  MAX_STARS,
  MIN_STARS,
  USERNAME_PATTERN,
} from "../gifts/catalogue.js";
import type { Invalid } from "./types.js";

/**
 * Undefined when valid. The username is sent as given (the service accepts the optional `@`,
 * docs/service-contract.md §3).
 */
export function checkUsername(username: unknown): Invalid | undefined {
  if (typeof username === "string" && USERNAME_PATTERN.test(username)) return undefined;
  return {
    kind: "invalid",
    field: "username",
    detail: "a username is 4 to 32 letters, digits or underscores, starting with a letter",
  };
}

export function checkAmount(amount: unknown): Invalid | undefined {
  if (isStarsAmount(amount)) return undefined;
  return {
    kind: "invalid",
    field: "amount",
    detail: `the amount of stars is a whole number from ${MIN_STARS} to ${MAX_STARS}`,
  };
}

export function checkDuration(duration: unknown): Invalid | undefined {
  if (isPremiumDuration(duration)) return undefined;
  return { kind: "invalid", field: "duration", detail: "premium lasts 3, 6 or 12 months" };
}

export function checkPaymentMethod(method: unknown): Invalid | undefined {
  if (method === undefined || isPaymentMethod(method)) return undefined;
  return { kind: "invalid", field: "payment_method", detail: "payment method is usdt_ton or ton" };
}
