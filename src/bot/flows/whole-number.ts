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
