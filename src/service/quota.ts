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
import { FairQueue, type LaneKey } from "./fair-queue.js";
import { MAX_TIMER_MS } from "./timers.js";

export type Priority = "purchase" | "shared_read" | "read";

/** Queue order: a lower rank is served first; within a rank, owners take turns (FairQueue). */
const RANK: Readonly<Record<Priority, number>> = { purchase: 0, shared_read: 1, read: 2 };
const PRIORITIES: readonly Priority[] = ["purchase", "shared_read", "read"];

/** A person id, opaque to the client: it orders the queue and is never logged or labelled. */
export type Owner = string | number;

export interface AcquireOptions {
  signal?: AbortSignal;
  onQueued?: (waitMs: number) => void;
  /** Whose request this is; requests of several owners in one priority take turns. */
  owner?: Owner;
  /**
   * With an owner: this request takes the place of the owner's requests of the same priority
   * still queued, which reject with `QueueSupersededError` and are never sent.
   */
  replace?: boolean;
}

/**
 * A queued request was replaced by a newer one of the same owner (`replace`): it was never
 * sent. The client turns it into a `superseded` outcome.
 */
export class QueueSupersededError extends Error {
  override readonly name = "QueueSupersededError";
  constructor() {
    super("replaced by a newer request of the same owner before it was sent");
  }
}

/** A read-only view of the scheduler, for admins and metrics. Owners appear as ids only. */
export interface QuotaSnapshot {
  /** Requests waiting, by priority. */
  queued: Record<Priority, number>;
  /** Requests counted in the current window, those in flight included. */
  usedSlots: number;
  limit: number;
  /** The window the scheduler counts: the service's plus the safety margin. */
  windowMs: number;
  /** What is left of a hold after a 429/503, in milliseconds; 0 when none. */
  heldForMs: number;
  /** The owners with the most queued requests, most first (ties: who waited longest first). */
  topOwners: { owner: Owner; queued: number }[];
}

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
  /** The owner as given, for the snapshot; undefined for a request without one. */
  owner: Owner | undefined;
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
  private readonly queues: Record<Priority, FairQueue<Waiting>> = {
    purchase: new FairQueue(),
    shared_read: new FairQueue(),
    read: new FairQueue(),
  };
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
  acquire(priority: Priority, options: AcquireOptions = {}): Promise<() => void> {
    if (this.closed) return Promise.reject(new GiftServiceCallCancelledError("closed", false));
    if (priority === "purchase" && this.purchasesStopped) {
      return Promise.reject(new GiftServiceCallCancelledError("stopped", false));
    }
    if (options.signal?.aborted) {
      return Promise.reject(new GiftServiceCallCancelledError("aborted", false));
    }
    const now = this.now();
    if (this.queuedCount() === 0 && this.nextFreeAt(now) <= now) {
      return Promise.resolve(this.grant());
    }
    return new Promise<() => void>((resolve, reject) => {
      const signal = options.signal;
      const onAbort = (): void => {
        this.queues[priority].remove(entry);
        reject(new GiftServiceCallCancelledError("aborted", false));
        this.pump();
      };
      const entry: Waiting = {
        priority,
        owner: options.owner,
        resolve,
        reject,
        detach: () => signal?.removeEventListener("abort", onAbort),
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const position = this.enqueue(entry, options);
      options.onQueued?.(this.waitForPosition(position + 1, now));
      this.pump();
    });
  }

  /**
   * How long a request of this priority would wait now, in milliseconds. Requests in flight
   * are assumed to be answered now, so this is a lower bound when answers are slow.
   */
  estimateWait(priority: Priority): number {
    const ahead = PRIORITIES.filter((p) => RANK[p] <= RANK[priority]).reduce(
      (sum, p) => sum + this.queues[p].size,
      0,
    );
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
    const stopped = this.queues.purchase.drain();
    if (stopped.length === 0) return;
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
    const waiting = PRIORITIES.flatMap((p) => this.queues[p].drain());
    for (const entry of waiting) {
      entry.detach();
      entry.reject(new GiftServiceCallCancelledError("closed", false));
    }
  }

  /**
   * A read-only view for admins and metrics: queue lengths by priority, the slots used in the
   * current window, any hold, and the `top` owners with the most queued requests (ids only).
   */
  snapshot(top = 5): QuotaSnapshot {
    const now = this.now();
    const perOwner = new Map<LaneKey, { owner: Owner; queued: number }>();
    for (const priority of PRIORITIES) {
      for (const { key, queued } of this.queues[priority].lengths()) {
        if (typeof key === "symbol") continue;
        const owner = this.ownerOf(key);
        if (owner === undefined) continue;
        const entry = perOwner.get(key) ?? { owner, queued: 0 };
        entry.queued += queued;
        perOwner.set(key, entry);
      }
    }
    return {
      queued: {
        purchase: this.queues.purchase.size,
        shared_read: this.queues.shared_read.size,
        read: this.queues.read.size,
      },
      usedSlots: this.latestArrivals(now).length,
      limit: this.limit,
      windowMs: this.spanMs,
      heldForMs: Math.max(0, Math.ceil(this.pausedUntil - now)),
      topOwners: [...perOwner.values()].sort((a, b) => b.queued - a.queued).slice(0, top),
    };
  }

  /**
   * Queues the entry in its priority, in its owner's lane; with `replace`, in place of the
   * owner's queued entries, which are superseded. Returns how many queued entries go first.
   */
  private enqueue(entry: Waiting, options: AcquireOptions): number {
    const queue = this.queues[entry.priority];
    const key: LaneKey = options.owner === undefined ? Symbol("anonymous") : String(options.owner);
    if (options.replace && options.owner !== undefined) {
      for (const old of queue.replace(key, entry)) {
        old.detach();
        old.reject(new QueueSupersededError());
      }
    } else {
      queue.push(key, entry);
    }
    const higher = PRIORITIES.filter((p) => RANK[p] < RANK[entry.priority]);
    return higher.reduce((sum, p) => sum + this.queues[p].size, queue.positionOf(entry));
  }

  /** The owner value of a lane key, as one of its queued entries was given it. */
  private ownerOf(key: string): Owner | undefined {
    for (const priority of PRIORITIES) {
      const found = this.queues[priority].find(key);
      if (found) return found.owner;
    }
    return undefined;
  }

  private queuedCount(): number {
    return PRIORITIES.reduce((sum, p) => sum + this.queues[p].size, 0);
  }

  /** The next entry: the highest priority with anything queued, owners taking turns in it. */
  private next(): Waiting | undefined {
    for (const priority of PRIORITIES) {
      const entry = this.queues[priority].shift();
      if (entry) return entry;
    }
    return undefined;
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
    while (!this.closed && this.queuedCount() > 0) {
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
      const entry = this.next();
      if (!entry) return;
      entry.detach();
      entry.resolve(this.grant());
    }
  }
}
