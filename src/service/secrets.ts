/**
 * Scrubbing of secret values (docs/service-contract.md §10) out of anything the client passes on
 * (details, bodies, log fields). pino's redaction only covers known paths; a service or proxy that
 * echoes a header back in an error text would slip past it, so text is also scrubbed by value.
 */

export const REDACTED = "[redacted]";

/**
 * Shortest secret that is scrubbed at all. A one- or two-character value (a proxy password "x")
 * protects nothing and, removed wherever it stands alone, would blank ordinary words and
 * numbers in every detail; from three characters on it is scrubbed as a whole token.
 */
export const MIN_SCRUBBED_LENGTH = 3;
/**
 * From this length on a secret is scrubbed wherever it appears, even inside a longer word.
 * Shorter ones only as whole tokens: a cookie value "abc" must go from "cookie=abc;" but not
 * turn "abcdef" into "[redacted]def" in every message.
 */
export const MIN_SUBSTRING_LENGTH = 6;

/** Characters that make up a token: a short secret touching one of these is part of a word. */
const TOKEN_CHAR = "A-Za-z0-9_";

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * How many distinct words of the wallet phrase, standing as whole tokens in one text or body,
 * mean the phrase itself is being echoed (as a list, reordered, with other separators). One or
 * two are ordinary English ("about", "again"); three of the same 12-24 are not chance.
 */
export const PHRASE_WORDS_LEAK = 3;

/** Replaces every known secret value in text and in every string of a JSON-like value. */
export class SecretScrubber {
  private readonly secrets: string[];
  private readonly shortTokens: RegExp | undefined;
  private readonly phraseWords: RegExp | undefined;

  /**
   * @param values secret values, scrubbed wherever they appear
   * @param phrase the wallet phrase, whose words are also scrubbed one by one once enough of
   *   them appear together to show the phrase is being echoed in pieces
   */
  constructor(values: readonly (string | undefined)[], phrase?: string) {
    const long = new Set<string>();
    const short = new Set<string>();
    for (const value of values) {
      if (!value || value.length < MIN_SCRUBBED_LENGTH) continue;
      (value.length >= MIN_SUBSTRING_LENGTH ? long : short).add(value);
    }
    // Longest first, so a secret containing another is removed whole.
    this.secrets = [...long].sort((a, b) => b.length - a.length);
    const alternatives = [...short].sort((a, b) => b.length - a.length).map(escapeRegExp);
    this.shortTokens =
      alternatives.length > 0
        ? new RegExp(`(?<![${TOKEN_CHAR}])(?:${alternatives.join("|")})(?![${TOKEN_CHAR}])`, "g")
        : undefined;
    const words = [...new Set(phrase ? normaliseMnemonic(phrase).split(" ") : [])]
      .filter((word) => word.length > 0)
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp);
    this.phraseWords =
      words.length >= PHRASE_WORDS_LEAK
        ? new RegExp(`(?<![${TOKEN_CHAR}])(?:${words.join("|")})(?![${TOKEN_CHAR}])`, "gi")
        : undefined;
  }

  text(value: string): string {
    return this.#text(value, this.#echoesPhrase(value));
  }

  deep<T>(value: T): T {
    // The whole body counts: a phrase echoed as a list spreads its words over many strings.
    const echoed = this.#echoesPhrase(typeof value === "string" ? value : safeJson(value));
    return this.#deep(value, echoed);
  }

  #deep<T>(value: T, echoed: boolean): T {
    if (typeof value === "string") return this.#text(value, echoed) as T;
    if (Array.isArray(value)) return value.map((item) => this.#deep(item, echoed)) as T;
    if (typeof value === "object" && value !== null) {
      const copy: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        copy[this.#text(key, echoed)] = this.#deep(item, echoed);
      }
      return copy as T;
    }
    return value;
  }

  #text(value: string, echoed: boolean): string {
    let result = value;
    for (const secret of this.secrets) result = result.split(secret).join(REDACTED);
    if (this.shortTokens) result = result.replace(this.shortTokens, REDACTED);
    if (echoed && this.phraseWords) result = result.replace(this.phraseWords, REDACTED);
    return result;
  }

  /** Whether enough distinct words of the phrase stand in the text to be an echo of it. */
  #echoesPhrase(text: string): boolean {
    if (!this.phraseWords || text === "") return false;
    const found = new Set((text.match(this.phraseWords) ?? []).map((word) => word.toLowerCase()));
    return found.size >= PHRASE_WORDS_LEAK;
  }
}

/**
 * The secret values derived from the credentials: the mnemonic as given and normalised, the
 * cookie and each of its values, the proxy and its userinfo, the provider key.
 */
export function secretValues(credentials: {
  mnemonic: string;
  cookie: string;
  proxy?: string;
  apiKey?: string;
}): string[] {
  const values = [
    credentials.mnemonic,
    normaliseMnemonic(credentials.mnemonic),
    credentials.cookie,
  ];
  for (const part of credentials.cookie.split(";")) {
    const value = part.slice(part.indexOf("=") + 1).trim();
    if (part.includes("=")) values.push(value);
  }
  if (credentials.proxy) {
    values.push(credentials.proxy);
    const userinfo = /^[a-z][a-z0-9+.-]*:\/\/([^@/]+)@/i.exec(credentials.proxy)?.[1];
    if (userinfo) values.push(userinfo, ...userinfo.split(":").filter(Boolean));
  }
  if (credentials.apiKey) values.push(credentials.apiKey);
  return values;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}

/** One line, single spaces: a mnemonic read from a file may hold newlines, unusable in a header. */
export function normaliseMnemonic(mnemonic: string): string {
  return mnemonic.trim().split(/\s+/).join(" ");
}
