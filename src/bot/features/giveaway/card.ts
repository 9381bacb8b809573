/**
 * The checked list's card, shown once the checks end: who can receive, who already has
 * Premium, who was not found or not checked, what was not a username; the total and what it
 * is likely to cost in the wallet's currency against the balance and today's limits; a warning
 * when the same giveaway ran in the last 7 days; and Confirm (when anyone can receive), Cancel
 * and "Download the list". Plain text: names are
 * shown as the service spells them, the invalid entries as the admin wrote them.
 */
import { InlineKeyboard } from "grammy";
import type { CostEstimate } from "../../../costs/estimate.js";
import {
  type Currency,
  exceeds,
  formatMoney,
  parseMoney,
  scaleMoney,
} from "../../../costs/money.js";
import type { Headroom } from "../../../ledger/limits.js";
import type { EarlierGiveaway } from "../../../purchases/giveaway-runner.js";
import { encodeGiveaway } from "../../callback-data/giveaway.js";
import type { Translate } from "../../context.js";
import { formatDateTime, formatDecimal } from "../../format.js";
import { giftName } from "../../purchase-views.js";
import type { Giveaway } from "./board.js";
import type { CheckedRecipients } from "./check.js";

/** Names shown per group at most; the CSV has them all. */
const NAMES_SHOWN = 25;

/** What the card says about money and limits, read when the checks end. */
export interface GiveawayFigures {
  /** The estimate of ONE gift of this kind (the records' estimate); undefined without one. */
  each: CostEstimate | undefined;
  /** The currency the wallet pays in (PAYMENT_METHOD's). */
  currency: Currency;
  /** The wallet's balance in that currency; undefined when it could not be read. */
  balance: string | undefined;
  /** What today's limits leave for the admin, of this kind. */
  headroom: Headroom;
  /**
   * A giveaway of the last 7 days that gave the same gift to the same recipients, if any: the
   * card warns, and its Confirm says it sends a second giveaway.
   */
  sameAs?: EarlierGiveaway | undefined;
}

type CardGiveaway = Pick<Giveaway, "id" | "kind" | "quantity" | "list">;

/** The card's text. */
export function cardText(
  t: Translate,
  locale: string,
  giveaway: CardGiveaway,
  checked: CheckedRecipients,
  figures: GiveawayFigures,
): string {
  const count = checked.canReceive.length;
  const lines = [
    t("giveaway-card-title", { gift: giftName(t, giveaway) }),
    "",
    ...group(t, "giveaway-card-can-receive", checked.canReceive.map(at)),
    ...group(t, "giveaway-card-has-premium", checked.hasPremium.map(at)),
    ...group(t, "giveaway-card-not-found", checked.notFound.map(at)),
    ...group(t, "giveaway-card-unchecked", checked.unchecked.map(at)),
    ...invalidGroup(t, giveaway.list),
    "",
  ];
  if (count === 0) return [...lines, t("giveaway-card-nobody")].join("\n");
  return [
    ...lines,
    totalLine(t, giveaway, count),
    ...moneyLines(t, locale, figures, count),
    ...headroomLines(t, giveaway, figures.headroom, count),
    ...sameAsLines(t, locale, figures.sameAs, count),
  ].join("\n");
}

/** The warning that the same giveaway ran already: when, and what it delivered. */
function sameAsLines(
  t: Translate,
  locale: string,
  sameAs: EarlierGiveaway | undefined,
  count: number,
): string[] {
  if (sameAs === undefined) return [];
  return [
    "",
    t("giveaway-card-same-as", {
      count,
      started: formatDateTime(locale, sameAs.batch.createdAt),
      delivered: sameAs.delivered,
    }),
  ];
}

/**
 * Confirm (when anyone can receive; "Confirm a second giveaway" when the same one ran in the
 * last 7 days), Cancel, and the list as CSV.
 */
export function cardKeyboard(
  t: Translate,
  giveawayId: string,
  confirm: "none" | "first" | "second",
): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  if (confirm !== "none") {
    const label = confirm === "second" ? t("giveaway-button-confirm-again") : t("button-confirm");
    keyboard.text(label, encodeGiveaway({ type: "ok", giveawayId }));
  }
  return keyboard
    .text(t("button-cancel"), encodeGiveaway({ type: "no", giveawayId }))
    .row()
    .text(t("giveaway-button-csv"), encodeGiveaway({ type: "csv", giveawayId }));
}

/** The card's buttons once confirmed: only its list may still be downloaded. */
export function confirmedCardKeyboard(t: Translate, giveawayId: string): InlineKeyboard {
  return new InlineKeyboard().text(
    t("giveaway-button-csv"),
    encodeGiveaway({ type: "csv", giveawayId }),
  );
}

function at(name: string): string {
  return `@${name}`;
}

/** "✅ Can receive (3): @a, @b, @c", with at most {@link NAMES_SHOWN} names; none when empty. */
function group(
  t: Translate,
  key: string,
  names: readonly string[],
  total = names.length,
): string[] {
  if (total === 0) return [];
  const shown = names.slice(0, NAMES_SHOWN).join(", ");
  const more = total - Math.min(names.length, NAMES_SHOWN);
  const list = more > 0 ? `${shown} ${t("giveaway-card-more", { count: more })}` : shown;
  return [t(key, { count: total, names: list })];
}

/** What the admin sent that is not a username (the list keeps the first few of them). */
function invalidGroup(t: Translate, list: CardGiveaway["list"]): string[] {
  return group(
    t,
    "giveaway-card-invalid",
    list.invalid.map((entry) => `"${entry}"`),
    list.invalidCount,
  );
}

function totalLine(t: Translate, giveaway: CardGiveaway, count: number): string {
  return giveaway.kind === "stars"
    ? t("giveaway-card-total-stars", { count, stars: count * giveaway.quantity })
    : t("giveaway-card-total-premium", { count });
}

/** The estimate for everyone who can receive, and the balance it is measured against. */
function moneyLines(
  t: Translate,
  locale: string,
  figures: GiveawayFigures,
  count: number,
): string[] {
  const currency = figures.currency.toUpperCase();
  const balance = parseMoney(figures.currency, figures.balance);
  const balanceLine =
    balance === undefined
      ? t("giveaway-card-balance-unknown")
      : t("giveaway-card-balance", { amount: decimal(locale, formatMoney(balance)), currency });
  if (figures.each === undefined) return [t("giveaway-card-no-estimate"), balanceLine];
  const total = scaleMoney(figures.each.cost, BigInt(count), 1n);
  const lines = [
    t("giveaway-card-estimate", {
      amount: decimal(locale, formatMoney(total)),
      currency,
      count: figures.each.basedOn,
    }),
    balanceLine,
  ];
  if (balance !== undefined && exceeds(total, balance)) lines.push(t("giveaway-card-exceeds"));
  return lines;
}

/** What today's limits leave, and a warning when the list does not fit in it. */
function headroomLines(
  t: Translate,
  giveaway: CardGiveaway,
  headroom: Headroom,
  count: number,
): string[] {
  const limit = t(`limit-${headroom.limit}`);
  const fit =
    giveaway.kind === "stars" ? Math.floor(headroom.left / giveaway.quantity) : headroom.left;
  const line =
    giveaway.kind === "stars"
      ? t("giveaway-card-room-stars", { left: headroom.left, limit })
      : t("giveaway-card-room-premium", { left: headroom.left, limit });
  return fit >= count ? [line] : [line, t("giveaway-card-over-limit", { fit, count })];
}

function decimal(locale: string, value: string): string {
  return formatDecimal(locale, value) ?? value;
}
