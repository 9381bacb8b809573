/**
 * Safe default spending limits: small enough that a mistake or an abused account costs little,
 * large enough for ordinary gifting. The settings (LIMIT_*) default to these same values and
 * let the operator change them.
 */
import type { SpendingLimits } from "./types.js";

export const DEFAULT_LIMITS: Readonly<SpendingLimits> = {
  starsPerPurchase: 10_000,
  starsPerUserDay: 10_000,
  starsPerBotDay: 100_000,
  premiumPerUserDay: 3,
  premiumPerBotDay: 20,
  adminsExempt: false,
};

/** Default time a summary (draft) stays confirmable. */
export const DEFAULT_DRAFT_TTL_MS = 10 * 60_000;
