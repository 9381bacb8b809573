/**
 * The texts of Premium gifted through Telegram from the bot's own Stars (issue #39): how a
 * summary says it will be paid, the proof that settled a lost answer, what admins read of the
 * Stars (evidence, /balance) and of a proof. Every text comes from the locale files.
 */
import { PREMIUM_STAR_PRICES, type PremiumDuration } from "../gifts/catalogue.js";
import type { PurchaseIntent } from "../ledger/types.js";
import type { ReconciliationEvidence, StarProof } from "../purchases/types.js";
import type { StarBalanceRead } from "../stars/types.js";
import type { Translate } from "./context.js";
import { formatDateTime } from "./format.js";

/** Telegram's price of a gift through Telegram (3, 6 or 12 months). */
function starPrice(intent: Pick<PurchaseIntent, "quantity">): number {
  return PREMIUM_STAR_PRICES[intent.quantity as PremiumDuration];
}

/** Whether the intent is paid in the bot's Stars. */
export function paidInStars(intent: Pick<PurchaseIntent, "paidVia">): boolean {
  return intent.paidVia === "telegram";
}

/** "Payment: 1,000 Telegram Stars from the bot's own balance (through Telegram, no wallet)". */
export function starPaymentLine(t: Translate, intent: PurchaseIntent): string {
  return t("summary-method-stars", { stars: starPrice(intent) });
}

/**
 * A private summary's lines about the bot's Stars: the balance to whom balances are shown, and
 * to everyone a warning when it cannot pay (without the figure to those who do not see it).
 */
export function starSummaryLines(
  t: Translate,
  intent: PurchaseIntent,
  stars: StarBalanceRead | undefined,
  showBalance: boolean,
): string[] {
  const lines: string[] = [];
  if (showBalance) {
    lines.push(
      stars?.kind === "ok"
        ? t("summary-stars-balance", { stars: stars.stars })
        : t("summary-stars-balance-unknown"),
    );
  }
  if (stars?.kind === "ok" && stars.stars < starPrice(intent)) lines.push(t("summary-stars-short"));
  return lines;
}

/** A group's summary: only the warning that the balance cannot pay (never the figure). */
export function starGroupLines(
  t: Translate,
  intent: PurchaseIntent,
  stars: StarBalanceRead | undefined,
): string[] {
  return stars?.kind === "ok" && stars.stars < starPrice(intent) ? [t("summary-stars-short")] : [];
}

/** /balance's line of the bot's own Stars. */
export function starBalanceLine(t: Translate, read: StarBalanceRead): string {
  return read.kind === "ok"
    ? t("admin-balance-stars", { stars: read.stars })
    : t("admin-balance-stars-unavailable");
}

/** The lines of a proof: the transaction, and the balances around it. */
function proofLines(t: Translate, locale: string, proof: StarProof): string[] {
  const { transaction } = proof;
  const unknown = t("unknown-value");
  return [
    t("admin-proved-transaction", {
      id: transaction.id,
      stars: Math.abs(transaction.amount),
      user: String(transaction.userId ?? unknown),
      months: transaction.premiumMonths ?? 0,
      date: formatDateTime(locale, transaction.date * 1000),
    }),
    t("admin-proved-balances", {
      before: proof.starsBefore ?? unknown,
      after: proof.starsAfter ?? unknown,
    }),
  ];
}

/** The admins' news: a gift whose answer was lost is proved by the bot's Star transactions. */
export function provedNewsText(
  t: Translate,
  locale: string,
  intent: PurchaseIntent,
  gift: string,
  proof: StarProof,
  lines: readonly string[],
): string {
  return [
    t("admin-proved-news", { gift, recipient: intent.recipient }),
    "",
    ...lines,
    ...proofLines(t, locale, proof),
    "",
    t("admin-proved-hint"),
  ].join("\n");
}

/** The last line of a settled alert of a proved gift: which transaction settled it. */
export function provedByLine(t: Translate, intent: PurchaseIntent): string {
  return t("admin-resolved-proved", { id: provedTransactionId(intent) ?? t("unknown-value") });
}

/** The id of the transaction kept as the proof in the intent's response, if one is. */
function provedTransactionId(intent: PurchaseIntent): string | undefined {
  const response = intent.response;
  if (typeof response !== "object" || response === null || !("proof" in response)) {
    return undefined;
  }
  const proof = (response as { proof: { transaction?: { id?: unknown } } | null }).proof;
  return typeof proof?.transaction?.id === "string" ? proof.transaction.id : undefined;
}

/** The evidence of a gift through Telegram (src/purchases/stars-evidence.ts), for admins. */
export function starsEvidenceLines(
  t: Translate,
  locale: string,
  intent: PurchaseIntent,
  evidence: ReconciliationEvidence | undefined,
): string[] {
  const stars = evidence?.stars;
  const unknown = t("unknown-value");
  const lines = [
    t("admin-evidence-stars-paid", { price: stars?.price ?? starPrice(intent) }),
    t("admin-evidence-stars-recipient", { id: String(intent.recipientUserId ?? unknown) }),
    t("admin-evidence-stars-balance", {
      before: stars?.starsBefore ?? unknown,
      now: stars?.starsNow ?? unknown,
    }),
  ];
  const search = stars?.search;
  if (search === undefined) {
    lines.push(t("admin-evidence-stars-search-none"));
  } else if ("unavailable" in search) {
    lines.push(
      t("admin-evidence-stars-search-unavailable", {
        date: formatDateTime(locale, search.at),
        detail: search.unavailable,
      }),
    );
  } else {
    lines.push(
      t("admin-evidence-stars-search", {
        date: formatDateTime(locale, search.at),
        read: search.read,
        complete: search.complete ? "yes" : "no",
        matches: search.matches,
        others: search.otherGifts,
      }),
    );
  }
  lines.push(t("admin-evidence-stars-hint"));
  return lines;
}
