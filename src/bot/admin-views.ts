/**
 * What admins read: the wallet overview, purchase lists and details, reconciliation evidence,
 * the limits and the access lists. Every text comes from the locale files; these functions only
 * pick the keys and fill in the values, so /pending and the unconfirmed notification show the
 * same evidence the same way.
 */
import { fromNano } from "@ton/core";
import type { AllowedEntry } from "../access/access-list.js";
import type { DayTotals, DayUsage, PurchaseIntent, SpendingLimits } from "../ledger/types.js";
import type { BalanceRead, DeskStatus, ReconciliationEvidence } from "../purchases/types.js";
import { quoteServiceText } from "../service/quote.js";
import type { Translate } from "./context.js";
import { formatDateTime, formatDecimal } from "./format.js";
import { outcomeDetailText } from "./outcome-detail.js";
import type { NameLookup } from "./people.js";
import { costDetailLine, giftName, transactionLine, transactionUrl } from "./purchase-views.js";
import { starBalanceLine, starsEvidenceLines } from "./stars-views.js";
import type { StarBalanceRead } from "../stars/types.js";

/** The paying wallet as configured (address derived or given, contract version). */
export interface WalletInfo {
  address?: string | undefined;
  version?: string | undefined;
}

/** The gift's one name, as every other text shows it (src/bot/purchase-views.ts). */
export { giftName };

function value(t: Translate, locale: string, decimal: string | undefined): string {
  return formatDecimal(locale, decimal) ?? t("unknown-value");
}

/** A user id as a plain string (Fluent would group its digits like an amount). */
export function userName(t: Translate, id: number, label?: string): string {
  return label === undefined
    ? t("admin-user", { id: String(id) })
    : t("admin-user-labelled", { id: String(id), label });
}

/** Nobody's name is known: ids only. */
const noNames: NameLookup = () => undefined;

/** A person as admins see them: the name the bot last saw with the id, or the id alone. */
export function who(t: Translate, id: number, names: NameLookup): string {
  return userName(t, id, names(id));
}

/** "Asked by @bea_buyer (2001) in a private chat". */
export function requesterLine(t: Translate, intent: PurchaseIntent, names: NameLookup): string {
  const chat =
    intent.requester.chatType === "private"
      ? t("admin-chat-private")
      : t("admin-chat-group", { chatId: String(intent.requester.chatId) });
  return t("admin-intent-requester", { who: who(t, intent.requester.userId, names), chat });
}

/** /balance: balances, wallet, today's purchases, whether buying is open. */
export function balanceText(
  t: Translate,
  locale: string,
  input: {
    read: BalanceRead;
    wallet: WalletInfo;
    usage: DayUsage;
    today: DayTotals | undefined;
    status: DeskStatus;
    /** The bot's own Telegram Stars, when Premium may be paid through Telegram. */
    stars?: StarBalanceRead | undefined;
  },
): string {
  const lines = [t("admin-balance-title"), ""];
  const { read } = input;
  if (read.kind === "ok") {
    lines.push(t("admin-balance-ton", { ton: value(t, locale, read.balance.ton) }));
    lines.push(t("admin-balance-usdt", { usdt: value(t, locale, read.balance.usdt) }));
  } else if (read.kind === "rate_limited") {
    lines.push(t("admin-balance-rate-limited", { seconds: Math.max(1, read.retryAfterSeconds) }));
  } else {
    lines.push(t("admin-balance-unavailable"));
  }
  lines.push(
    input.wallet.address === undefined
      ? t("admin-wallet-address-unknown")
      : t("admin-wallet-address", { address: input.wallet.address }),
  );
  if (input.wallet.version !== undefined) {
    lines.push(t("admin-wallet-version", { version: input.wallet.version }));
  }
  if (input.stars !== undefined) lines.push(starBalanceLine(t, input.stars));
  lines.push("");
  const sent = Object.values(input.today?.byStatus ?? {}).reduce((a, b) => a + b, 0);
  lines.push(
    t("admin-today", {
      count: sent,
      stars: input.usage.starsBot,
      premium: input.usage.premiumBot,
    }),
  );
  lines.push(...stateLines(t, input.status));
  return lines.join("\n");
}

/** Whether purchases are open, paused, frozen (or both). */
function stateLines(t: Translate, status: DeskStatus): string[] {
  const lines: string[] = [];
  if (status.paused) {
    lines.push(
      t(status.pausedBy === "breaker" ? "admin-state-paused-breaker" : "admin-state-paused"),
    );
  }
  if (status.unconfirmed > 0) lines.push(t("admin-state-frozen", { count: status.unconfirmed }));
  if (lines.length === 0) lines.push(t("admin-state-open"));
  return lines;
}

/** One line of /purchases, starting with the number of the button that opens it. */
function purchaseLine(
  t: Translate,
  locale: string,
  intent: PurchaseIntent,
  number: number,
  names: NameLookup,
): string {
  return t("admin-purchase-line", {
    number,
    date: formatDateTime(locale, intent.createdAt),
    gift: giftName(t, intent),
    recipient: intent.recipient,
    status: t(`status-${intent.status}`),
    who: who(t, intent.requester.userId, names),
  });
}

/** A page of /purchases (its buttons: purchasesKeyboard, numbered as the lines are). */
export function purchasesPage(
  t: Translate,
  locale: string,
  intents: PurchaseIntent[],
  offset: number,
  names: NameLookup = noNames,
): string {
  if (intents.length === 0) return t("admin-purchases-empty");
  return [
    t("admin-purchases-title", { from: offset + 1, to: offset + intents.length }),
    "",
    ...intents.map((intent, index) => purchaseLine(t, locale, intent, offset + index + 1, names)),
    "",
    t("admin-purchases-hint"),
  ].join("\n");
}

/** `/purchases <id>`: everything the ledger knows about one intent. */
export function purchaseDetails(
  t: Translate,
  locale: string,
  intent: PurchaseIntent,
  explorer: string | undefined,
  names: NameLookup = noNames,
): string {
  const lines = [
    t("admin-detail-title", { id: intent.id }),
    "",
    t("admin-detail-gift", { gift: giftName(t, intent), recipient: intent.recipient }),
    t("admin-detail-status", { status: t(`status-${intent.status}`) }),
    t("summary-method", { method: t(`method-${intent.paymentMethod}`) }),
    requesterLine(t, intent, names),
    t("admin-detail-created", { date: formatDateTime(locale, intent.createdAt) }),
  ];
  if (intent.sentAt !== undefined) {
    lines.push(t("admin-intent-sent", { date: formatDateTime(locale, intent.sentAt) }));
  }
  if (intent.finishedAt !== undefined) {
    lines.push(t("admin-detail-finished", { date: formatDateTime(locale, intent.finishedAt) }));
  }
  if (intent.balanceBefore !== undefined) {
    lines.push(
      t("admin-evidence-balance-before", {
        ton: value(t, locale, intent.balanceBefore.ton),
        usdt: value(t, locale, intent.balanceBefore.usdt),
      }),
    );
  }
  const cost = costDetailLine(t, locale, intent.cost);
  if (cost !== undefined) lines.push(cost);
  if (intent.txHash !== undefined) lines.push(transactionLine(t, intent.txHash, explorer));
  const detail = outcomeDetailText(t, intent);
  if (detail !== undefined) lines.push(t("admin-intent-detail", { detail }));
  if (intent.resolvedAt !== undefined) {
    const date = formatDateTime(locale, intent.resolvedAt);
    lines.push(
      intent.resolvedBy === undefined
        ? t("admin-detail-resolved-late", { date })
        : t("admin-detail-resolved", { admin: who(t, intent.resolvedBy, names), date }),
    );
  }
  return lines.join("\n");
}

/** On-chain transfers shown per evidence message; the rest are counted. */
const MAX_TRANSFERS_SHOWN = 5;
/** Longest on-chain comment quoted per transfer. */
const MAX_TRANSFER_COMMENT = 120;

/** Other purchases listed per evidence message; the rest are counted. */
const MAX_SENT_SINCE_SHOWN = 10;

/**
 * The "before" balance with how old it is: a figure read minutes before the request went out
 * may already miss other spending, so an admin must see when it was read. Without a known read
 * time it was read with the summary, so the draft's creation is the latest it can be from.
 */
function balanceBeforeLine(
  t: Translate,
  locale: string,
  intent: PurchaseIntent,
  evidence: ReconciliationEvidence | undefined,
): string {
  const before = evidence?.balanceBefore ?? intent.balanceBefore;
  const figures = {
    ton: value(t, locale, before?.ton),
    usdt: value(t, locale, before?.usdt),
  };
  if (before === undefined) return t("admin-evidence-balance-before", figures);
  const readAt = evidence?.balanceBeforeAt ?? intent.balanceBeforeAt;
  if (readAt === undefined) {
    return t("admin-evidence-balance-before-with-summary", {
      ...figures,
      date: formatDateTime(locale, intent.createdAt),
    });
  }
  const date = formatDateTime(locale, readAt);
  if (intent.sentAt === undefined) {
    return t("admin-evidence-balance-before-at", { ...figures, date });
  }
  return t("admin-evidence-balance-before-at-sent", {
    ...figures,
    date,
    // Whole minutes, rounded down: "0 min" says it was fresh, never overstating its age.
    minutes: Math.max(0, Math.floor((intent.sentAt - readAt) / 60_000)),
  });
}

/** The balance now, with when it was read (it is read for this message, but may be cached). */
function balanceNowLine(
  t: Translate,
  locale: string,
  evidence: ReconciliationEvidence | undefined,
): string {
  const figures = {
    ton: value(t, locale, evidence?.balanceNow?.ton),
    usdt: value(t, locale, evidence?.balanceNow?.usdt),
  };
  const readAt = evidence?.balanceNowAt;
  return evidence?.balanceNow === undefined || readAt === undefined
    ? t("admin-evidence-balance-now", figures)
    : t("admin-evidence-balance-now-at", { ...figures, date: formatDateTime(locale, readAt) });
}

/**
 * The other purchases sent since the "before" figure: a drop from "before" to "now" may be
 * partly theirs, so an admin must not read the whole drop as this purchase's spending.
 * Nothing at all when there were none (or they are not known).
 */
function sentSinceLines(
  t: Translate,
  locale: string,
  others: PurchaseIntent[] | undefined,
): string[] {
  if (others === undefined || others.length === 0) return [];
  const lines = [t("admin-evidence-sent-since", { count: others.length })];
  for (const other of others.slice(0, MAX_SENT_SINCE_SHOWN)) {
    lines.push(
      t("admin-evidence-sent-since-line", {
        id: other.id,
        gift: giftName(t, other),
        recipient: other.recipient,
        status: t(`status-${other.status}`),
        date:
          other.sentAt === undefined ? t("unknown-value") : formatDateTime(locale, other.sentAt),
      }),
    );
  }
  if (others.length > MAX_SENT_SINCE_SHOWN) {
    lines.push(
      t("admin-evidence-sent-since-more", { count: others.length - MAX_SENT_SINCE_SHOWN }),
    );
  }
  return lines;
}

/**
 * An unconfirmed intent with what an admin needs to decide: the gift, who asked, the cause,
 * the balances before (with when it was read) and now, the other purchases sent since the
 * "before" figure, the recipient's premium state, a transaction, on-chain transfers.
 * `evidence` may be undefined when it could not be gathered (the intent alone is shown).
 */
export function evidenceText(
  t: Translate,
  locale: string,
  intent: PurchaseIntent,
  evidence: ReconciliationEvidence | undefined,
  title: "notification" | "pending",
  explorer: string | undefined,
  names: NameLookup = noNames,
): string {
  return evidenceFrame(
    t,
    title,
    intent,
    evidenceBody(t, locale, intent, evidence, explorer, names),
  );
}

/** The evidence `body` under its title, with the hint that purchases wait for a settlement. */
export function evidenceFrame(
  t: Translate,
  title: "notification" | "pending",
  intent: PurchaseIntent,
  body: string,
): string {
  return [
    t(title === "notification" ? "admin-unconfirmed-title" : "admin-pending-title", {
      gift: giftName(t, intent),
      recipient: intent.recipient,
    }),
    "",
    body,
    "",
    // Paid in the bot's Stars: the wallet has nothing to show; the recipient's Premium does.
    t(intent.paidVia === "telegram" ? "admin-evidence-hint-stars" : "admin-evidence-hint"),
  ].join("\n");
}

/**
 * The evidence of {@link evidenceText} without its title and its hint: what stays on the
 * message once the outcome is settled (src/bot/admin-notifications/settled-alerts.ts).
 */
export function evidenceBody(
  t: Translate,
  locale: string,
  intent: PurchaseIntent,
  evidence: ReconciliationEvidence | undefined,
  explorer: string | undefined,
  names: NameLookup = noNames,
): string {
  const lines = [t("admin-intent-id", { id: intent.id }), requesterLine(t, intent, names)];
  if (intent.sentAt !== undefined) {
    lines.push(t("admin-intent-sent", { date: formatDateTime(locale, intent.sentAt) }));
  }
  const detail = outcomeDetailText(t, intent);
  if (detail !== undefined) lines.push(t("admin-intent-detail", { detail }));
  // Paid in the bot's Stars: its evidence is Telegram's books, not the wallet.
  if (intent.paidVia === "telegram") {
    return [...lines, ...starsEvidenceLines(t, locale, intent, evidence)].join("\n");
  }
  lines.push(balanceBeforeLine(t, locale, intent, evidence));
  lines.push(balanceNowLine(t, locale, evidence));
  lines.push(...sentSinceLines(t, locale, evidence?.sentSinceBalanceBefore));
  if (intent.kind === "premium") {
    const now = evidence?.recipientHasPremiumNow;
    lines.push(
      now === undefined
        ? t("admin-evidence-premium-unknown")
        : t(now ? "admin-evidence-premium-yes" : "admin-evidence-premium-no"),
    );
  }
  const txHash = evidence?.txHash ?? intent.txHash;
  if (txHash !== undefined) lines.push(transactionLine(t, txHash, explorer));
  const transfers = evidence?.onChainTransfers;
  if (transfers === undefined) {
    lines.push(t("admin-evidence-no-chain"));
  } else {
    lines.push(t("admin-evidence-transfers", { count: transfers.length }));
    for (const transfer of transfers.slice(0, MAX_TRANSFERS_SHOWN)) {
      lines.push(
        t("admin-evidence-transfer", {
          date: formatDateTime(locale, transfer.at),
          // fromNano converts without floats; it throws on a non-integer, which the reader never gives.
          amount: value(
            t,
            locale,
            transfer.amountNano === undefined ? undefined : fromNano(transfer.amountNano),
          ),
          destination: transfer.destination ?? t("unknown-value"),
          // Anyone can send the wallet a transfer with a comment of any length.
          comment: quoteServiceText(transfer.comment ?? "", MAX_TRANSFER_COMMENT),
          url: transactionUrl(transfer.hash, explorer) ?? transfer.hash,
        }),
      );
    }
  }
  return lines.join("\n");
}

/** /limits: the limits in force and what today has used of the per-bot ones. */
export function limitsText(
  t: Translate,
  locale: string,
  limits: SpendingLimits,
  usage: DayUsage,
): string {
  return [
    t("admin-limits-title", { resetsAt: formatDateTime(locale, usage.resetsAt) }),
    "",
    t("admin-limit-stars-purchase", { max: limits.starsPerPurchase }),
    t("admin-limit-stars-user", { max: limits.starsPerUserDay }),
    t("admin-limit-stars-bot", { used: usage.starsBot, max: limits.starsPerBotDay }),
    t("admin-limit-premium-user", { max: limits.premiumPerUserDay }),
    t("admin-limit-premium-bot", { used: usage.premiumBot, max: limits.premiumPerBotDay }),
    t(limits.adminsExempt ? "admin-limit-admins-exempt" : "admin-limit-admins-not-exempt"),
  ].join("\n");
}

/**
 * One person or group of /allowed: its name when known (a group's title), and where its access
 * comes from: the settings, or the admin who added it and when.
 */
function entryLine(t: Translate, locale: string, entry: AllowedEntry, names: NameLookup): string {
  const name = userName(t, entry.id, names(entry.id) ?? entry.label);
  if (entry.source === "config") return t("admin-allowed-entry-config", { who: name });
  return t("admin-allowed-entry-bot", {
    who: name,
    admin: entry.addedBy === undefined ? t("unknown-value") : who(t, entry.addedBy, names),
    date: formatDateTime(locale, entry.addedAt ?? 0),
  });
}

/** /allowed: admins, buyers, groups, and whether purchases are public. */
export function allowedText(
  t: Translate,
  locale: string,
  input: {
    admins: readonly number[];
    users: AllowedEntry[];
    chats: AllowedEntry[];
    publicPurchases: boolean;
  },
  names: NameLookup = noNames,
): string {
  const lines = [
    t("admin-allowed-title"),
    "",
    t("admin-allowed-admins", { ids: input.admins.map((id) => who(t, id, names)).join(", ") }),
  ];
  if (input.publicPurchases) lines.push(t("admin-allowed-public"));
  lines.push("");
  if (input.users.length === 0) {
    lines.push(t("admin-allowed-users-none"));
  } else {
    lines.push(t("admin-allowed-users", { count: input.users.length }));
    for (const entry of input.users) lines.push(entryLine(t, locale, entry, names));
  }
  lines.push("");
  if (input.chats.length === 0) {
    lines.push(t("admin-allowed-chats-none"));
  } else {
    lines.push(t("admin-allowed-chats", { count: input.chats.length }));
    // Group ids are negative and user ids positive, so one lookup names both (people.ts).
    for (const entry of input.chats) lines.push(entryLine(t, locale, entry, names));
  }
  return lines.join("\n");
}
