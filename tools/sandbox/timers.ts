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

/** Responses a `hold` fault keeps waiting until a test releases them (or the sandbox closes). */
export class HeldAnswers {
  private readonly waiting = new Set<() => void>();

  /** Resolves at the next {@link release}. */
  hold(): Promise<void> {
    return new Promise((resolve) => this.waiting.add(resolve));
  }

  /** Lets every held response go on; how many there were. */
  release(): number {
    const count = this.waiting.size;
    for (const resolve of this.waiting) resolve();
    this.waiting.clear();
    return count;
  }
}
