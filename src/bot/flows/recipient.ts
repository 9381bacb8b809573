/**
 * Turns what a person typed into a username: `@name`, `name`, or a `t.me/name` link. The result
 * is checked against the service's pattern (spec 2.1) so nothing malformed is ever sent upstream.
 */

/** The spec's username pattern, without the optional `@`. */
const USERNAME = /^[A-Za-z][A-Za-z0-9_]{3,31}$/;
const LINK =
  /^(?:https?:\/\/)?(?:www\.)?(?:t\.me|telegram\.me|telegram\.dog)\/([^/?#\s]+)\/?(?:[?#].*)?$/i;

/** The bare username (no `@`), or `undefined` when the input is not one. */
export function parseRecipient(input: string): string | undefined {
  const text = input.trim();
  const fromLink = LINK.exec(text)?.[1];
  const candidate = fromLink ?? (text.startsWith("@") ? text.slice(1) : text);
  return USERNAME.test(candidate) ? candidate : undefined;
}

/**
 * A whole number typed by a person, allowing the digit grouping people write ("1 000",
 * "1,000", "1.000", "1_000"), or `undefined`. No decimals, signs or exponents.
 */
export function parseWholeNumber(input: string): number | undefined {
  const text = input.trim();
  if (/^\d{1,9}$/.test(text)) return Number(text);
  // Grouped in threes only, so "1.5" is refused rather than read as 15.
  if (/^\d{1,3}(?:[ \u00a0\u202f,._']\d{3}){1,2}$/.test(text)) {
    return Number(text.replace(/\D/g, ""));
  }
  return undefined;
}
