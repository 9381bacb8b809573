/**
 * The stand-in values of `.env.example`. A `.env` copied from it and not filled in would
 * otherwise start: the token's shape, the service URL and the cookie are all valid, and the bot
 * would then wait silently for a Telegram that never answers. Each placeholder is refused at
 * start, like any other bad setting, with the way out in the reason.
 */
import type { ConfigProblem } from "./errors.js";

/** A marker `.env.example` puts in secrets and free-text values (`REPLACE_ME`, `UQ_REPLACE_WITH_…`). */
const MARKER = /REPLACE_(?:ME|WITH)/i;

/** Per-variable placeholders that carry no marker. */
const PLACEHOLDER_VALUES: Readonly<Record<string, (value: string) => boolean>> = {
  // `.example` is a reserved top-level domain: no service can ever answer there.
  GIFT_API_BASE_URL: (value) => /^[a-z]+:\/\/(?:[^/@]*@)?[^/:]*\.example(?:[:/]|$)/i.test(value),
  WALLET_MNEMONIC: (value) => /^word1\s+word2\b/i.test(value),
  ADMIN_IDS: (value) => value.split(",").some((id) => id.trim() === "123456789"),
};

/**
 * One problem per settings variable (of `variables`) still holding a placeholder of
 * `.env.example`. The reason names the placeholder kind, never the value (a half-edited secret
 * could sit next to the marker), and ends with `wayOut(variable)`: where to put the real value
 * (the `.env` it came from, most often, which the person has already copied).
 */
export function placeholderProblems(
  env: Readonly<Record<string, string | undefined>>,
  variables: readonly string[],
  wayOut: (variable: string) => string,
): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const variable of variables) {
    const value = env[variable];
    if (value === undefined) continue;
    if (MARKER.test(value) || PLACEHOLDER_VALUES[variable]?.(value) === true) {
      problems.push({
        variable,
        reason: `is still the placeholder of .env.example: ${wayOut(variable)}`,
      });
    }
  }
  return problems;
}
