/**
 * Where the client reads its credentials from, once per request as it is sent, so a rotated
 * marketplace cookie (or proxy, or provider key) applies to every request not yet sent (one
 * waiting in the quota included) without a restart, while a request already sent finishes with
 * the headers it was sent with.
 *
 * It also remembers every secret value it has held: a late answer to a request sent with the
 * old cookie may echo that cookie, and it must be scrubbed as surely as the new one.
 */
import type { WalletVersion } from "./types.js";
import { GiftServiceConfigError } from "./errors.js";
import { SecretScrubber, secretValues } from "./secrets.js";

/**
 * The service's credentials (docs/service-contract.md §3.3, §10). Optional headers are omitted when
 * unset.
 */
export interface GiftServiceCredentials {
  mnemonic: string;
  cookie: string;
  walletVersion?: WalletVersion;
  walletAddress?: string;
  proxy?: string;
  apiKey?: string;
  userAgent?: string;
}

/** What the client asks for its credentials. */
export interface CredentialSource {
  /** The credentials for a request about to be sent. */
  current(): GiftServiceCredentials;
  /** A scrubber for every secret this source has ever handed out. */
  scrubber(): SecretScrubber;
}

/** Header values cannot hold control characters; undici would throw at send time. */
function headerSafe(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return false;
  }
  return true;
}

/**
 * Checks credentials the way the client needs them: a mnemonic and a cookie, and every other
 * value sendable as a header. Throws GiftServiceConfigError naming the credential, never its value.
 */
export function checkCredentials(credentials: GiftServiceCredentials): void {
  if (!credentials.mnemonic.trim()) throw new GiftServiceConfigError("mnemonic is empty");
  if (!credentials.cookie.trim()) throw new GiftServiceConfigError("cookie is empty");
  for (const [name, value] of Object.entries(credentials)) {
    if (name === "mnemonic" || value === undefined) continue;
    if (typeof value !== "string" || !headerSafe(value)) {
      throw new GiftServiceConfigError(`credential ${name} cannot be sent as a header`);
    }
  }
}

/** Credentials that can be replaced while the client runs. */
export class CredentialHolder implements CredentialSource {
  #current: GiftServiceCredentials;
  readonly #values = new Set<string>();
  readonly #phrases = new Set<string>();
  #scrubber: SecretScrubber;

  constructor(initial: GiftServiceCredentials) {
    checkCredentials(initial);
    this.#current = { ...initial };
    this.#scrubber = this.#remember(initial);
  }

  current(): GiftServiceCredentials {
    return this.#current;
  }

  scrubber(): SecretScrubber {
    return this.#scrubber;
  }

  /**
   * Takes new credentials for every request sent from now on. Throws (and keeps the old ones)
   * when they cannot be sent; the configuration has validated them already, so that is a bug.
   */
  replace(next: GiftServiceCredentials): void {
    checkCredentials(next);
    this.#scrubber = this.#remember(next);
    this.#current = { ...next };
  }

  #remember(credentials: GiftServiceCredentials): SecretScrubber {
    for (const value of secretValues(credentials)) this.#values.add(value);
    this.#phrases.add(credentials.mnemonic);
    // The wallet does not change while running (a restart is needed), so one phrase is usual;
    // should it ever, the words of every phrase held are scrubbed.
    return new SecretScrubber([...this.#values], [...this.#phrases].join(" "));
  }
}
