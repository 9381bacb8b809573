/**
 * Texts built from several locale keys: the summary, the outcome of a confirmation, the reason
 * a button press did nothing. Kept apart from the handlers so the conversation (first render)
 * and the plain callback handlers (re-render, outcome) show exactly the same thing.
 */
import type { PurchaseIntent } from "../ledger/types.js";
import type { ConfirmRefusal, ConfirmResult } from "../purchases/types.js";
import type { Translate } from "./context.js";
import { formatDateTime, formatDecimal } from "./format.js";

/** Where a person can look a transaction up. */
export function transactionUrl(txHash: string): string {
  return `https://tonviewer.com/transaction/${encodeURIComponent(txHash)}`;
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

/** The summary a person confirms: recipient, gift, payment method, the wallet's balance. */
export function summaryText(t: Translate, locale: string, intent: PurchaseIntent): string {
  const balance = intent.balanceBefore;
  const ton = formatDecimal(locale, balance?.ton);
  const usdt = formatDecimal(locale, balance?.usdt);
  const balanceLine =
    ton === undefined && usdt === undefined
      ? t("summary-balance-unknown")
      : t("summary-balance", {
          ton: ton ?? t("unknown-value"),
          usdt: usdt ?? t("unknown-value"),
        });
  return [
    t("summary-title"),
    "",
    ...giftLines(t, intent),
    t("summary-method", { method: t(`method-${intent.paymentMethod}`) }),
    // The operator's figures are shown in private chats only, never in a group.
    ...(intent.requester.chatType === "private" ? [balanceLine] : []),
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
): string {
  const lines = summaryText(t, locale, intent).split("\n");
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

/** Why a claim was refused, in the person's language (lower-case, to follow a colon). */
export function refusalText(
  t: Translate,
  locale: string,
  refusal: ConfirmRefusal,
  audience: Audience = "private",
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
    case "frozen":
      return t("refusal-frozen");
    case "paused": {
      // Paused by the breaker: the person learns why, and that nothing was spent.
      const byBreaker = "source" in refusal && refusal.source === "breaker";
      return byBreaker ? t("refusal-paused-breaker") : t("refusal-paused");
    }
    default:
      return t(`refusal-${refusal.reason}`);
  }
}

/** What the summary message becomes once the confirmation has an answer. */
export function outcomeText(t: Translate, locale: string, result: ConfirmResult): string {
  switch (result.kind) {
    case "succeeded": {
      const intent = result.intent;
      const delivered = t("outcome-delivered", {
        gift: giftName(t, intent),
        username: intent.recipient,
      });
      const txHash = result.txHash ?? intent.txHash;
      return txHash === undefined
        ? delivered
        : `${delivered}\n${t("outcome-transaction", { url: transactionUrl(txHash) })}`;
    }
    case "not_sent":
      // The request never left (cancelled while queued at shutdown, or refused by the client's
      // own checks): there is no service reason to show, and nothing was spent.
      return withGift(t, result.intent, t("outcome-not-sent"));
    case "rejected": {
      const reason = result.rejection.detail ?? result.intent.outcomeDetail;
      return withGift(
        t,
        result.intent,
        t("outcome-rejected", { reason: reason ?? t("outcome-no-reason") }),
      );
    }
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
        t("outcome-closed", { reason: refusalText(t, locale, result.refusal) }),
      );
    case "recipient_has_premium":
      return withGift(
        t,
        result.intent,
        t("outcome-has-premium", { username: result.intent.recipient }),
      );
    case "refused":
      return t("outcome-refused", { reason: refusalText(t, locale, result.refusal) });
  }
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

/** One line of /history. */
export function historyLine(t: Translate, locale: string, intent: PurchaseIntent): string {
  return t("history-item", {
    date: formatDateTime(locale, intent.createdAt),
    gift: giftName(t, intent),
    recipient: intent.recipient,
    status: t(`status-${intent.status}`),
  });
}
