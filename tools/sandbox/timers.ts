/**
 * The sandbox's own timers (latency, delays, trickling), tracked so `close()` can cancel every
 * one of them and a closed sandbox never keeps the test process alive.
 */
export class SandboxTimers {
  private readonly pending = new Set<NodeJS.Timeout>();

  /** Resolves after `ms`, unless `clear()` cancels it first (then it never resolves). */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(timer);
        resolve();
      }, ms);
      this.pending.add(timer);
    });
  }

  clear(): void {
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
  }
}
