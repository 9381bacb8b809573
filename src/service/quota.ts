/**
 * The client-side half of the service's shared quota (docs/service-contract.md §6: 30 requests per
 * client IP per minute across all endpoints). Every request of the client passes through one
 * scheduler, which never lets a request out that would exceed the quota, holds everything after a
 * 429/503 for the time the service asked, and serves queued purchases before queued reads (a person
 * is waiting on a confirmed purchase; a read can be redone). The wallet balance read goes between
 * them: one answer serves everyone waiting at a summary, so it should not queue behind every single
 * person's recipient check.
 */
import { GiftServiceCallCancelledError } from "./errors.js";
import { MAX_TIMER_MS } from "./timers.js";

export type Priority = "purchase" | "shared_read" | "read";

/** Queue order: a lower rank is served first; equal ranks in arrival order. */
const RANK: Readonly<Record<Priority, number>> = { purchase: 0, shared_read: 1, read: 2 };

export interface QuotaSettings {
  limit: number;
  windowMs: number;
  /**
   * Extra spacing added to the window, against clock granularity at either end. Default: 5%
   * of the window, at most 1 s. (Network delay needs no margin: see `QuotaScheduler`.)
   */
  marginMs?: number;
  /**
   * Longest global hold after a 429/503, however long the service asks (default 15 minutes,
   * `QUOTA_DEFAULTS.maxPauseMs`). A Retry-After date an hour ahead, or a garbage hint, must not
   * freeze every purchase and read of the process for that long; reads that were told to wait
   * longer than they may give up anyway (docs/service-contract.md §7), and the quota window still
   * applies.
   */
  maxPauseMs?: number;
}

/** Defaults of the scheduler that are not part of the service's quota itself. */
export const QUOTA_DEFAULTS = {
  maxPauseMs: 15 * 60_000,
} as const;

interface Waiting {
  priority: Priority;
  resolve: (release: () => void) => void;
  reject: (error: Error) => void;
  detach: () => void;
}

/**
 * One request counted against the quota. The server counts *arrival* times, which we cannot
 * see; we only know an arrival lies between our send and the answer. So while a request is in
 * flight it may still arrive at any moment (`open`), and once answered its arrival is taken as
 * the answer's time, the latest it can have been. Counting that upper bound means no
 * connection set-up delay or slow socket can ever make the server see more than the limit.
 */
interface Sent {
  at: number;
  open: boolean;
}

/** Monotonic milliseconds; wall-clock jumps must not open or close the window. */
export type Clock = () => number;

export class QuotaScheduler {
  private readonly limit: number;
  private readonly spanMs: number;
  private readonly maxPauseMs: number;
  private sent: Sent[] = [];
  private pausedUntil = 0;
  private queue: Waiting[] = [];
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private purchasesStopped = false;

  constructor(
    settings: QuotaSettings,
    private readonly now: Clock = () => performance.now(),
  ) {
    this.limit = settings.limit;
    const margin = settings.marginMs ?? Math.min(1000, Math.round(settings.windowMs * 0.05));
    this.spanMs = settings.windowMs + margin;
    this.maxPauseMs = settings.maxPauseMs ?? QUOTA_DEFAULTS.maxPauseMs;
  }

  /**
   * Resolves when this request may be sent, with a `release` to call once it has been answered
   * (or failed). `onQueued` is told the expected wait when the request cannot go at once.
   * Rejects only on abort, close, or (purchases) after `stopPurchases()`.
   */
  acquire(
    priority: Priority,
    options: { signal?: AbortSignal; onQueued?: (waitMs: number) => void } = {},
  ): Promise<() => void> {
    if (this.closed) return Promise.reject(new GiftServiceCallCancelledError("closed", false));
    if (priority === "purchase" && this.purchasesStopped) {
      return Promise.reject(new GiftServiceCallCancelledError("stopped", false));
    }
    if (options.signal?.aborted) {
      return Promise.reject(new GiftServiceCallCancelledError("aborted", false));
    }
    const now = this.now();
    if (this.queue.length === 0 && this.nextFreeAt(now) <= now) {
      return Promise.resolve(this.grant());
    }
    return new Promise<() => void>((resolve, reject) => {
      const signal = options.signal;
      const onAbort = (): void => {
        this.queue = this.queue.filter((w) => w !== entry);
        reject(new GiftServiceCallCancelledError("aborted", false));
        this.pump();
      };
      const entry: Waiting = {
        priority,
        resolve,
        reject,
        detach: () => signal?.removeEventListener("abort", onAbort),
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const position = this.insert(entry);
      options.onQueued?.(this.waitForPosition(position + 1, now));
      this.pump();
    });
  }

  /**
   * How long a request of this priority would wait now, in milliseconds. Requests in flight
   * are assumed to be answered now, so this is a lower bound when answers are slow.
   */
  estimateWait(priority: Priority): number {
    const ahead = this.queue.filter((w) => RANK[w.priority] <= RANK[priority]).length;
    return this.waitForPosition(ahead + 1, this.now());
  }

  /**
   * Holds every request for `ms` (the service's 429/503 wait), on top of the window, but never
   * longer than `maxPauseMs`. Returns the hold actually applied, in milliseconds.
   */
  pause(ms: number): number {
    // NaN or a negative hint holds nothing; Infinity (a hint of 1e308 s) is capped like any other.
    const held = ms > 0 ? Math.min(ms, this.maxPauseMs) : 0;
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + held);
    this.pump();
    return held;
  }

  /**
   * Shutdown's first step: rejects every queued purchase, and every later one at once, as
   * never sent, while reads keep being served (an unconfirmed purchase's evidence and the
   * low-balance check still need the wallet and the recipient). A purchase already granted
   * its slot is in flight and is not touched: its answer is the only evidence of the money.
   */
  stopPurchases(): void {
    this.purchasesStopped = true;
    const stopped = this.queue.filter((w) => w.priority === "purchase");
    if (stopped.length === 0) return;
    this.queue = this.queue.filter((w) => w.priority !== "purchase");
    for (const entry of stopped) {
      entry.detach();
      entry.reject(new GiftServiceCallCancelledError("stopped", false));
    }
    // The reads behind them may go sooner now.
    this.pump();
  }

  /** Stops the timer and rejects every queued request; later acquires reject at once. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const waiting = this.queue;
    this.queue = [];
    for (const entry of waiting) {
      entry.detach();
      entry.reject(new GiftServiceCallCancelledError("closed", false));
    }
  }

  /** After every queued request of the same or a higher rank, before every lower one. */
  private insert(entry: Waiting): number {
    const firstLower = this.queue.findIndex((w) => RANK[w.priority] > RANK[entry.priority]);
    const index = firstLower === -1 ? this.queue.length : firstLower;
    this.queue.splice(index, 0, entry);
    return index;
  }

  private grant(): () => void {
    const record: Sent = { at: this.now(), open: true };
    this.sent.push(record);
    return () => {
      if (!record.open) return;
      record.open = false;
      record.at = this.now();
      this.pump();
    };
  }

  /** Latest possible arrival times, oldest first; an open request may arrive any time. */
  private latestArrivals(now: number): number[] {
    this.sent = this.sent.filter((r) => r.open || r.at > now - this.spanMs);
    return this.sent.map((r) => (r.open ? Number.POSITIVE_INFINITY : r.at)).sort((a, b) => a - b);
  }

  /** The earliest time a request could go; Infinity while the limit is held by open requests. */
  private nextFreeAt(now: number): number {
    const arrivals = this.latestArrivals(now);
    let at = Math.max(now, this.pausedUntil);
    if (arrivals.length >= this.limit) {
      at = Math.max(at, (arrivals[arrivals.length - this.limit] ?? 0) + this.spanMs);
    }
    return at;
  }

  /** Milliseconds until the `count`-th next request could go, if all go as early as allowed. */
  private waitForPosition(count: number, now: number): number {
    const simulated = this.latestArrivals(now).map((at) => Math.min(at, now));
    let at = Math.max(now, this.pausedUntil);
    for (let i = 0; i < count; i++) {
      if (simulated.length >= this.limit) {
        at = Math.max(at, (simulated[simulated.length - this.limit] ?? 0) + this.spanMs);
      }
      simulated.push(at);
    }
    return Math.max(0, Math.ceil(at - now));
  }

  /** Serves the queue head while slots are free, then sleeps until the next slot frees. */
  private pump(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    while (!this.closed && this.queue.length > 0) {
      const now = this.now();
      const at = this.nextFreeAt(now);
      if (at > now) {
        // Infinity: an answer will free the slot and call pump again.
        if (Number.isFinite(at)) {
          // A longer wait is slept in steps: an overflowing delay would fire after 1 ms, and
          // the scheduler would wake, find nothing free and sleep again: a busy loop.
          const delay = Math.min(MAX_TIMER_MS, Math.max(1, Math.ceil(at - now)));
          this.timer = setTimeout(() => this.pump(), delay);
        }
        return;
      }
      const entry = this.queue.shift();
      if (!entry) return;
      entry.detach();
      entry.resolve(this.grant());
    }
  }
}
