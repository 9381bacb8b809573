/**
 * The client-side half of the service's shared quota (docs/service-contract.md §6: 30 requests per
 * client IP per minute across all endpoints). Every request of the client passes through one
 * scheduler, which never lets a request out that would exceed the quota, makes everything wait after a
 * 429/503 for the time the service asked (the retry wait), and serves queued purchases before queued reads (a person
 * is waiting on a confirmed purchase; a read can be redone). The wallet balance read goes between
 * them: one answer serves everyone waiting at a summary, so it should not queue behind every single
 * person's recipient check.
 *
 * A purchase's slot is reserved before the purchase is claimed ({@link QuotaScheduler.reserve}),
 * so the request leaves right after the claim; a slot that ends up unused is given back. A
 * giveaway's purchases (`bulk`) go after everything else and never into the last slots of the
 * window ({@link QuotaSettings.keptForPeople}: the bulk limit is the rest), which stay free for people: a person arriving during
 * a giveaway finds a slot at once instead of waiting for the window to slide.
 */
import { GiftServiceCallCancelledError } from "./errors.js";
import { FairQueue, type LaneKey } from "./fair-queue.js";
import { QuotaWindow } from "./quota-window.js";
import { MAX_TIMER_MS } from "./timers.js";

export type Priority = "purchase" | "shared_read" | "read" | "bulk";

/** Queue order: a lower rank is served first; within a rank, owners take turns (FairQueue). */
const RANK: Readonly<Record<Priority, number>> = { purchase: 0, shared_read: 1, read: 2, bulk: 3 };
const PRIORITIES: readonly Priority[] = ["purchase", "shared_read", "read", "bulk"];

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

/**
 * One slot of the quota, granted to one request ({@link QuotaScheduler.reserve}). It counts as
 * a request that may arrive at any moment until it is released or given back.
 */
export interface QuotaGrant {
  /** The request was answered (or failed): the slot counts from now until it slides out. */
  release(): void;
  /** The request will never be sent: the slot is free again at once, as if never granted. */
  giveBack(): void;
  /**
   * For a slot reserved ahead of its request: resolves true when the request may leave now,
   * at once unless a 429/503 retry wait began after the grant (then when it is over), and
   * false when purchases were stopped or the scheduler closed meanwhile (the slot is then
   * given back).
   */
  whenClear(): Promise<boolean>;
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
  /** What is left of the retry wait after a 429/503, in milliseconds; 0 when none. */
  retryWaitMs: number;
  /** The owners with the most queued requests, most first (ties: who waited longest first). */
  topOwners: { owner: Owner; queued: number }[];
  /**
   * Milliseconds requests of each priority have waited in the queue since the scheduler began,
   * summed over the requests granted: what a giveaway's use of the quota costs the people who
   * come during it, apart from everything else that takes time.
   */
  waitedMs: Record<Priority, number>;
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
   * Longest retry wait after a 429/503, however long the service asks (default 15 minutes,
   * `QUOTA_DEFAULTS.maxRetryWaitMs`). A Retry-After date an hour ahead, or a garbage hint, must not
   * freeze every purchase and read of the process for that long; reads that were told to wait
   * longer than they may give up anyway (docs/service-contract.md §7), and the quota window still
   * applies.
   */
  maxRetryWaitMs?: number;
  /**
   * Slots of the window a `bulk` request never takes, so that people arriving find them free:
   * a bulk request is granted only while more than this many slots are left. Default: a tenth
   * of the limit, rounded down (3 of the service's 30: one person's recipient check, balance
   * read and purchase).
   */
  keptForPeople?: number;
}

/** Defaults of the scheduler that are not part of the service's quota itself. */
export const QUOTA_DEFAULTS = {
  maxRetryWaitMs: 15 * 60_000,
} as const;

interface Waiting {
  priority: Priority;
  /** When it was queued, on the scheduler's clock. */
  queuedAt: number;
  /** The owner as given, for the snapshot; undefined for a request without one. */
  owner: Owner | undefined;
  resolve: (grant: QuotaGrant) => void;
  reject: (error: Error) => void;
  detach: () => void;
}

/** Monotonic milliseconds; wall-clock jumps must not open or close the window. */
export type Clock = () => number;

/** Purchases, a person's or a giveaway's: stopped at shutdown while reads go on. */
function isPurchase(priority: Priority): boolean {
  return priority === "purchase" || priority === "bulk";
}

export class QuotaScheduler {
  private readonly limit: number;
  private readonly spanMs: number;
  private readonly maxRetryWaitMs: number;
  /** The bulk limit: the limit less the slots kept for people, at least 1. */
  private readonly bulkLimit: number;
  private readonly window: QuotaWindow;
  private retryWaitUntil = 0;
  private readonly queues: Record<Priority, FairQueue<Waiting>> = {
    purchase: new FairQueue(),
    shared_read: new FairQueue(),
    read: new FairQueue(),
    bulk: new FairQueue(),
  };
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private purchasesStopped = false;
  /** Reserved slots waiting for a retry wait to end, woken early by a stop or close. */
  private readonly clearWaiters = new Set<() => void>();
  private readonly waitedMs: Record<Priority, number> = {
    purchase: 0,
    shared_read: 0,
    read: 0,
    bulk: 0,
  };

  constructor(
    settings: QuotaSettings,
    private readonly now: Clock = () => performance.now(),
  ) {
    this.limit = settings.limit;
    const margin = settings.marginMs ?? Math.min(1000, Math.round(settings.windowMs * 0.05));
    this.spanMs = settings.windowMs + margin;
    this.window = new QuotaWindow(this.spanMs);
    this.maxRetryWaitMs = settings.maxRetryWaitMs ?? QUOTA_DEFAULTS.maxRetryWaitMs;
    const keptForPeople = settings.keptForPeople ?? Math.floor(settings.limit / 10);
    // Never above the limit (a negative number kept), never 0 (a giveaway would never go).
    this.bulkLimit = Math.max(1, settings.limit - Math.max(0, keptForPeople));
  }

  /**
   * Resolves when this request may be sent, with a `release` to call once it has been answered
   * (or failed). `onQueued` is told the expected wait when the request cannot go at once.
   * Rejects only on abort, close, or (purchases) after `stopPurchases()`.
   */
  async acquire(priority: Priority, options: AcquireOptions = {}): Promise<() => void> {
    const grant = await this.reserve(priority, options);
    return () => grant.release();
  }

  /**
   * A slot for a request that may still be called off: granted as {@link acquire} grants one,
   * and given back unused when the request is not sent after all (a purchase whose claim was
   * refused). Rejects as `acquire` does.
   */
  reserve(priority: Priority, options: AcquireOptions = {}): Promise<QuotaGrant> {
    if (this.closed) return Promise.reject(new GiftServiceCallCancelledError("closed", false));
    if (isPurchase(priority) && this.purchasesStopped) {
      return Promise.reject(new GiftServiceCallCancelledError("stopped", false));
    }
    if (options.signal?.aborted) {
      return Promise.reject(new GiftServiceCallCancelledError("aborted", false));
    }
    const now = this.now();
    if (this.queuedCount() === 0 && this.nextFreeAt(now, priority) <= now) {
      return Promise.resolve(this.grant(priority));
    }
    return new Promise<QuotaGrant>((resolve, reject) => {
      const signal = options.signal;
      const onAbort = (): void => {
        this.queues[priority].remove(entry);
        reject(new GiftServiceCallCancelledError("aborted", false));
        this.pump();
      };
      const entry: Waiting = {
        priority,
        queuedAt: now,
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
   * Makes every request wait `ms` (the service's 429/503 retry hint), on top of the window, but never
   * longer than `maxRetryWaitMs`. Returns the retry wait actually applied, in milliseconds.
   */
  startRetryWait(ms: number): number {
    // NaN or a negative hint waits for nothing; Infinity (a hint of 1e308 s) is capped like any other.
    const applied = ms > 0 ? Math.min(ms, this.maxRetryWaitMs) : 0;
    this.retryWaitUntil = Math.max(this.retryWaitUntil, this.now() + applied);
    this.pump();
    return applied;
  }

  /**
   * Shutdown's first step: rejects every queued purchase, and every later one at once, as
   * never sent, while reads keep being served (an unconfirmed purchase's evidence and the
   * low-balance check still need the wallet and the recipient). A purchase already granted
   * its slot is in flight and is not touched: its answer is the only evidence of the money.
   */
  stopPurchases(): void {
    this.purchasesStopped = true;
    this.wakeClearWaiters();
    const stopped = [...this.queues.purchase.drain(), ...this.queues.bulk.drain()];
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
    this.wakeClearWaiters();
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
   * current window, any retry wait, and the `top` owners with the most queued requests (ids only).
   */
  snapshot(top = 5): QuotaSnapshot {
    const now = this.now();
    return {
      queued: {
        purchase: this.queues.purchase.size,
        shared_read: this.queues.shared_read.size,
        read: this.queues.read.size,
        bulk: this.queues.bulk.size,
      },
      usedSlots: this.window.latestArrivals(now).length,
      limit: this.limit,
      windowMs: this.spanMs,
      retryWaitMs: Math.max(0, Math.ceil(this.retryWaitUntil - now)),
      topOwners: topOwners(this.queues, top),
      waitedMs: { ...this.waitedMs },
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

  /** The priority the next served entry has: the highest one with anything queued. */
  private headPriority(): Priority | undefined {
    return PRIORITIES.find((p) => this.queues[p].size > 0);
  }

  private grant(priority: Priority): QuotaGrant {
    const record = this.window.open(this.now());
    let done = false;
    return {
      release: () => {
        if (done) return;
        done = true;
        this.window.answered(record, this.now());
        this.pump();
      },
      giveBack: () => {
        if (done) return;
        done = true;
        // Never sent, so the service never counted it: the slot is free again.
        this.window.forget(record);
        this.pump();
      },
      whenClear: async () => {
        const clear = await this.waitOutRetryWait(isPurchase(priority));
        if (!clear && !done) {
          done = true;
          this.window.forget(record);
          this.pump();
        }
        return clear;
      },
    };
  }

  /**
   * Waits while a 429/503 retry wait lasts; true once there is none, false when purchases were
   * stopped (a purchase's slot) or the scheduler closed first.
   */
  private async waitOutRetryWait(purchase: boolean): Promise<boolean> {
    for (;;) {
      if (this.closed || (purchase && this.purchasesStopped)) return false;
      const left = this.retryWaitUntil - this.now();
      if (left <= 0) return true;
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          clearTimeout(timer);
          this.clearWaiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, Math.min(MAX_TIMER_MS, Math.max(1, Math.ceil(left))));
        this.clearWaiters.add(wake);
      });
    }
  }

  private wakeClearWaiters(): void {
    for (const wake of [...this.clearWaiters]) wake();
  }

  /** The earliest time a request of this priority could go (a bulk one under the bulk limit). */
  private nextFreeAt(now: number, priority: Priority): number {
    const limit = priority === "bulk" ? this.bulkLimit : this.limit;
    return this.window.nextFreeAt(now, limit, this.retryWaitUntil);
  }

  /** Milliseconds until the `count`-th next request could go, if all go as early as allowed. */
  private waitForPosition(count: number, now: number): number {
    return this.window.waitForPosition(count, now, this.limit, this.retryWaitUntil);
  }

  /** Serves the queue head while slots are free, then sleeps until the next slot frees. */
  private pump(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (let head = this.headPriority(); !this.closed && head !== undefined;) {
      const now = this.now();
      const at = this.nextFreeAt(now, head);
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
      this.waitedMs[entry.priority] += now - entry.queuedAt;
      entry.resolve(this.grant(entry.priority));
      head = this.headPriority();
    }
  }
}

/** The `top` owners with the most queued requests, most first (ties: who waited longest first). */
function topOwners(
  queues: Record<Priority, FairQueue<Waiting>>,
  top: number,
): { owner: Owner; queued: number }[] {
  const perOwner = new Map<LaneKey, { owner: Owner; queued: number }>();
  for (const priority of PRIORITIES) {
    for (const { key, queued } of queues[priority].lengths()) {
      if (typeof key === "symbol") continue;
      const entry = perOwner.get(key) ?? { owner: ownerOf(queues, key), queued: 0 };
      entry.queued += queued;
      perOwner.set(key, entry);
    }
  }
  return [...perOwner.values()].sort((a, b) => b.queued - a.queued).slice(0, top);
}

/** The owner value of a lane key, as one of its queued entries was given it. */
function ownerOf(queues: Record<Priority, FairQueue<Waiting>>, key: string): Owner {
  for (const priority of PRIORITIES) {
    const found = queues[priority].find(key)?.owner;
    if (found !== undefined) return found;
  }
  return key;
}
