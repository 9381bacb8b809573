/**
 * Texts built from several locale keys: the summary, the outcome of a confirmation, the reason
 * a button press did nothing. Kept apart from the handlers so the conversation (first render)
 * and the plain callback handlers (re-render, outcome) show exactly the same thing.
 */
import { type CostEstimate, estimateExceedsBalance } from "../costs/estimate.js";
import { balanceIn, currencyOf, formatMoney, parseMoney } from "../costs/money.js";
import type { PurchaseCost } from "../costs/types.js";
import type { PurchaseIntent } from "../ledger/types.js";
import type { ConfirmRefusal, ConfirmResult, Settlement } from "../purchases/types.js";
import { buyerRefusal } from "../purchases/breaker.js";
import type { Rejected } from "../service/types.js";
import type { StarBalanceRead } from "../stars/types.js";
import type { Translate } from "./context.js";
import { formatDateTime, formatDecimal } from "./format.js";
import { paidInStars, starGroupLines, starPaymentLine, starSummaryLines } from "./stars-views.js";

/**
 * Where a person can look a transaction up: TON_EXPLORER_URL followed by the hash; undefined
 * when no explorer is configured (the demo: sandbox purchases are not on a real chain).
 */
export function transactionUrl(txHash: string, explorer: string | undefined): string | undefined {
  return explorer === undefined ? undefined : `${explorer}${encodeURIComponent(txHash)}`;
}

/** "Transaction: <link>", or the bare hash when there is no explorer to link to. */
export function transactionLine(
  t: Translate,
  txHash: string,
  explorer: string | undefined,
): string {
  const url = transactionUrl(txHash, explorer);
  return url === undefined
    ? t("outcome-transaction-hash", { hash: txHash })
    : t("outcome-transaction", { url });
}

/**
 * The gift's one name in the person's language ("100 Telegram Stars", "Telegram Premium for 6
 * months"): every text that names a gift (summary, outcome, history, the admins' lists) uses
 * it, so a gift is never called two things.
 */
export function giftName(t: Translate, intent: Pick<PurchaseIntent, "kind" | "quantity">): string {
  return intent.kind === "stars"
    ? t("gift-stars", { amount: intent.quantity })
    : t("gift-premium", { months: intent.quantity });
}

/** "Recipient: @x" and "Gift: 100 Telegram Stars" lines. */
function giftLines(t: Translate, intent: PurchaseIntent): string[] {
  return [
    t("summary-recipient", { username: intent.recipient }),
    t("summary-gift", { gift: giftName(t, intent) }),
  ];
}

/** A measured cost as a figure and currency for a text, e.g. `{ amount: "0.75", currency: "USDT" }`. */
function costFigure(
  locale: string,
  cost: Extract<PurchaseCost, { measured: true }>,
): { amount: string; currency: string } {
  return {
    amount: formatDecimal(locale, cost.amount) ?? cost.amount,
    currency: cost.currency.toUpperCase(),
  };
}

/**
 * Whether a text shows what a gift cost (the operator's figure, shown as the balance is:
 * SHOW_BALANCE_TO). `measuring`: shown, and a measurement is under way, so the text says so
 * rather than look final before the cost is added to it.
 */
export type CostView = "hidden" | "shown" | "measuring";

/** "cost: 0.75 USDT" when the intent's cost was measured and may be shown; undefined otherwise. */
function costLine(
  t: Translate,
  locale: string,
  intent: PurchaseIntent,
  view: CostView,
): string | undefined {
  if (view === "hidden") return undefined;
  if (intent.cost?.measured === true) return t("cost-line", costFigure(locale, intent.cost));
  return view === "measuring" ? t("cost-line-measuring") : undefined;
}

/** The admins' line about a cost: the figure and how it was measured, or why there is none. */
export function costDetailLine(
  t: Translate,
  locale: string,
  cost: PurchaseCost | undefined,
): string | undefined {
  if (cost === undefined) return undefined;
  return cost.measured
    ? t("cost-detail", { ...costFigure(locale, cost), source: t(`cost-source-${cost.source}`) })
    : t("cost-detail-unmeasured", { reason: t(`cost-unmeasured-${cost.reason}`) });
}

/** "Estimated cost: about 0.75 USDT (from 2 recent purchases)". */
function estimateLine(t: Translate, locale: string, estimate: CostEstimate): string {
  const amount = formatMoney(estimate.cost);
  return t("summary-estimate", {
    amount: formatDecimal(locale, amount) ?? amount,
    currency: estimate.cost.currency.toUpperCase(),
    count: estimate.basedOn,
  });
}

/**
 * The estimate's lines for a summary: "Estimated cost: about 0.75 USDT (from 2 recent
 * purchases)", and a warning when that is more than the wallet holds in that currency.
 */
function estimateLines(
  t: Translate,
  locale: string,
  intent: PurchaseIntent,
  estimate: CostEstimate | undefined,
): string[] {
  // Said plainly rather than left out: the service quotes no prices, so only a purchase measures one.
  if (estimate === undefined) return [t("summary-estimate-unknown")];
  const currency = estimate.cost.currency.toUpperCase();
  const lines = [estimateLine(t, locale, estimate)];
  const balance =
    intent.balanceBefore === undefined
      ? undefined
      : balanceIn(intent.balanceBefore, estimate.cost.currency);
  if (estimateExceedsBalance(estimate, balance) === true) {
    lines.push(t("summary-estimate-exceeds", { currency }));
  }
  return lines;
}

/** What a summary may show besides the gift: the estimate, and whether the balance is shown. */
export interface SummaryView {
  /** From recent purchases of the same kind; undefined when there are none. */
  estimate?: CostEstimate | undefined;
  /**
   * The operator's wallet balance is shown (admins, and buyers when SHOW_BALANCE_TO says so).
   * Otherwise a buyer reads only that the wallet cannot cover the gift, without a figure.
   */
  showBalance: boolean;
  /** A gift through Telegram: the bot's Star balance, read for the summary. */
  stars?: StarBalanceRead | undefined;
}

/** "Wallet balance: 100 TON, 1,000 USDT", or that it is not known. */
function balanceLine(t: Translate, locale: string, intent: PurchaseIntent): string {
  const balance = intent.balanceBefore;
  const ton = formatDecimal(locale, balance?.ton);
  const usdt = formatDecimal(locale, balance?.usdt);
  return ton === undefined && usdt === undefined
    ? t("summary-balance-unknown")
    : t("summary-balance", {
        ton: ton ?? t("unknown-value"),
        usdt: usdt ?? t("unknown-value"),
      });
}

/**
 * Whether the wallet, as read for this summary, cannot pay for the gift: nothing at all in the
 * payment's currency, or less than the estimate. False when that is not known.
 */
function walletCannotCover(intent: PurchaseIntent, estimate: CostEstimate | undefined): boolean {
  const currency = currencyOf(intent.paymentMethod);
  const balance =
    intent.balanceBefore === undefined ? undefined : balanceIn(intent.balanceBefore, currency);
  const money = parseMoney(currency, balance);
  if (money === undefined) return false;
  if (money.units <= 0n) return true;
  return estimate !== undefined && estimateExceedsBalance(estimate, balance) === true;
}

/** The operator's figures on a private summary: the balance and the estimate, or neither. */
function walletLines(
  t: Translate,
  locale: string,
  intent: PurchaseIntent,
  view: SummaryView,
): string[] {
  if (view.showBalance) {
    return [balanceLine(t, locale, intent), ...estimateLines(t, locale, intent, view.estimate)];
  }
  // The estimate is a cost, the operator's figure like the balance: not shown either.
  return walletCannotCover(intent, view.estimate) ? [t("summary-wallet-short")] : [];
}

/**
 * The summary a person confirms: recipient, gift, payment method and, in a private chat, the
 * wallet's balance (to whom {@link SummaryView} says) and an estimate of the cost from recent
 * purchases of the same kind.
 */
export function summaryText(
  t: Translate,
  locale: string,
  intent: PurchaseIntent,
  view: SummaryView,
): string {
  const priv = intent.requester.chatType === "private";
  const paying = paidInStars(intent)
    ? [
        starPaymentLine(t, intent),
        ...(priv
          ? starSummaryLines(t, intent, view.stars, view.showBalance)
          : starGroupLines(t, intent, view.stars)),
      ]
    : [
        t("summary-method", { method: t(`method-${intent.paymentMethod}`) }),
        // The operator's figures are shown in private chats only, never in a group.
        ...(priv ? walletLines(t, locale, intent, view) : []),
      ];
  return [
    t("summary-title"),
    "",
    ...giftLines(t, intent),
    ...paying,
    "",
    t("summary-confirm-hint"),
  ].join("\n");
}

/** The summary with a status line instead of the hint (sending, queued, refused...). */
export function summaryWithStatus(
  t: Translate,
  locale: string,
  intent: PurchaseIntent,
  status: string,
  view: SummaryView,
): string {
  const lines = summaryText(t, locale, intent, view).split("\n");
  lines[lines.length - 1] = status;
  return lines.join("\n");
}

/** Capitalises the first letter, for reasons shown on their own (callback answers). */
export function sentence(text: string): string {
  return text.charAt(0).toLocaleUpperCase() + text.slice(1);
}

/**
 * Who reads a text: a private chat may see the operator's figures (a limit's use and maximum),
 * a group never does.
 */
export type Audience = "private" | "group";

/** The audience of a chat: anything but a private chat is public. */
export function audienceOf(chatType: string | undefined): Audience {
  return chatType === "private" ? "private" : "group";
}

/**
 * Why a claim was refused, in the person's language (lower-case, to follow a colon). The
 * audience is required: in a group, the operator's limit figures are not said.
 */
export function refusalText(
  t: Translate,
  locale: string,
  refusal: ConfirmRefusal,
  audience: Audience,
): string {
  switch (refusal.reason) {
    case "limit": {
      const limit = t(`limit-${refusal.limit}`);
      const resetsAt = formatDateTime(locale, refusal.resetsAt);
      // Not a daily limit: waiting changes nothing, so no reset is named.
      if (refusal.limit === "stars_per_purchase") {
        return t("refusal-limit-per-purchase", { max: refusal.max });
      }
      // The bot-wide figures are the operator's: a group sees the limit's name and reset only.
      // A private chat sees what is left, not what was used: the gift may be over the limit
      // without the limit being used up.
      return audience === "group"
        ? t("refusal-limit-group", { limit, resetsAt })
        : t("refusal-limit", {
            limit,
            left: Math.max(0, refusal.max - refusal.used),
            max: refusal.max,
            resetsAt,
          });
    }
    case "already_done":
      return t("refusal-already_done");
    case "not_enough_stars":
      // The bot's Star balance is the operator's figure: a group reads only that it is short.
      return audience === "group"
        ? t("refusal-not_enough_stars-group")
        : t("refusal-not_enough_stars", { stars: refusal.stars, needed: refusal.needed });
    case "frozen":
      return t("refusal-frozen");
    case "paused": {
      // Paused by the breaker: the person learns why, and that nothing was spent.
      return refusal.source === "breaker" ? t("refusal-paused-breaker") : t("refusal-paused");
    }
    default:
      return t(`refusal-${refusal.reason}`);
  }
}

/**
 * What the summary message becomes once the confirmation has an answer. `costs`: whether its
 * reader may see what it cost (see {@link CostView}).
 */
export function outcomeText(
  t: Translate,
  locale: string,
  result: ConfirmResult,
  explorer: string | undefined,
  costs: CostView,
): string {
  switch (result.kind) {
    case "succeeded": {
      const intent = result.intent;
      const delivered = t("outcome-delivered", {
        gift: giftName(t, intent),
        username: intent.recipient,
      });
      const txHash = result.txHash ?? intent.txHash;
      const cost = costLine(t, locale, intent, costs);
      return [
        delivered,
        ...(result.proof === undefined ? [] : [t("outcome-proved")]),
        ...(cost === undefined ? [] : [sentence(cost)]),
        ...(txHash === undefined ? [] : [transactionLine(t, txHash, explorer)]),
      ].join("\n");
    }
    case "not_sent":
      // The request never left (cancelled while queued at shutdown, or refused by the client's
      // own checks): there is no service reason to show, and nothing was spent.
      return withGift(t, result.intent, t("outcome-not-sent"));
    case "rejected":
      return withGift(t, result.intent, rejectedText(t, result.intent, result.rejection));
    case "unconfirmed": {
      const wait = result.ambiguity.retryAfterSeconds;
      const lines = [t("outcome-unknown")];
      if (wait !== undefined && wait > 0) lines.push(t("outcome-unknown-wait", { seconds: wait }));
      return withGift(t, result.intent, lines.join("\n"));
    }
    case "closed":
      // A queued confirmation that will not be sent now: nothing left, nothing was spent.
      return withGift(
        t,
        result.intent,
        t("outcome-closed", {
          reason: refusalText(
            t,
            locale,
            result.refusal,
            audienceOf(result.intent.requester.chatType),
          ),
        }),
      );
    case "recipient_has_premium":
      return withGift(
        t,
        result.intent,
        t("outcome-has-premium", { username: result.intent.recipient }),
      );
    case "refused":
      // No intent says where this is shown: said as in a group, without the limit figures.
      return t("outcome-refused", { reason: refusalText(t, locale, result.refusal, "group") });
  }
}

/**
 * What a requester is told once the unknown outcome of their gift is settled: an admin's
 * finding, or the service's own answer told as any outcome is (buyer's words only).
 */
export function settledNoticeText(
  t: Translate,
  locale: string,
  intent: PurchaseIntent,
  settlement: Settlement,
  explorer: string | undefined,
  costs: CostView,
): string {
  let outcome: string;
  if (settlement.by === "admin") {
    const key = settlement.delivered ? "settled-admin-delivered" : "settled-admin-not-delivered";
    outcome = t(key, { gift: giftName(t, intent), username: intent.recipient });
  } else if (settlement.by === "telegram") {
    outcome = t("settled-proved", { gift: giftName(t, intent), username: intent.recipient });
  } else {
    const { answer } = settlement;
    const result: ConfirmResult =
      answer.kind === "success"
        ? { kind: "succeeded", intent, txHash: answer.value.txHash }
        : { kind: "rejected", intent, rejection: answer };
    outcome = outcomeText(t, locale, result, explorer, costs);
  }
  return [t("settled-title"), "", outcome].join("\n");
}

/**
 * What a buyer is told of a definite refusal: one sentence per kind of refusal, in their
 * language. Never the service's own words: they carry codes and instructions for the operator
 * (a cookie's name, the wallet's state), which admins read in /purchases, the alerts and the
 * export. A refusal about the session or the wallet has opened the breaker, so the admins are
 * told; the sentence says so only then.
 */
function rejectedText(t: Translate, intent: PurchaseIntent, rejection: Rejected): string {
  const about = buyerRefusal(rejection.body, rejection.detail);
  const key = about === "session" || about === "wallet" ? "setup" : about;
  return t(`outcome-rejected-${key}`, { username: intent.recipient });
}

function withGift(t: Translate, intent: PurchaseIntent, outcome: string): string {
  return [...giftLines(t, intent), "", outcome].join("\n");
}

/** The summary message after the person cancelled it. */
export function cancelledText(t: Translate, intent: PurchaseIntent | undefined): string {
  return intent === undefined
    ? t("outcome-cancelled")
    : withGift(t, intent, t("outcome-cancelled"));
}

/** One line of /history; `showCost`: the person may see what gifts cost (SHOW_BALANCE_TO). */
export function historyLine(
  t: Translate,
  locale: string,
  intent: PurchaseIntent,
  showCost: boolean,
): string {
  const line = t("history-item", {
    date: formatDateTime(locale, intent.createdAt),
    gift: giftName(t, intent),
    recipient: intent.recipient,
    status: t(`status-${intent.status}`),
  });
  return showCost && intent.cost?.measured === true
    ? `${line}${t("cost-line-history", costFigure(locale, intent.cost))}`
    : line;
}
