/**
 * The evidence of a gift through Telegram whose outcome is unknown, as an admin reads it: the
 * price, the bot's Star balance before (when known) and now, and what the last search of the
 * bot's Star transactions looked at (kept in the intent's response by the ledger's
 * `noteSearch`). The wallet is never read for it.
 */
import type { PremiumDuration } from "../gifts/catalogue.js";
import { PREMIUM_STAR_PRICES } from "../gifts/catalogue.js";
import type { PurchaseIntent } from "../ledger/types.js";
import type { ReconciliationEvidence, StarsEvidence } from "./types.js";

/** The kept search, when the response holds one in the shape `noteSearch` wrote. */
function keptSearch(response: unknown): Record<string, unknown> | undefined {
  if (typeof response !== "object" || response === null || !("search" in response))
    return undefined;
  const search = response.search;
  return typeof search === "object" && search !== null
    ? (search as Record<string, unknown>)
    : undefined;
}

function numberOr(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** The Star balance read before the gift, as the last search kept it (this process may not know it). */
export function keptStarsBefore(intent: PurchaseIntent): number | undefined {
  return numberOr(keptSearch(intent.response)?.starsBefore);
}

export function starsEvidence(
  intent: PurchaseIntent,
  starsNow: number | undefined,
): ReconciliationEvidence {
  const kept = keptSearch(intent.response);
  const at = numberOr(kept?.at) ?? 0;
  let search: StarsEvidence["search"];
  if (kept !== undefined && typeof kept.unavailable === "string") {
    search = { unavailable: kept.unavailable, at };
  } else if (kept !== undefined) {
    search = {
      read: numberOr(kept.read) ?? 0,
      complete: kept.complete === true,
      matches: numberOr(kept.matches) ?? 0,
      otherGifts: numberOr(kept.otherGifts) ?? 0,
      at,
    };
  }
  return {
    intent,
    balanceBefore: undefined,
    balanceNow: undefined,
    recipientHasPremiumNow: undefined,
    txHash: undefined,
    onChainTransfers: undefined,
    stars: {
      price: PREMIUM_STAR_PRICES[intent.quantity as PremiumDuration],
      starsNow,
      starsBefore: numberOr(kept?.starsBefore),
      search,
    },
  };
}
