/**
 * Shared, briefly cached reads. Many people look at the same recipient or the wallet balance at
 * once, and the service allows only 30 requests a minute for everything (purchases included),
 * so identical concurrent reads share one request and good answers are reused for a while.
 */

interface InFlight<V> {
  promise: Promise<V>;
  listeners: Set<(waitMs: number) => void>;
  /** The queue wait already reported, replayed to callers that join later. */
  readonly queuedMs: number | undefined;
  /** Set by {@link SharedReads.forget}: the answer may predate the change, so it is not kept. */
  stale: boolean;
}

/**
 * Default cap on kept answers. The service allows 30 requests a minute, so with a cache time of
 * a minute a few dozen answers are alive at once; the cap only matters when the quota is lifted
 * (the bench) and keeps the memory of many distinct keys bounded (about 240 bytes each).
 */
const DEFAULT_MAX_ENTRIES = 1_000;

export interface SharedReadOptions<V> {
  /** Skip the cache (and requests started before this call) and ask the service now. */
  fresh?: boolean;
  onQueued?: (waitMs: number) => void;
  /**
   * Whose read this is. A request belongs to the caller who starts it; callers who join it, or
   * get its cached answer, share it for nothing (docs/service-contract.md §6: owners).
   */
  owner?: number;
  /**
   * Called only when this call would start a new request (nothing cached, nothing in flight to
   * join): returning a value answers this caller with it instead, and nothing is sent or
   * cached. A per-person allowance charges here, so only what reaches the service counts.
   */
  admit?: () => V | undefined;
  /**
   * A read nobody waits on in a chat (a giveaway's): when this call starts the request, it
   * queues behind everyone else's. A caller who joins it waits as it does.
   */
  bulk?: boolean;
}

/**
 * A keyed read with a time-to-live cache and de-duplication of concurrent identical reads.
 *
 * Bounded: every key ever read would otherwise stay for good (one per recipient name checked).
 * Answers are kept in the order they arrived, and every answer kept first drops the expired
 * ones at the front and then the oldest beyond `maxEntries`; nothing else is held per key
 * once its read is over.
 */
export class SharedReads<K, V> {
  /** In arrival order (a key is re-inserted when its answer is renewed), so oldest first. */
  readonly #cache = new Map<K, { value: V; until: number; at: number }>();
  readonly #inFlight = new Map<K, InFlight<V>>();
  readonly #inFlightFresh = new Map<K, InFlight<V>>();

  constructor(
    private readonly fetch: (
      key: K,
      onQueued: (waitMs: number) => void,
      owner: number | undefined,
      bulk: boolean,
    ) => Promise<V>,
    private readonly options: {
      ttlMs: number;
      clock: () => number;
      /** Only answers worth reusing are cached (not rate limits or failures). */
      cacheable: (value: V) => boolean;
      /** At most this many answers are kept; default {@link DEFAULT_MAX_ENTRIES}. */
      maxEntries?: number;
    },
  ) {}

  /** How many answers are kept now (for tests and the bench). */
  get size(): number {
    return this.#cache.size;
  }

  read(key: K, options: SharedReadOptions<V> = {}): Promise<V> {
    if (!options.fresh) {
      const cached = this.#cache.get(key);
      if (cached && cached.until > this.options.clock()) return Promise.resolve(cached.value);
    }
    const table = options.fresh ? this.#inFlightFresh : this.#inFlight;
    let flight = table.get(key);
    if (flight === undefined) {
      const refusal = options.admit?.();
      if (refusal !== undefined) return Promise.resolve(refusal);
      flight = this.#start(key, table, options.owner, options.bulk === true);
      table.set(key, flight);
    }
    if (options.onQueued) {
      flight.listeners.add(options.onQueued);
      if (flight.queuedMs !== undefined) safeCall(options.onQueued, flight.queuedMs);
    }
    return flight.promise;
  }

  /** Sends one request for `key`; its progress is fanned out to every caller sharing it. */
  #start(
    key: K,
    table: Map<K, InFlight<V>>,
    owner: number | undefined,
    bulk: boolean,
  ): InFlight<V> {
    const listeners = new Set<(waitMs: number) => void>();
    const state: { queuedMs: number | undefined } = { queuedMs: undefined };
    const startedAt = this.options.clock();
    const flight: InFlight<V> = {
      promise: undefined as unknown as Promise<V>,
      listeners,
      get queuedMs() {
        return state.queuedMs;
      },
      stale: false,
    };
    flight.promise = this.fetch(
      key,
      (waitMs) => {
        state.queuedMs = waitMs;
        for (const listener of listeners) safeCall(listener, waitMs);
      },
      owner,
      bulk,
    )
      .then((value) => {
        // Forgotten while in flight (a purchase finished meanwhile): the answer may predate
        // the change, so it goes to the callers that asked but is not kept for later ones.
        if (flight.stale) return value;
        this.#cache.delete(key);
        if (this.options.cacheable(value)) this.#keep(key, value, startedAt);
        return value;
      })
      .finally(() => table.delete(key));
    return flight;
  }

  /** Keeps an answer at the back, after dropping expired answers and the oldest over the cap. */
  #keep(key: K, value: V, startedAt: number): void {
    const now = this.options.clock();
    const max = Math.max(1, this.options.maxEntries ?? DEFAULT_MAX_ENTRIES);
    for (const [oldKey, entry] of this.#cache) {
      if (entry.until > now && this.#cache.size < max) break;
      this.#cache.delete(oldKey);
    }
    this.#cache.set(key, { value, until: now + this.options.ttlMs, at: startedAt });
  }

  /**
   * Forgets a cached answer (for example after a purchase changed it), and keeps a read
   * already in flight from caching its possibly older answer.
   */
  forget(key: K): void {
    this.#cache.delete(key);
    const running = this.#inFlight.get(key);
    if (running !== undefined) running.stale = true;
    const fresh = this.#inFlightFresh.get(key);
    if (fresh !== undefined) fresh.stale = true;
  }

  /**
   * The last answer kept for `key`, even past its time to live (until a later answer for another
   * key is kept, which drops expired ones), with when its read started (the answer reflects the
   * service at or after that time). No request is made.
   */
  peek(key: K): { value: V; at: number } | undefined {
    const cached = this.#cache.get(key);
    return cached === undefined ? undefined : { value: cached.value, at: cached.at };
  }
}

/** A caller's progress callback must not break a read shared with others. */
function safeCall(listener: (waitMs: number) => void, waitMs: number): void {
  try {
    listener(waitMs);
  } catch {
    // Ignored on purpose: the read goes on for everyone sharing it.
  }
}
