/**
 * Scrubbing of secret values out of anything the client passes on (details, bodies, log
 * fields). pino's redaction only covers known paths; a service or proxy that echoes a header
 * back in an error text would slip past it, so text is also scrubbed by value.
 */

export const REDACTED = "[redacted]";

/** Replaces every known secret value in text and in every string of a JSON-like value. */
export class SecretScrubber {
  private readonly secrets: string[];

  constructor(values: readonly (string | undefined)[]) {
    const unique = new Set<string>();
    for (const value of values) {
      // Very short values would blank out ordinary words; real secrets are long.
      if (value && value.length >= 6) unique.add(value);
    }
    // Longest first, so a secret containing another is removed whole.
    this.secrets = [...unique].sort((a, b) => b.length - a.length);
  }

  text(value: string): string {
    let result = value;
    for (const secret of this.secrets) result = result.split(secret).join(REDACTED);
    return result;
  }

  deep<T>(value: T): T {
    if (typeof value === "string") return this.text(value) as T;
    if (Array.isArray(value)) return value.map((item) => this.deep(item)) as T;
    if (typeof value === "object" && value !== null) {
      const copy: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) copy[this.text(key)] = this.deep(item);
      return copy as T;
    }
    return value;
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

/** One line, single spaces: a mnemonic read from a file may hold newlines, unusable in a header. */
export function normaliseMnemonic(mnemonic: string): string {
  return mnemonic.trim().split(/\s+/).join(" ");
}
