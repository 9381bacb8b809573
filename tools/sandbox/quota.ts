/**
 * The service's shared quota (docs/service-contract.md §6: 30 requests per client IP per minute, all endpoints), as a
 * sliding window over admitted requests. Requests answered 429 do not count, so a client that
 * respects the quota is measured only by what it actually got served.
 */
export class SlidingQuota {
  private admitted: number[] = [];

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Admits a request at `now`, or returns the seconds until one would be admitted. */
  tryAdmit(now: number): { admitted: true } | { admitted: false; retryAfterSeconds: number } {
    this.prune(now);
    if (this.admitted.length < this.limit) {
      this.admitted.push(now);
      return { admitted: true };
    }
    const oldest = this.admitted[0] ?? now;
    const waitMs = oldest + this.windowMs - now;
    return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  /** Counts a request that was answered without a quota check (injected faults). */
  record(now: number): void {
    this.prune(now);
    this.admitted.push(now);
  }

  clear(): void {
    this.admitted = [];
  }

  private prune(now: number): void {
    // A request at exactly now - windowMs has left the window.
    while (this.admitted.length > 0 && (this.admitted[0] ?? 0) <= now - this.windowMs) {
      this.admitted.shift();
    }
  }
}
