/**
 * The quota's sliding window as the client counts it (src/service/quota.ts): every request
 * granted a slot, by the latest time the service can have seen it arrive.
 */

/**
 * One request counted against the quota. The server counts *arrival* times, which we cannot
 * see; we only know an arrival lies between our send and the answer. So while a request is in
 * flight (or its slot reserved) it may still arrive at any moment (`open`), and once answered
 * its arrival is taken as the answer's time, the latest it can have been. Counting that upper
 * bound means no connection set-up delay or slow socket can ever make the server see more than
 * the limit.
 */
export interface Sent {
  at: number;
  open: boolean;
}

export class QuotaWindow {
  private sent: Sent[] = [];

  /** `spanMs`: the service's window plus the safety margin. */
  constructor(private readonly spanMs: number) {}

  /** A request granted its slot at `now`: open until it is answered. */
  open(now: number): Sent {
    const record: Sent = { at: now, open: true };
    this.sent.push(record);
    return record;
  }

  /** The request was answered at `now`: it counts until that time slides out. */
  answered(record: Sent, now: number): void {
    record.open = false;
    record.at = now;
  }

  /** The request was never sent: it never counted. */
  forget(record: Sent): void {
    this.sent = this.sent.filter((r) => r !== record);
  }

  /** Latest possible arrival times, oldest first; an open request may arrive any time. */
  latestArrivals(now: number): number[] {
    this.sent = this.sent.filter((r) => r.open || r.at > now - this.spanMs);
    return this.sent.map((r) => (r.open ? Number.POSITIVE_INFINITY : r.at)).sort((a, b) => a - b);
  }

  /**
   * The earliest time one more request could go under `limit`, not before `notBefore` (a
   * retry wait); Infinity while the limit is held by open requests.
   */
  nextFreeAt(now: number, limit: number, notBefore: number): number {
    const arrivals = this.latestArrivals(now);
    let at = Math.max(now, notBefore);
    if (arrivals.length >= limit) {
      at = Math.max(at, (arrivals[arrivals.length - limit] ?? 0) + this.spanMs);
    }
    return at;
  }

  /**
   * Milliseconds until the `count`-th next request could go under `limit`, if all go as early
   * as allowed and every open request were answered now.
   */
  waitForPosition(count: number, now: number, limit: number, notBefore: number): number {
    const simulated = this.latestArrivals(now).map((at) => Math.min(at, now));
    let at = Math.max(now, notBefore);
    for (let i = 0; i < count; i++) {
      if (simulated.length >= limit) {
        at = Math.max(at, (simulated[simulated.length - limit] ?? 0) + this.spanMs);
      }
      simulated.push(at);
    }
    return Math.max(0, Math.ceil(at - now));
  }
}
