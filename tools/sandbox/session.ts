/**
 * The marketplace session behind the `Cookie` header. The real service refuses every purchase
 * once the operator's marketplace session (the `stel_ssid` cookie) has expired, until the
 * operator logs in again and sends a new cookie. The sandbox models that: `expire()` marks the
 * session of the cookie in use as expired (or, before any purchase, of the next cookie that
 * arrives); purchases with that `stel_ssid` are then refused, and the first purchase that carries
 * a different `stel_ssid` is a fresh login and is served. `restore()` revives every session.
 */
import type { Reply } from "./reply.js";

/** What the session looks like from outside, for tests and the control endpoint. */
export interface SessionState {
  expired: boolean;
}

export class MarketplaceSession {
  /** The `stel_ssid` values whose session has expired. */
  private readonly expiredIds = new Set<string>();
  /** Expired before any purchase was seen: the next cookie to arrive is the expired one. */
  private expireNext = false;
  private lastSeen: string | undefined;

  /** Expires the session of the cookie in use now. */
  expire(): void {
    if (this.lastSeen === undefined) this.expireNext = true;
    else this.expiredIds.add(this.lastSeen);
  }

  /** Every session valid again, as if the old cookie had been renewed on the marketplace. */
  restore(): void {
    this.expiredIds.clear();
    this.expireNext = false;
  }

  /** Forgets every cookie seen: a sandbox after `reset()`. */
  reset(): void {
    this.restore();
    this.lastSeen = undefined;
  }

  /** Expired while the cookie in use (the last one seen) is one that expired. */
  state(): SessionState {
    const expired =
      this.expireNext || (this.lastSeen !== undefined && this.expiredIds.has(this.lastSeen));
    return { expired };
  }

  /**
   * Called for each purchase that passed validation, with its `stel_ssid`: the refusal when that
   * session has expired, else undefined (the purchase goes on).
   */
  admit(sessionId: string): Reply | undefined {
    this.lastSeen = sessionId;
    if (this.expireNext) {
      this.expireNext = false;
      this.expiredIds.add(sessionId);
    }
    return this.expiredIds.has(sessionId) ? sessionExpired() : undefined;
  }
}

/** The service's refusal when the marketplace session is no longer logged in. */
function sessionExpired(): Reply {
  return {
    status: 400,
    body: {
      ok: false,
      error: "SESSION_EXPIRED",
      reason: "marketplace session expired: log in again and send the new cookie (stel_ssid)",
    },
  };
}
