/**
 * The spending limits: their safe defaults, and the one table of what each counts. The claim's
 * SQL (src/storage/ledger/claims.ts), its refusal and the headroom the bot shows before anything
 * is recorded are all read from {@link LIMIT_RULES}, so a limit is added in one place.
 */
import type {
  ClaimRefusal,
  DayUsage,
  IntentKind,
  LimitName,
  PurchaseIntent,
  SpendingLimits,
} from "./types.js";

/**
 * Safe default spending limits: small enough that a mistake or an abused account costs little,
 * large enough for ordinary gifting. The settings (LIMIT_*) default to these same values and
 * let the operator change them.
 */
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

/**
 * One spending limit: the kind of gift it bounds, over what (one purchase alone, the person's
 * purchases of the UTC day, or the whole bot's), and its maximum in the settings. A Stars
 * purchase counts its stars; a Premium purchase counts one gift.
 */
export interface LimitRule {
  name: LimitName;
  kind: IntentKind;
  over: "purchase" | "person" | "bot";
  max: (limits: SpendingLimits) => number;
}

/** Every limit the claim checks, in the order a refusal names the first that fails. */
export const LIMIT_RULES: readonly LimitRule[] = [
  { name: "stars_per_purchase", kind: "stars", over: "purchase", max: (l) => l.starsPerPurchase },
  { name: "stars_per_user_day", kind: "stars", over: "person", max: (l) => l.starsPerUserDay },
  { name: "stars_per_bot_day", kind: "stars", over: "bot", max: (l) => l.starsPerBotDay },
  {
    name: "premium_per_user_day",
    kind: "premium",
    over: "person",
    max: (l) => l.premiumPerUserDay,
  },
  { name: "premium_per_bot_day", kind: "premium", over: "bot", max: (l) => l.premiumPerBotDay },
];

/** The limits a purchase of `kind` meets; `exempt`: an admin skips the per-person ones. */
function rulesFor(kind: IntentKind, exempt: boolean): LimitRule[] {
  return LIMIT_RULES.filter((rule) => rule.kind === kind && !(exempt && rule.over === "person"));
}

/** What one purchase counts against its limits: its stars, or one Premium gift. */
function countOf(intent: Pick<PurchaseIntent, "kind" | "quantity">): number {
  return intent.kind === "stars" ? intent.quantity : 1;
}

/** What `rule` has counted so far today (nothing for the per-purchase limit). */
function usedToday(rule: LimitRule, usage: DayUsage): number {
  if (rule.over === "purchase") return 0;
  if (rule.kind === "stars") return (rule.over === "bot" ? usage.starsBot : usage.starsUser) ?? 0;
  return (rule.over === "bot" ? usage.premiumBot : usage.premiumUser) ?? 0;
}

/**
 * The limit that refuses `intent` given today's `usage`, the first in the claim's order, or
 * undefined when none does: how a refused claim explains itself. The per-purchase limit never
 * resets by waiting, so it "resets" at `now`.
 */
export function limitRefusal(
  limits: SpendingLimits,
  intent: Pick<PurchaseIntent, "kind" | "quantity">,
  usage: DayUsage,
  exempt: boolean,
  now: number,
): ClaimRefusal | undefined {
  for (const rule of rulesFor(intent.kind, exempt)) {
    const used = usedToday(rule, usage);
    const max = rule.max(limits);
    if (used + countOf(intent) > max) {
      const resetsAt = rule.over === "purchase" ? now : usage.resetsAt;
      return { reason: "limit", limit: rule.name, max, used, resetsAt };
    }
  }
  return undefined;
}

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
 * The most a person may buy now of `kind`, under every limit the claim checks: so the bot can
 * say it, and ask within it, before anything is recorded. The claim still decides; this is what
 * it would allow if nothing changed in between. `exempt`: an admin whose own purchases skip the
 * per-person limits (LIMITS_EXEMPT_ADMINS). `scope`: for one gift, or for a day's many (see
 * {@link HeadroomScope}).
 */
export function headroom(
  kind: IntentKind,
  limits: SpendingLimits,
  usage: DayUsage,
  exempt: boolean,
  scope: HeadroomScope = "one_gift",
): Headroom {
  return rulesFor(kind, exempt)
    .filter((rule) => scope === "one_gift" || rule.over !== "purchase")
    .map((rule): Headroom => {
      const max = rule.max(limits);
      const left = Math.max(0, max - usedToday(rule, usage));
      return { left, limit: rule.name, max, daily: rule.over !== "purchase" };
    })
    .reduce((least, next) => (next.left < least.left ? next : least));
}
