/**
 * A clock tests move by hand, shared by the ledger, the desk and the bot so they agree on when
 * a summary expires, without any test sleeping.
 */
export interface TestClock {
  (): number;
  /** Moves time forward. */
  advance(ms: number): void;
}

export function createTestClock(start: number = Date.now()): TestClock {
  let now = start;
  const clock = (() => now) as TestClock;
  clock.advance = (ms: number) => {
    now += ms;
  };
  return clock;
}
