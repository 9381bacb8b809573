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
}

export interface SharedReadOptions {
  /** Skip the cache (and requests started before this call) and ask the service now. */
  fresh?: boolean;
  onQueued?: (waitMs: number) => void;
}

/** A keyed read with a time-to-live cache and de-duplication of concurrent identical reads. */
export class SharedReads<K, V> {
  readonly #cache = new Map<K, { value: V; until: number; at: number }>();
  /** Bumped by {@link forget}: a read started before the bump must not refill the cache. */
  readonly #generation = new Map<K, number>();
  readonly #inFlight = new Map<K, InFlight<V>>();
  readonly #inFlightFresh = new Map<K, InFlight<V>>();

  constructor(
    private readonly fetch: (key: K, onQueued: (waitMs: number) => void) => Promise<V>,
    private readonly options: {
      ttlMs: number;
      clock: () => number;
      /** Only answers worth reusing are cached (not rate limits or failures). */
      cacheable: (value: V) => boolean;
    },
  ) {}

  read(key: K, options: SharedReadOptions = {}): Promise<V> {
    if (!options.fresh) {
      const cached = this.#cache.get(key);
      if (cached && cached.until > this.options.clock()) return Promise.resolve(cached.value);
    }
    const table = options.fresh ? this.#inFlightFresh : this.#inFlight;
    let flight = table.get(key);
    if (flight === undefined) {
      flight = this.#start(key, table);
      table.set(key, flight);
    }
    if (options.onQueued) {
      flight.listeners.add(options.onQueued);
      if (flight.queuedMs !== undefined) safeCall(options.onQueued, flight.queuedMs);
    }
    return flight.promise;
  }

  /** Sends one request for `key`; its progress is fanned out to every caller sharing it. */
  #start(key: K, table: Map<K, InFlight<V>>): InFlight<V> {
    const listeners = new Set<(waitMs: number) => void>();
    const state: { queuedMs: number | undefined } = { queuedMs: undefined };
    const startedAt = this.options.clock();
    const generation = this.#generation.get(key) ?? 0;
    const promise = this.fetch(key, (waitMs) => {
      state.queuedMs = waitMs;
      for (const listener of listeners) safeCall(listener, waitMs);
    })
      .then((value) => {
        // Forgotten while in flight (a purchase finished meanwhile): the answer may predate
        // the change, so it goes to the callers that asked but is not kept for later ones.
        if ((this.#generation.get(key) ?? 0) !== generation) return value;
        if (this.options.cacheable(value)) {
          this.#cache.set(key, {
            value,
            until: this.options.clock() + this.options.ttlMs,
            at: startedAt,
          });
        } else {
          this.#cache.delete(key);
        }
        return value;
      })
      .finally(() => table.delete(key));
    return {
      promise,
      listeners,
      get queuedMs() {
        return state.queuedMs;
      },
    };
  }

  /**
   * Forgets a cached answer (for example after a purchase changed it), and keeps a read
   * already in flight from caching its possibly older answer.
   */
  forget(key: K): void {
    this.#cache.delete(key);
    this.#generation.set(key, (this.#generation.get(key) ?? 0) + 1);
  }

  /**
   * The last answer kept for `key`, even past its time to live, with when its read started (the
   * answer reflects the service at or after that time). No request is made.
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
