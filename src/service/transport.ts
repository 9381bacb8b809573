/**
 * Sending one HTTP exchange over undici under its timeouts (docs/service-contract.md §8),
 * reduced to what the outcome rules need: a status, headers and the body text, or a classified
 * failure (timeout, too large, other transport error). Nothing here retries: undici's Agent
 * does not retry, and the client decides everything else.
 */
import { Agent, type Dispatcher, request } from "undici";
import { BodyTooLargeError, readLimitedBody } from "./body-limit.js";
import { MAX_TIMER_MS } from "./timers.js";

export interface TransportTimeouts {
  connectMs: number;
  /** Until the response headers arrive. */
  headersMs: number;
  /** Between two chunks of the body (undici's bodyTimeout), not for the whole body. */
  bodyMs: number;
}

/** Bounds of one exchange as a whole, on top of undici's per-phase timeouts. */
export interface ExchangeLimits {
  /**
   * Deadline of the whole exchange, from send to the last body byte. undici's body timeout only
   * bounds the gap between chunks, so a body trickled a byte at a time would otherwise keep a
   * purchase `sending` for ever.
   */
  totalMs: number;
  /** Largest body read; a larger one is dropped unread rather than buffered. */
  maxBodyBytes: number;
}

export type Exchange =
  | { kind: "response"; status: number; headers: Record<string, string>; text: string }
  | { kind: "failure"; cause: "timeout" | "transport" | "too_large" | "not_sent"; code: string };

export interface ExchangeRequest {
  method: "GET" | "POST";
  url: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /**
   * Asked as the very last step, on the connection, just before the request's first byte is
   * written: false withholds it (nothing is written) and the exchange throws
   * {@link ExchangeWithheldError}.
   */
  mayLeave?: () => boolean;
}

/** The `code` of a failure whose overall deadline passed. */
const DEADLINE_CODE = "DEADLINE_EXCEEDED";
/** The `code` of a failure whose body exceeded `maxBodyBytes`. */
const BODY_TOO_LARGE_CODE = "BODY_TOO_LARGE";

/**
 * Failures raised before any byte of the request left: undici validates a request's method,
 * URL and headers (a header value with a character it refuses) when the request is made, and
 * throws InvalidArgumentError then, before it connects or writes. Nothing was sent, so a
 * purchase that meets one is "not sent", not unknown. Only this code: every other failure may
 * come after the request went out.
 */
const NOT_SENT_CODES: ReadonlySet<string> = new Set(["UND_ERR_INVALID_ARG"]);

const TIMEOUT_CODES: ReadonlySet<string> = new Set([
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "ETIMEDOUT",
]);

/** The one keep-alive connection pool of a client. */
export function createAgent(timeouts: TransportTimeouts): Agent {
  return new Agent({
    connect: { timeout: timeouts.connectMs },
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
    keepAliveTimeout: 4_000,
    // No connection cap: a request the quota let out must leave at once. Queueing it behind a
    // busy socket would shift its arrival past the quota's safety margin. The quota itself
    // bounds how many requests can be in flight.
    connections: null,
  });
}

/** Marks an abort caused by the caller's signal, which the client turns into a cancellation. */
export class ExchangeAbortedError extends Error {
  override readonly name = "ExchangeAbortedError";
}

/** The request was withheld by `mayLeave` before any byte of it was written. */
export class ExchangeWithheldError extends Error {
  override readonly name = "ExchangeWithheldError";
}

/**
 * The agent with `mayLeave` asked at the latest moment undici offers: a dispatch handler's
 * `onRequestStart`, which undici calls once the connection is up, right before it writes the
 * request on the socket, and after which it writes nothing of a request aborted there
 * (undici's client-h1 `writeH1`). Anything earlier (after the quota's wait, say) would leave a
 * slow connect between the check and the send.
 */
function askingBeforeWrite(agent: Agent, mayLeave: () => boolean): Dispatcher {
  return agent.compose(
    (dispatch) => (options, handler) =>
      dispatch(options, {
        onRequestStart: (controller, context: unknown) => {
          if (!mayLeave()) {
            controller.abort(new ExchangeWithheldError("withheld before it was written"));
            return;
          }
          handler.onRequestStart?.(controller, context);
        },
        onRequestUpgrade: (...args) => handler.onRequestUpgrade?.(...args),
        onResponseStart: (...args) => handler.onResponseStart?.(...args),
        onResponseData: (...args) => handler.onResponseData?.(...args),
        onResponseEnd: (...args) => handler.onResponseEnd?.(...args),
        onResponseError: (...args) => handler.onResponseError?.(...args),
      }),
  );
}

function errorCode(error: unknown): string {
  if (typeof error === "object" && error !== null && "code" in error) {
    const code = error.code;
    if (typeof code === "string") return code;
  }
  return error instanceof Error ? error.name : "UNKNOWN";
}

/**
 * Sends one request. Never throws except `ExchangeAbortedError` when the caller's signal
 * aborted and `ExchangeWithheldError` when `mayLeave` withheld it; the deadline and the size
 * limit end in a `failure`.
 */
export async function exchange(
  agent: Agent,
  input: ExchangeRequest,
  limits: ExchangeLimits,
): Promise<Exchange> {
  if (input.signal?.aborted) throw new ExchangeAbortedError("aborted");
  // One signal for undici: the caller's abort or the deadline, whichever comes first. Aborting
  // it also destroys a body still being read.
  const stop = new AbortController();
  // An object, not a `let`: the timer sets it, and TypeScript does not see assignments in closures.
  const deadline = { passed: false };
  const timer = setTimeout(
    () => {
      deadline.passed = true;
      stop.abort();
    },
    Math.min(MAX_TIMER_MS, Math.max(1, limits.totalMs)),
  );
  const onCallerAbort = (): void => stop.abort();
  input.signal?.addEventListener("abort", onCallerAbort, { once: true });
  try {
    const response = await request(input.url, {
      method: input.method,
      headers: input.headers,
      body: input.body,
      signal: stop.signal,
      dispatcher: input.mayLeave === undefined ? agent : askingBeforeWrite(agent, input.mayLeave),
    });
    const text = await readLimitedBody(response.body, response.headers, limits.maxBodyBytes);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
    }
    return { kind: "response", status: response.statusCode, headers, text };
  } catch (error) {
    // Only the caller's own signal cancels; anything else is a failure, so a purchase always
    // ends in an outcome.
    if (input.signal?.aborted) {
      throw new ExchangeAbortedError("aborted");
    }
    if (error instanceof ExchangeWithheldError) throw error;
    if (error instanceof BodyTooLargeError) {
      return { kind: "failure", cause: "too_large", code: BODY_TOO_LARGE_CODE };
    }
    if (deadline.passed) return { kind: "failure", cause: "timeout", code: DEADLINE_CODE };
    const code = errorCode(error);
    if (NOT_SENT_CODES.has(code)) return { kind: "failure", cause: "not_sent", code };
    return { kind: "failure", cause: TIMEOUT_CODES.has(code) ? "timeout" : "transport", code };
  } finally {
    clearTimeout(timer);
    input.signal?.removeEventListener("abort", onCallerAbort);
  }
}
