/**
 * Safe default spending limits: small enough that a mistake or an abused account costs little,
 * large enough for ordinary gifting. The settings (LIMIT_*) default to these same values and
 * let the operator change them.
 */
import type { DayUsage, IntentKind, LimitName, SpendingLimits } from "./types.js";

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

/** What one person may still buy today of one kind of gift, and the limit that decides it. */
export interface Headroom {
  /** Stars, or Premium gifts, that may still be bought (never below 0). */
  left: number;
  /** The limit that leaves the least; on a tie, the first checked (per purchase, person, bot). */
  limit: LimitName;
  /** That limit's maximum. */
  max: number;
  /** False for the per-purchase limit, which waiting does not change. */
  daily: boolean;
}

/**
 * What the room is for: `one_gift` (a person's next gift, which the per-purchase cap limits
 * too) or `day` (many gifts, a giveaway's: the cap limits each of them, never their total).
 */
export type HeadroomScope = "one_gift" | "day";

/**
 * The most a person may buy now of `kind`, under every limit the claim checks
 * (Ledger.claim): so the bot can say it, and ask within it, before anything is recorded. The
 * claim still decides; this is what it would allow if nothing changed in between. `exempt`:
 * an admin whose own purchases skip the per-person limits (LIMITS_EXEMPT_ADMINS). `scope`:
 * for one gift, or for a day's many (see {@link HeadroomScope}).
 */
export function headroom(
  kind: IntentKind,
  limits: SpendingLimits,
  usage: DayUsage,
  exempt: boolean,
  scope: HeadroomScope = "one_gift",
): Headroom {
  const candidates: Headroom[] =
    kind === "stars"
      ? [
          ...(scope === "one_gift"
            ? [daily("stars_per_purchase", limits.starsPerPurchase, 0, false)]
            : []),
          ...(exempt
            ? []
            : [daily("stars_per_user_day", limits.starsPerUserDay, usage.starsUser ?? 0)]),
          daily("stars_per_bot_day", limits.starsPerBotDay, usage.starsBot),
        ]
      : [
          ...(exempt
            ? []
            : [daily("premium_per_user_day", limits.premiumPerUserDay, usage.premiumUser ?? 0)]),
          daily("premium_per_bot_day", limits.premiumPerBotDay, usage.premiumBot),
        ];
  return candidates.reduce((least, next) => (next.left < least.left ? next : least));
}

function daily(limit: LimitName, max: number, used: number, isDaily = true): Headroom {
  return { left: Math.max(0, max - used), limit, max, daily: isDaily };
}
