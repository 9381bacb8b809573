/**
 * Injected misbehaviour: a queue of faults for the next matching requests, and the reply each
 * fault gives. A fault with `executed` carries the purchase out first (the balance is charged),
 * which is how the real service can fail after money moved.
 */
import { PURCHASE_PATHS } from "./endpoints.js";
import type { Reply } from "./reply.js";
import { ANY_PURCHASE, type Fault, type FaultOptions, type RecordedRequest } from "./types.js";

/** Default size of the `huge` fault's padding: twice a client's usual 1 MiB limit. */
const HUGE_DEFAULT_BYTES = 2 * 1024 * 1024;
/** Default pause between the bytes of the `trickle` fault. */
const TRICKLE_DEFAULT_MS = 50;
/** A truncated JSON document: what a proxy cutting off a response could deliver. */
const MALFORMED_BODY = '{"ok":true,"data":{"tx_';

interface PendingFault {
  fault: Fault;
  path: string | undefined;
  remaining: number;
}

/** Faults waiting for their requests, first injected first used. */
export class FaultQueue {
  private pending: PendingFault[] = [];

  add(fault: Fault, options: FaultOptions = {}): void {
    this.pending.push({ fault, path: options.path, remaining: options.times ?? 1 });
  }

  /** The fault for a request to `path`, counted as used; undefined when none applies. */
  take(path: string): Fault | undefined {
    const index = this.pending.findIndex(
      (f) =>
        f.path === undefined ||
        f.path === path ||
        (f.path === ANY_PURCHASE && PURCHASE_PATHS.has(path)),
    );
    const pending = this.pending[index];
    if (!pending) return undefined;
    pending.remaining -= 1;
    if (pending.remaining <= 0) this.pending.splice(index, 1);
    return pending.fault;
  }

  clear(): void {
    this.pending = [];
  }
}

/** The faults that replace the service's answer (`delay` and `hold` only postpone it). */
export type AnswerFault = Exclude<Fault, { type: "delay" } | { type: "hold" }>;

/** How the server answers a fault: a reply, no answer at all, or a body that never ends. */
export type FaultAnswer = Reply | "drop" | { trickleMs: number };

/**
 * The answer to a request under a fault other than `delay` and `hold`. `execute` is the
 * service's normal answer; it runs (and charges the wallet) only for purchases the fault says
 * were executed.
 */
export function answerFault(
  fault: AnswerFault,
  request: RecordedRequest,
  execute: () => Reply,
): FaultAnswer {
  if (fault.type === "status") return statusFault(fault);
  const executed =
    fault.executed === true && PURCHASE_PATHS.has(request.path) ? execute() : undefined;
  switch (fault.type) {
    case "drop":
      return "drop";
    case "malformed":
      return { status: 200, body: MALFORMED_BODY };
    case "huge":
      return hugeReply(fault.bytes ?? HUGE_DEFAULT_BYTES, executed);
    case "trickle":
      return { trickleMs: fault.intervalMs ?? TRICKLE_DEFAULT_MS };
    case "unconfirmed":
      return unconfirmedReply(executed);
  }
}

/** An injected status; 429 and 503 get the service's FLOOD_WAIT-style body and Retry-After. */
function statusFault(fault: Extract<Fault, { type: "status" }>): Reply {
  const defaults: Record<number, { error: string; wait: boolean }> = {
    429: { error: "FLOOD_WAIT", wait: true },
    503: { error: "RATE_LIMIT_UNAVAILABLE", wait: true },
  };
  const known = defaults[fault.status];
  const body =
    fault.body !== undefined
      ? fault.body
      : {
          ok: false,
          error: known?.error ?? "INJECTED_FAULT",
          ...(known ? { retry_after: 1 } : {}),
        };
  const headers = { ...(known && !fault.body ? { "retry-after": "1" } : {}), ...fault.headers };
  return { status: fault.status, body, headers };
}

function hugeReply(bytes: number, executed: Reply | undefined): Reply {
  const base = executed?.status === 200 ? (executed.body as Record<string, unknown>) : { ok: true };
  return { status: 200, body: { ...base, padding: "x".repeat(bytes) } };
}

/** 400 unconfirmed; a purchase refused before money moved keeps its real refusal. */
function unconfirmedReply(executed: Reply | undefined): Reply {
  if (executed && executed.status !== 200) return executed;
  const txHash = executed ? (executed.body as { tx_hash?: string }).tx_hash : undefined;
  return {
    status: 400,
    body: {
      ok: false,
      error: "UNCONFIRMED",
      reason: "The transfer was sent but its confirmation did not arrive in time",
      unconfirmed: true,
      transient: true,
      ...(txHash ? { tx_hash: txHash } : {}),
    },
  };
}
