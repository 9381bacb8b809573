/**
 * Locale-aware formatting of the figures the bot shows (balances, dates). Balances are decimal
 * strings from the service and are formatted from the string, never through a float, so no
 * digits are lost or invented.
 */
import type { Message } from "grammy/types";
import type { BotContext } from "./context.js";

const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * One formatter per locale, built on first use: building an `Intl` formatter costs far more
 * than formatting with it, and every summary formats a balance. Locales are the few the bot
 * speaks, so these maps stay small.
 */
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

function numberFormat(locale: string): Intl.NumberFormat {
  let format = numberFormats.get(locale);
  if (format === undefined) {
    format = new Intl.NumberFormat(locale, { maximumFractionDigits: 9 });
    numberFormats.set(locale, format);
  }
  return format;
}

function dateTimeFormat(locale: string): Intl.DateTimeFormat {
  let format = dateTimeFormats.get(locale);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, {
      timeZone: "UTC",
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZoneName: "short",
    });
    dateTimeFormats.set(locale, format);
  }
  return format;
}

/** A decimal string formatted for the locale, or `undefined` when it is not a plain decimal. */
export function formatDecimal(locale: string, value: string | undefined): string | undefined {
  if (value === undefined || !DECIMAL.test(value.trim())) return undefined;
  return numberFormat(locale).format(value.trim() as `${number}`);
}

/**
 * A date and time in UTC, so every person and every test sees the same clock, always with its
 * zone ("Nov 23, 2026, 12:39 UTC"): a time without a zone is a guess for the reader. Locale
 * texts put the result in as it is and never add a zone of their own.
 */
export function formatDateTime(locale: string, at: number): string {
  return dateTimeFormat(locale).format(new Date(at));
}

/** Seconds rounded up, at least 1, from a wait in milliseconds. */
export function waitSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/**
 * An `onQueued` callback that tells the person, once, that the service's quota makes them
 * wait and for about how long, instead of leaving them in silence. Best effort: a failure to
 * send it must not fail the read it accompanies. `onSent` learns of the notice (a group
 * remembers it, to delete it later).
 */
export function tellQueued(
  ctx: BotContext,
  onSent?: (sent: Message.TextMessage) => void,
): (waitMs: number) => void {
  return (waitMs) => {
    ctx
      .reply(ctx.t("flow-queued", { seconds: waitSeconds(waitMs) }))
      .then((sent) => onSent?.(sent))
      .catch(() => undefined);
  };
}

/** A file size for people: "812 KB", "3.4 MB", in the locale's digits. */
export function formatBytes(locale: string, bytes: number): string {
  const units = ["B", "KB", "MB", "GB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value)} ${units[unit] ?? "B"}`;
}
