/**
 * Scrubbing of secret values (docs/service-contract.md §10) out of anything the client passes on
 * (details, bodies, log fields). pino's redaction only covers known paths; a service or proxy that
 * echoes a header back in an error text would slip past it, so text is also scrubbed by value.
 */

const REDACTED = "[redacted]";

/**
 * Shortest secret that is scrubbed at all. A one- or two-character value (a proxy password "x")
 * protects nothing and, removed wherever it stands alone, would blank ordinary words and
 * numbers in every detail; from three characters on it is scrubbed as a whole token.
 */
const MIN_SCRUBBED_LENGTH = 3;
/**
 * From this length on a secret is scrubbed wherever it appears, even inside a longer word.
 * Shorter ones only as whole tokens: a cookie value "abc" must go from "cookie=abc;" but not
 * turn "abcdef" into "[redacted]def" in every message.
 */
const MIN_SUBSTRING_LENGTH = 6;

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
const PHRASE_WORDS_LEAK = 3;

/** Replaces every known secret value in text and in every string of a JSON-like value. */
export class SecretScrubber {
  private readonly longForms: string[];
  private readonly anyLongForm: RegExp | undefined;
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
      for (const form of encodedForms(value)) {
        if (form.length < MIN_SCRUBBED_LENGTH) continue;
        (form.length >= MIN_SUBSTRING_LENGTH ? long : short).add(form);
      }
    }
    this.longForms = [...long];
    // A quick test first: most texts hold no secret at all.
    this.anyLongForm =
      long.size > 0 ? new RegExp([...long].map(escapeRegExp).join("|")) : undefined;
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
    if (Array.isArray(value))
      return (value as unknown[]).map((item) => this.#deep(item, echoed)) as T;
    if (typeof value === "object" && value !== null) {
      const copy: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        // Defined, not assigned: an assignment to "__proto__" would set the copy's prototype
        // and hide the key (and any doubt marker under it) from every reader.
        Object.defineProperty(copy, this.#text(key, echoed), {
          value: this.#deep(item, echoed),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return copy as T;
    }
    return value;
  }

  #text(value: string, echoed: boolean): string {
    const plain = this.#plain(value, echoed);
    // A secret inside a longer encoded token (a Basic header, a percent-encoded URL) matches no
    // form of its own: such tokens are decoded, and removed whole when they hold a secret.
    return plain
      .replace(PERCENT_TOKEN, (token) =>
        this.#holdsSecret(percentDecode(token)) ? REDACTED : token,
      )
      .replace(BASE64_TOKEN, (token) => {
        const decoded = base64Decode(token);
        return decoded !== undefined && this.#holdsSecret(decoded) ? REDACTED : token;
      });
  }

  /** Every form of every secret, and the phrase's words when it is echoed. */
  #plain(value: string, echoed: boolean): string {
    let result = value;
    if (this.anyLongForm?.test(result)) result = redactRanges(result, this.longForms);
    if (this.shortTokens) result = result.replace(this.shortTokens, REDACTED);
    if (echoed && this.phraseWords) result = result.replace(this.phraseWords, REDACTED);
    return result;
  }

  /** Whether decoded text holds a secret, itself percent-encoded or not. */
  #holdsSecret(decoded: string): boolean {
    for (const text of new Set([decoded, percentDecode(decoded)])) {
      if (this.#plain(text, this.#echoesPhrase(text)) !== text) return true;
    }
    return false;
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

/**
 * Every occurrence of every form removed, overlapping ones as one: a form that overlaps a longer
 * one must not leave the longer one's tail behind.
 */
function redactRanges(text: string, forms: readonly string[]): string {
  const ranges: [number, number][] = [];
  for (const form of forms) {
    for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + 1)) {
      ranges.push([at, at + form.length]);
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
  let result = "";
  let cursor = 0;
  for (const [start, end] of ranges) {
    if (end <= cursor) continue;
    if (start >= cursor) result += text.slice(cursor, start) + REDACTED;
    cursor = end;
  }
  return result + text.slice(cursor);
}

/** A run holding at least one `%XX` escape, up to the nearest space, quote or bracket. */
const PERCENT_TOKEN = /[^\s"'<>()[\]{},;]*%[0-9A-Fa-f]{2}[^\s"'<>()[\]{},;]*/g;
/** A run that could be base64 (standard or URL-safe) of 6 or more bytes. */
const BASE64_TOKEN = /[A-Za-z0-9+/_-]{8,}={0,2}/g;

/** `%XX` escapes (and `+` for a space, as in forms) decoded; bad escapes left as they are. */
function percentDecode(text: string): string {
  return text.replace(/\+/g, " ").replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** Base64 (either alphabet) decoded as UTF-8; undefined when it is not text. */
function base64Decode(token: string): string | undefined {
  const text = Buffer.from(token, "base64").toString("utf8");
  return text.includes("\uFFFD") ? undefined : text;
}

function base64Forms(value: string): string[] {
  const standard = Buffer.from(value, "utf8").toString("base64");
  const unpadded = standard.replace(/=+$/, "");
  return [standard, unpadded, unpadded.replace(/\+/g, "-").replace(/\//g, "_")];
}

/**
 * The forms in which a service or proxy may echo a secret back (docs/service-contract.md §10):
 * as given, percent-decoded (a proxy password written `p%40ss` comes back as `p@ss`),
 * percent-encoded (as a URL or a form would carry it, upper- or lower-case escapes),
 * JSON-escaped, and base64-encoded (standard, unpadded, URL-safe) of each of these.
 */
export function encodedForms(value: string): string[] {
  const forms = new Set<string>([value]);
  const decoded = percentDecode(value);
  for (const plain of new Set([value, decoded, safeDecode(value)])) {
    forms.add(plain);
    const encoded = [
      encodeURIComponent(plain),
      encodeURI(plain),
      new URLSearchParams({ v: plain }).toString().slice(2),
      JSON.stringify(plain).slice(1, -1),
    ];
    for (const form of encoded) forms.add(form);
  }
  // Escapes are case-insensitive: `%2F` may come back as `%2f`, and the other way round.
  for (const form of [...forms]) {
    forms.add(form.replace(/%[0-9A-Fa-f]{2}/g, (escape) => escape.toLowerCase()));
    forms.add(form.replace(/%[0-9A-Fa-f]{2}/g, (escape) => escape.toUpperCase()));
  }
  for (const form of [...forms]) for (const base64 of base64Forms(form)) forms.add(base64);
  return [...forms];
}

/** decodeURIComponent without the `+` rule; the value itself when it is not valid encoding. */
function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function safeJson(value: unknown): string {
  try {
    // JSON.stringify returns undefined for undefined and functions, whatever its type says.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}

/** One line, single spaces: a mnemonic read from a file may hold newlines, unusable in a header. */
export function normaliseMnemonic(mnemonic: string): string {
  return mnemonic.trim().split(/\s+/).join(" ");
}
