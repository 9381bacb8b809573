/**
 * Typed errors of the client. None of them is thrown for anything the service or the network
 * does (those are outcomes); they cover the caller's own mistakes and decisions, and never
 * carry a secret value in their message.
 */

/** A client option is unusable (bad URL, header-unsafe credential, out-of-range setting). */
export class GiftServiceConfigError extends Error {
  override readonly name = "GiftServiceConfigError";
}

/**
 * The caller cancelled the call: its `signal` aborted, or the client was closed. A purchase
 * cancelled this way was never sent (an in-flight purchase is never aborted), so `sent` is
 * false for purchases; for reads it says whether a request had left already.
 */
export class GiftServiceCallCancelledError extends Error {
  override readonly name = "GiftServiceCallCancelledError";
  constructor(
    readonly reason: "aborted" | "closed",
    readonly sent: boolean,
  ) {
    super(reason === "closed" ? "the gift service client is closed" : "the call was aborted");
  }
}
