/**
 * One HTTP exchange over undici, reduced to what the outcome rules need: a status, headers and
 * the body text, or a classified failure (timeout vs other transport error). Nothing here
 * retries: undici's Agent does not retry, and the client decides everything else.
 */
import { Agent, request } from "undici";

export interface TransportTimeouts {
  connectMs: number;
  headersMs: number;
  bodyMs: number;
}

export type Exchange =
  | { kind: "response"; status: number; headers: Record<string, string>; text: string }
  | { kind: "failure"; cause: "timeout" | "transport"; code: string };

export interface ExchangeRequest {
  method: "GET" | "POST";
  url: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

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

function errorCode(error: unknown): string {
  if (typeof error === "object" && error !== null && "code" in error) {
    const code = (error as { code: unknown }).code;
    if (typeof code === "string") return code;
  }
  return error instanceof Error ? error.name : "UNKNOWN";
}

/** Sends one request. Never throws except `ExchangeAbortedError` when the signal aborted. */
export async function exchange(agent: Agent, input: ExchangeRequest): Promise<Exchange> {
  try {
    const response = await request(input.url, {
      method: input.method,
      headers: input.headers,
      body: input.body,
      signal: input.signal,
      dispatcher: agent,
    });
    const text = await response.body.text();
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
    }
    return { kind: "response", status: response.statusCode, headers, text };
  } catch (error) {
    // Only the caller's own signal cancels; anything else is a transport failure, so a purchase
    // always ends in an outcome.
    if (input.signal?.aborted) {
      throw new ExchangeAbortedError("aborted");
    }
    const code = errorCode(error);
    return { kind: "failure", cause: TIMEOUT_CODES.has(code) ? "timeout" : "transport", code };
  }
}
