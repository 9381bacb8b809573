/**
 * The service's own words as people read them quoted (admins' details, alerts, reports): on one
 * line and cut short. The service's `error`, `reason` and `info` are untrusted and of any
 * length (a proxy's HTML page, a stack trace), while a Telegram message holds 4,096 characters
 * at most and a longer one is refused whole, so its reader would never be told anything.
 */

/** Longest quote of the service's words: an admin needs the gist, not a page. */
const MAX_QUOTED_SERVICE_TEXT = 300;

/**
 * `text` on one line (runs of white space, newlines included, become one space), trimmed and
 * cut to `max` characters, the last of them an ellipsis when it was cut.
 */
export function quoteServiceText(text: string, max: number = MAX_QUOTED_SERVICE_TEXT): string {
  return clipText(text.replace(/\s+/g, " ").trim(), max);
}

/**
 * `text` cut to at most `max` UTF-16 units (Telegram's measure), ending in "…" when cut; never
 * splits a surrogate pair, so the cut text is still valid Unicode.
 */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}
