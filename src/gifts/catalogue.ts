/**
 * What can be gifted, and how it is paid for: the one place the service's product rules live
 * (docs/service-contract.md, "What is sold"). The client validates against it, the ledger
 * refuses drafts outside it, the bot builds its buttons from it and the sandbox enforces it, so
 * the four can never disagree about what a valid purchase is.
 */

/** The two things the service sells. */
export type GiftKind = "stars" | "premium";

/** What a purchase is paid with; the service's default is `usdt_ton`. */
export type PaymentMethod = "usdt_ton" | "ton";
const PAYMENT_METHODS: readonly PaymentMethod[] = ["usdt_ton", "ton"];

/** Premium lasts 3, 6 or 12 months; the service never changes the duration. */
export type PremiumDuration = 3 | 6 | 12;
export const PREMIUM_DURATIONS: readonly PremiumDuration[] = [3, 6, 12];

/**
 * How a Premium gift is paid: through the service, from the operator's wallet (`service`), or by
 * the bot itself in Telegram Stars from its own Star balance (`telegram`, Bot API
 * `giftPremiumSubscription`). Stars gifts always go through the service.
 */
export type PaidVia = "service" | "telegram";

/**
 * How Premium is paid (PREMIUM_VIA, docs/telegram-premium.md): `service`, through the Gift
 * Purchase Service from the wallet (the default); `telegram`, by the bot itself from its Star
 * balance, only for recipients the bot can name by id; `telegram-first`, Telegram when the
 * recipient's id is known, the service otherwise.
 */
export type PremiumVia = "service" | "telegram" | "telegram-first";

/**
 * What Telegram charges a bot for gifting Premium (`giftPremiumSubscription`'s `star_count`): one
 * fixed price per duration, which the call must name exactly.
 */
export const PREMIUM_STAR_PRICES: Readonly<Record<PremiumDuration, 1000 | 1500 | 2500>> = {
  3: 1000,
  6: 1500,
  12: 2500,
};

/** A stars purchase is a whole number of stars in this range, inclusive. */
export const MIN_STARS = 50;
export const MAX_STARS = 1_000_000;

/**
 * The most stars one purchase may ask for under the operator's per-purchase limit: never
 * above the service's maximum, and never below its minimum (so the range is never empty).
 */
export function maxStarsWithin(perPurchaseLimit: number): number {
  return Math.max(MIN_STARS, Math.min(MAX_STARS, perPurchaseLimit));
}

/** Amount buttons the bot offers for stars (any other amount in range can be typed). */
export const STAR_AMOUNT_PRESETS = [50, 100, 250, 500, 1000, 2500] as const;

/** A recipient username: optional `@`, a letter, then 3 to 31 letters, digits or `_`. */
export const USERNAME_PATTERN = /^@?[A-Za-z][A-Za-z0-9_]{3,31}$/;

/** Purchase intent ids are random URL-safe tokens; anything else in callback data is forged. */
export const INTENT_ID_PATTERN = /^[A-Za-z0-9_-]{6,40}$/;

export function isPremiumDuration(value: unknown): value is PremiumDuration {
  return PREMIUM_DURATIONS.includes(value as PremiumDuration);
}

export function isPaymentMethod(value: unknown): value is PaymentMethod {
  return PAYMENT_METHODS.includes(value as PaymentMethod);
}

export function isStarsAmount(value: unknown): value is number {
  return (
    typeof value === "number" && Number.isInteger(value) && value >= MIN_STARS && value <= MAX_STARS
  );
}
