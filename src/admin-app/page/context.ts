/**
 * What every part of the page works with: the API, the admin's language and texts, and how to
 * say something briefly (a write's answer).
 */
import type { Api } from "./api.js";
import type { PageTextKey, PageTexts } from "../text-keys.js";

export interface PageContext {
  api: Api;
  locale: string;
  texts: PageTexts;
  /** A Premium gift's name by its months (plural rules applied by the server). */
  premiumNames: Record<string, string>;
  /** Says a sentence in the page's status line. */
  say(message: string, ok: boolean): void;
  /** Opens one purchase's evidence. */
  openPurchase(id: string): void;
}

/** A text named by a code the server sent (`status-…`, `giveaway-state-…`), else the code. */
export function textOf(context: Pick<PageContext, "texts">, key: string, fallback: string): string {
  return (context.texts as Partial<Record<string, string>>)[key] ?? fallback;
}

/** A text of the page, with `{n}` filled in when given. */
export function text(context: Pick<PageContext, "texts">, key: PageTextKey, n?: string): string {
  const found = context.texts[key];
  return n === undefined ? found : found.replaceAll("{n}", n);
}

export function formatNumber(locale: string, value: number | string): string {
  const number = typeof value === "string" ? Number(value) : value;
  return Number.isFinite(number)
    ? new Intl.NumberFormat(locale, { maximumFractionDigits: 6 }).format(number)
    : String(value);
}

export function formatTime(locale: string, at: number | undefined): string {
  return at === undefined
    ? "—"
    : new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(at);
}

/** A list's time: the day and the time, without the year. */
export function formatShortTime(locale: string, at: number): string {
  return new Intl.DateTimeFormat(locale, {
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  }).format(at);
}

/** "3 hours ago", in the admin's language. */
export function formatAge(locale: string, at: number, now: number = Date.now()): string {
  const minutes = Math.round((at - now) / 60_000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  if (Math.abs(minutes) < 60) return format.format(minutes, "minute");
  const hours = Math.round(minutes / 60);
  if (Math.abs(hours) < 48) return format.format(hours, "hour");
  return format.format(Math.round(hours / 24), "day");
}

/** A gift in words: "50 Stars", "Telegram Premium for 3 months". */
export function giftText(
  context: Pick<PageContext, "texts" | "locale" | "premiumNames">,
  kind: string,
  quantity: number,
): string {
  const n = formatNumber(context.locale, quantity);
  if (kind === "stars") return text(context, "app-gift-stars", n);
  return context.premiumNames[String(quantity)] ?? `Premium ${n}`;
}

/** A balance: "100 TON · 1,000 USDT". */
export function balanceText(
  locale: string,
  balance: { ton: string | undefined; usdt: string | undefined } | undefined,
): string {
  if (balance === undefined) return "—";
  const parts: string[] = [];
  if (balance.ton !== undefined) parts.push(`${formatNumber(locale, balance.ton)} TON`);
  if (balance.usdt !== undefined) parts.push(`${formatNumber(locale, balance.usdt)} USDT`);
  return parts.length === 0 ? "—" : parts.join(" · ");
}
