/**
 * The contract of the Gift Purchase Service client: what a call returns.
 *
 * Every call resolves to a typed outcome and never throws for anything the service or the
 * network does, because the caller (the ledger) must record *every* purchase outcome, and an
 * exception is too easy to lose between the request and the database write.
 */

import type { PaymentMethod, PremiumDuration } from "../gifts/catalogue.js";
import type { Owner, QuotaSnapshot } from "./quota.js";

/** Who pays and premium's months come from the gift catalogue; the client's types name them too. */
export type { PaymentMethod, PremiumDuration };

/** The wallet versions of the `Wallet-Version` header (docs/service-contract.md §3.3). */
export type WalletVersion = "auto" | "v5r1" | "v4r2" | "v3r2";

/**
 * A JSON object as the service sent it, unknown fields included (docs/service-contract.md §4:
 * clients keep them).
 */
export type RawBody = Record<string, unknown>;

/**
 * The failure body (docs/service-contract.md §4), with every field it may carry, unknown ones kept.
 */
export interface FailureBody extends RawBody {
  ok: false;
  error?: string;
  reason?: string;
  info?: unknown;
  retry_after?: number;
  flood_wait?: number;
  tx_hash?: string;
  transient?: boolean;
  unconfirmed?: boolean;
  insufficient?: unknown;
  price_guard?: unknown;
}

/** HTTP 200 with `ok: true`: the only success state. */
export interface Success<T> {
  kind: "success";
  value: T;
  /** The whole body, unknown fields included. */
  body: RawBody;
}

/**
 * A definite failure: 400 with `ok: false`, and for purchases neither `unconfirmed` nor a
 * `tx_hash` (either means money may have moved: that is `Ambiguous`). Nothing was spent.
 */
export interface Rejected {
  kind: "rejected";
  status: number;
  body: FailureBody;
  /** The best human-readable detail found in `error`, `reason` or `info`, if any. */
  detail: string | undefined;
}

/**
 * 429 FLOOD_WAIT or 503 RATE_LIMIT_UNAVAILABLE on a read (reads only: for purchases these are
 * ambiguous).
 */
interface RateLimited {
  kind: "rate_limited";
  status: 429 | 503;
  retryAfterSeconds: number;
  body: FailureBody | undefined;
}

/**
 * A read that could not be completed: timeout, transport error, malformed body, unexpected status.
 */
interface Unavailable {
  kind: "unavailable";
  cause: "timeout" | "transport" | "malformed" | "unexpected_status" | "wait_too_long";
  status?: number;
  /** wait_too_long only: the wait the service asked for (longer than the 60 s a retry honours). */
  retryAfterSeconds?: number;
  detail: string;
}

/**
 * A purchase whose result is unknown. It must never be resent: the caller reconciles the
 * wallet and the recipient first (docs/service-contract.md §5.1).
 */
export interface Ambiguous {
  kind: "ambiguous";
  cause:
    "rate_limited" | "timeout" | "transport" | "malformed" | "unexpected_status" | "unconfirmed";
  status?: number;
  /** The parsed body when there was one (unknown fields kept), else the raw text (truncated). */
  body?: unknown;
  retryAfterSeconds?: number;
  txHash?: string;
  detail: string;
}

/** Input refused by the client before any request was sent (bad username, amount, duration...). */
export interface Invalid {
  kind: "invalid";
  /** `request`: the HTTP client refused the request itself (a header it cannot send). */
  field: "username" | "amount" | "duration" | "payment_method" | "request";
  detail: string;
}

/**
 * A queued recipient check replaced by a newer one of the same owner (`replace`) before it was
 * sent: nothing was sent, no quota spent. Only a check made with an `owner` can end so.
 */
export interface Superseded {
  kind: "superseded";
}

export type ReadOutcome<T> = Success<T> | Rejected | RateLimited | Unavailable | Invalid;
export type { QuotaSnapshot };
export type UserInfoOutcome = ReadOutcome<UserInfo> | Superseded;
export type PurchaseOutcome = Success<PurchaseResult> | Rejected | Ambiguous | Invalid;

/** `GET /get-user-info/` (docs/service-contract.md §3.1). */
export interface UserInfo {
  /** The service's `ok`: false means the username is not a known account. */
  found: boolean;
  username: string | undefined;
  /** `is_premium`, undefined when the service did not say. */
  isPremium: boolean | undefined;
}

/** `GET /wallet-balance/`: decimal strings, never floats (docs/service-contract.md §3.2). */
export interface WalletBalance {
  ton: string | undefined;
  usdt: string | undefined;
  /** False when neither balance could be found in the body: the shape is unknown, not a crash. */
  recognised: boolean;
}

/** A successful purchase (docs/service-contract.md §4). */
export interface PurchaseResult {
  txHash: string | undefined;
  data: RawBody | undefined;
}

export interface StarsPurchase {
  username: string;
  amount: number;
  paymentMethod?: PaymentMethod;
}

export interface PremiumPurchase {
  username: string;
  duration: PremiumDuration;
  paymentMethod?: PaymentMethod;
}

/** Per-call options. */
interface CallOptions {
  /**
   * Called once, before the request waits for the shared quota, with the expected wait in
   * milliseconds, so the bot can tell a person that their request is queued and for how long.
   */
  onQueued?: (waitMs: number) => void;
  signal?: AbortSignal;
  /**
   * The person the request is for (an id, opaque to the client, which never logs or labels
   * it). Queued requests of several owners in one priority take turns, so one person's burst
   * cannot hold up everyone else's (docs/service-contract.md §6).
   */
  owner?: Owner;
}

/**
 * A quota slot reserved for one purchase ahead of its request
 * ({@link GiftServiceClient.reservePurchase}): the purchase is claimed in the ledger only once it
 * holds one, and its request then leaves at once (`slot` in {@link PurchaseCallOptions}).
 */
export interface PurchaseSlot {
  /**
   * Right before the claim: true when the request may leave now, at once unless a 429/503
   * hold began after the slot was granted (then once it is over); false when purchases were
   * stopped (shutdown) or the client closed meanwhile, and the slot is given back.
   */
  ready(): Promise<boolean>;
  /** The purchase will not be sent (its claim was refused): the slot is free again. */
  giveBack(): void;
}

/** Options of a wallet balance read. */
interface BalanceReadOptions extends CallOptions {
  /**
   * A giveaway's read: like its purchases (`bulk` in {@link ReserveOptions}) it is served after
   * every other request, never takes the last slots of the window, and is cancelled at
   * shutdown with the purchases.
   */
  bulk?: boolean;
}

/** Options of a slot's reservation. */
export interface ReserveOptions {
  /** Told once, with the expected wait, when no slot is free at once. */
  onQueued?: (waitMs: number) => void;
  /**
   * A purchase nobody is waiting on in a chat (a giveaway's recipient): it is served after
   * every other request and never takes the last slots of the window, which stay for people.
   */
  bulk?: boolean;
}

/** Options of a purchase. */
export interface PurchaseCallOptions extends CallOptions {
  /**
   * Asked as the very last step before the purchase's request is written to the network: after
   * its wait for the shared quota and any hold, on the open connection, just before its first
   * byte. False withholds it: nothing is sent, and the call throws
   * `GiftServiceCallCancelledError` (`withheld`, `sent: false`). The app answers whether this
   * process certainly still holds the sender lease; reads ask nothing.
   */
  mayLeave?: () => boolean;
  /**
   * The slot reserved for this purchase: the request goes at once, without waiting for the
   * quota. Used once; a slot already used or given back is refused as `invalid` (nothing sent).
   */
  slot?: PurchaseSlot;
}

/** Options of a recipient check. */
export interface RecipientCheckOptions extends CallOptions {
  /**
   * With an `owner`: this check takes the place (and the turn) of the owner's checks still
   * queued, which end `superseded` and are never sent. One queued check per person at most.
   */
  replace?: boolean;
}

/** The Gift Purchase Service, as the rest of the bot sees it. */
export interface GiftServiceClient {
  getUserInfo(username: string, options?: RecipientCheckOptions): Promise<UserInfoOutcome>;
  getWalletBalance(options?: BalanceReadOptions): Promise<ReadOutcome<WalletBalance>>;
  /**
   * Waits for a free slot of the shared quota for one purchase, and for any 429/503 hold to
   * end. Rejects with `GiftServiceCallCancelledError` (`sent: false`) after `stopPurchases()`
   * or `close()`.
   */
  reservePurchase(options?: ReserveOptions): Promise<PurchaseSlot>;
  /** Sends exactly one request, never retried. */
  buyStars(purchase: StarsPurchase, options?: PurchaseCallOptions): Promise<PurchaseOutcome>;
  /** Sends exactly one request, never retried. */
  buyPremium(purchase: PremiumPurchase, options?: PurchaseCallOptions): Promise<PurchaseOutcome>;
  /** How long a request of this priority would wait for the shared quota now, in milliseconds. */
  estimateWait(priority: "purchase" | "read"): number;
  /**
   * Shutdown's first step: every purchase (or reservation) still waiting for the shared quota
   * (or behind a 429 hold), and every later one, is cancelled at once with
   * `GiftServiceCallCancelledError` (`sent: false`): waiting for its turn could outlast the
   * grace period. A reserved slot not yet used answers `ready()` false. A purchase already
   * sent is untouched and ends in an outcome; reads keep working, so evidence for an
   * unconfirmed purchase can still be gathered before `close()`.
   */
  stopPurchases(): void;
  close(): Promise<void>;
}

/** The client as `createGiftServiceClient` builds it: with a read-only view of its quota. */
export interface GiftServiceClientWithQuota extends GiftServiceClient {
  /**
   * Queue lengths by priority, used slots in the current window, any hold, and the owners
   * with the most queued requests (ids only), for admins and metrics. Sends nothing.
   */
  quotaSnapshot(top?: number): QuotaSnapshot;
}
