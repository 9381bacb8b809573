/**
 * Input checks the client makes before any request (spec 2.1, 4.3, 4.4, 8), so a request that
 * the service would refuse is never sent and never counts against the shared quota.
 */
import type { Invalid, PaymentMethod, PremiumDuration } from "./types.js";

/** The spec's username pattern (2.1): optional `@`, a letter, then 3 to 31 letters, digits or `_`. */
export const USERNAME_PATTERN = /^@?[A-Za-z][A-Za-z0-9_]{3,31}$/;
export const MIN_STARS = 50;
export const MAX_STARS = 1_000_000;
export const PREMIUM_DURATIONS: readonly PremiumDuration[] = [3, 6, 12];
export const PAYMENT_METHODS: readonly PaymentMethod[] = ["usdt_ton", "ton"];

/** Undefined when valid. The username is sent as given (the spec accepts the optional `@`). */
export function checkUsername(username: unknown): Invalid | undefined {
  if (typeof username === "string" && USERNAME_PATTERN.test(username)) return undefined;
  return {
    kind: "invalid",
    field: "username",
    detail: "a username is 4 to 32 letters, digits or underscores, starting with a letter",
  };
}

export function checkAmount(amount: unknown): Invalid | undefined {
  if (
    typeof amount === "number" &&
    Number.isInteger(amount) &&
    amount >= MIN_STARS &&
    amount <= MAX_STARS
  ) {
    return undefined;
  }
  return {
    kind: "invalid",
    field: "amount",
    detail: `the amount of stars is a whole number from ${MIN_STARS} to ${MAX_STARS}`,
  };
}

export function checkDuration(duration: unknown): Invalid | undefined {
  if (PREMIUM_DURATIONS.includes(duration as PremiumDuration)) return undefined;
  return { kind: "invalid", field: "duration", detail: "premium lasts 3, 6 or 12 months" };
}

export function checkPaymentMethod(method: unknown): Invalid | undefined {
  if (method === undefined || PAYMENT_METHODS.includes(method as PaymentMethod)) return undefined;
  return { kind: "invalid", field: "payment_method", detail: "payment method is usdt_ton or ton" };
}
