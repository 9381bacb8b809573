/**
 * Safe default spending limits: small enough that a mistake or an abused account costs little,
 * large enough for ordinary gifting. The operator raises them through configuration.
 */
import type { SpendingLimits } from "./types.js";

export const DEFAULT_LIMITS: Readonly<SpendingLimits> = {
  starsPerPurchase: 5_000,
  starsPerUserDay: 5_000,
  starsPerBotDay: 25_000,
  premiumPerUserDay: 2,
  premiumPerBotDay: 10,
  adminsExempt: false,
};

/** Default time a summary (draft) stays confirmable. */
export const DEFAULT_DRAFT_TTL_MS = 10 * 60_000;
