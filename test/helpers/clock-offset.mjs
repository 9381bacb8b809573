// Preloaded into a bot process (NODE_OPTIONS="--import <this file>") to run its wall clock
// GIFTBOT_TEST_CLOCK_OFFSET_MS ahead (or behind, when negative): Date.now() and new Date() as a
// machine whose clock is off would give them. Monotonic clocks (performance.now) are left alone,
// as they are on such a machine. Test use only (test/e2e/lease-fence.test.ts).
const offset = Number(process.env.GIFTBOT_TEST_CLOCK_OFFSET_MS ?? "0");
const RealDate = Date;

class OffsetDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(RealDate.now() + offset);
    else super(...args);
  }

  static now() {
    return RealDate.now() + offset;
  }
}

globalThis.Date = OffsetDate;
