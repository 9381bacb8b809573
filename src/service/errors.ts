/**
 * Typed errors of the client (docs/service-contract.md §9). None of them is thrown for anything the
 * service or the network does (those are outcomes); they cover the caller's own mistakes and
 * decisions, and never carry a secret value in their message.
 */

/** A client option is unusable (bad URL, header-unsafe credential, out-of-range setting). */
export class GiftServiceConfigError extends Error {
  override readonly name = "GiftServiceConfigError";
}

/**
 * The caller cancelled the call: its `signal` aborted, or the client was closed (`reason`).
 * This is the only thing a client call throws, and it is never thrown for what the service or
 * the network did. Exported from `client.ts` too, so callers can catch it by class.
 *
 * `sent` says whether a request had already left for the service:
 * - Purchases: always `false`. A purchase is cancelled only while it waits for the shared
 *   quota (or when it arrives after `stopPurchases()`), or withheld by its caller's `mayLeave`
 *   just before its first byte would have been written, before anything was sent; once sent it
 *   is never aborted (neither by the signal nor by `stopPurchases()` or `close()`) and ends in
 *   an outcome instead. So `sent: false` means "nothing was sent, no money can have moved":
 *   the desk may release the intent.
 * - Reads: `true` when the request was in flight when the signal aborted (it counted against
 *   the quota, its answer is discarded); `false` when it was still queued.
 */
const MESSAGES = {
  aborted: "the call was aborted",
  closed: "the gift service client is closed",
  stopped: "the gift service client takes no more purchases",
  withheld: "the caller withheld the purchase before it was sent",
} as const;

export class GiftServiceCallCancelledError extends Error {
  override readonly name = "GiftServiceCallCancelledError";
  constructor(
    /**
     * `aborted`: the caller's signal; `closed`: the client was closed (or is closing);
     * `stopped`: a purchase after `stopPurchases()` (shutdown), while reads still go;
     * `withheld`: a purchase whose `mayLeave` said no as the last step before sending.
     */
    readonly reason: keyof typeof MESSAGES,
    /** Whether a request had left for the service; always false for purchases (see above). */
    readonly sent: boolean,
  ) {
    super(MESSAGES[reason]);
  }
}
