/**
 * The sandbox's public contract (team brief: "Shared contract: the sandbox"). Other rooms' tests
 * drive the simulator through these types, so their shape only grows, never changes.
 */

/** How the sandbox starts. Every field is optional so a test can just `await startSandbox()`. */
export interface SandboxOptions {
  /** Interface to listen on. Default 127.0.0.1: the sandbox is a local test peer only. */
  host?: string;
  /** Default 0: any free port, so parallel test files never collide. */
  port?: number;
  /** The service's shared sliding quota. Default 30 per 60_000 ms; `false` lifts it. */
  quota?: { limit: number; windowMs: number } | false;
  /** Starting wallet balance as decimal strings. Default `{ ton: "100", usdt: "1000" }`. */
  balance?: { ton: string; usdt: string };
  /** Added to every response, default 0. */
  latencyMs?: number;
  /**
   * One line per answered request (method, path, status), for the standalone CLI. Never
   * carries header values or form fields, so secrets cannot leak through it.
   */
  log?: (line: string) => void;
}

/** One request as the sandbox received it (control endpoints excluded). */
export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. "/buy-stars/". */
  path: string;
  query: Record<string, string>;
  /** Lower-case header names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The parsed body when it was form-urlencoded, else undefined. */
  form: Record<string, string> | undefined;
  contentType: string | undefined;
  /** `Date.now()` when the request arrived. */
  at: number;
}

/**
 * A misbehaviour for the next matching request(s). `executed` (default false) says whether a
 * purchase is carried out (balance charged, premium granted) before the fault answers, which
 * is how the real service can fail after money moved.
 */
export type Fault =
  | { type: "status"; status: number; body?: unknown; headers?: Record<string, string> }
  /** Hold the response `ms`, then answer normally (a purchase still happens). */
  | { type: "delay"; ms: number }
  /**
   * Hold the response until `releaseHeld()` (or the sandbox closes), then answer normally (a
   * purchase happens at the release): a test decides when an answer arrives. In-process only.
   */
  | { type: "hold" }
  /** Destroy the socket without an answer. */
  | { type: "drop"; executed?: boolean }
  /** 200 with a body that is not JSON. */
  | { type: "malformed"; executed?: boolean }
  /** 400 `{ ok: false, unconfirmed: true, transient: true, ... }` (with a tx_hash when executed). */
  | { type: "unconfirmed"; executed?: boolean }
  /**
   * 200 with a well-formed JSON body padded to about `bytes` (default 2 MiB): more than a client
   * should buffer. With `executed`, it is the real purchase answer, padded.
   */
  | { type: "huge"; bytes?: number; executed?: boolean }
  /**
   * 200 whose JSON body never ends: the headers, then one byte every `intervalMs` (default 50)
   * until the client goes away or the sandbox closes. Each byte resets a client's
   * between-chunks body timeout, so only an overall deadline ends the exchange.
   */
  | { type: "trickle"; intervalMs?: number; executed?: boolean };

/** A fault's `path` meaning the next purchase, stars or premium (not a recipient check). */
export const ANY_PURCHASE = "purchase";

/** Options of `injectFault`. */
export interface FaultOptions {
  /**
   * Only requests to this path (e.g. "/buy-stars/"), or {@link ANY_PURCHASE} for the next
   * purchase of either kind; default any path.
   */
  path?: string;
  /** How many matching requests the fault applies to; default 1. */
  times?: number;
}

/** A recipient's state in the sandbox. */
export interface SandboxUser {
  exists?: boolean;
  isPremium?: boolean;
}

/** A running sandbox. */
export interface Sandbox {
  /** Base URL without trailing slash, e.g. "http://127.0.0.1:41234". */
  url: string;
  /** Every request received, in order (control endpoints excluded). */
  requests: RecordedRequest[];
  /** Only POST /buy-stars/ and POST /buy-premium/. */
  purchaseRequests(): RecordedRequest[];
  injectFault(fault: Fault, options?: FaultOptions): void;
  clearFaults(): void;
  setUser(username: string, user: SandboxUser): void;
  setBalance(balance: { ton: string; usdt: string }): void;
  /** The current balance (decimal strings), for tests that check what a purchase cost. */
  getBalance(): { ton: string; usdt: string };
  /**
   * Both balances to zero: every purchase is then refused the way the service refuses a wallet
   * that cannot pay (400, `insufficient: true`, nothing charged) until `setBalance`,
   * `refillWallet` or `reset`.
   */
  drainWallet(): void;
  /** The wallet back to the balance the sandbox started with. */
  refillWallet(): void;
  /**
   * Expires the marketplace session of the cookie in use (of the next cookie to arrive, when no
   * purchase came yet): purchases with that `stel_ssid` are refused with 400
   * `{ ok: false, error: "SESSION_EXPIRED", reason: "marketplace session expired: …" }` until one
   * arrives with a different `stel_ssid` (the operator logged in again and rotated the cookie),
   * or `restoreSession`/`reset`. Other endpoints keep answering.
   */
  expireSession(): void;
  /** Every expired session valid again. */
  restoreSession(): void;
  /** Whether purchases with the cookie in use are refused as an expired session now. */
  sessionExpired(): boolean;
  /** Lets every response held by a `hold` fault go on; resolves to how many there were. */
  releaseHeld(): number;
  /** Resolves once `count` requests (to `path`, when given) were received; event-based. */
  waitForRequests(count: number, path?: string): Promise<void>;
  /**
   * Forget recorded requests, faults, users, quota history and expired sessions; restore the
   * starting balance.
   */
  reset(): void;
  close(): Promise<void>;
}
