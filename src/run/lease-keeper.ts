/**
 * Keeps this process's hold on the sender lease (src/storage/sender-lease.ts): one process at a
 * time takes updates, recovers what an earlier one left in flight, and sends purchases.
 *
 * - At start, {@link LeaseKeeper.acquire} takes the lease, or waits on standby (trying again every
 *   {@link LeaseTiming.pollMs}) until the holder releases it or it expires. A rolling deploy's
 *   new process waits here while the old one finishes; the old one releases the lease at its
 *   stop, and the new one takes over within one poll.
 * - The lease is *certainly valid* until {@link LeaseTiming.ttlMs} minus
 *   {@link LeaseTiming.marginMs} after its last successful acquire or renewal was *sent*, on
 *   this process's monotonic clock (see {@link leaseTiming} for why that bound holds) and, as
 *   well, on its wall clock: the monotonic clock stands still while the machine is suspended,
 *   the wall clock does not (and a wall clock set back is caught by the monotonic one). Only
 *   then may a purchase leave ({@link LeaseKeeper.mayLeave}, asked by the service client as the
 *   very last step before a purchase's request is written: issue #35). A renewal that fails
 *   (the database refuses or does not answer) extends nothing, so it counts toward losing the
 *   lease.
 * - It is lost when a renewal finds another holder, or when the certain validity runs out
 *   without a successful renewal: `onLost` is told once (the app stops taking updates and exits
 *   for a restart). The claim's fence check in the database refuses any purchase meanwhile,
 *   whatever this object believes.
 * - A process that takes the lease from a holder that did not release it waits, before it
 *   recovers what that holder left, until that holder can no longer send
 *   ({@link LeaseKeeper.untilPredecessorSilent}).
 */
import type { LeaseGrant, LeaseFence, LeaseHolder, SenderLease } from "../ledger/types.js";
import type { Logger } from "../shared/logger.js";
import { isDeadHereOwner, leaseOwnerId } from "./lease-owner.js";

export interface LeaseTiming {
  /** How long a lease lasts without a renewal (LEASE_SECONDS), by the database's clock. */
  ttlMs: number;
  /** Kept off the end of each lease: it is certainly valid for `ttlMs - marginMs` only. */
  marginMs: number;
  /** How often it is renewed: three times per certain lifetime. */
  renewEveryMs: number;
  /** How often a process on standby asks for the lease. */
  pollMs: number;
}

export interface LeaseKeeperOptions {
  lease: SenderLease;
  timing: LeaseTiming;
  logger: Logger;
  /** Told once when the lease is lost while held. */
  onLost: (reason: string) => void;
  /** Told when this process starts waiting on standby (another process holds the lease). */
  onStandby?: () => void;
  /** Monotonic ms (tests inject one); wall-clock steps must not stretch a lease. */
  monotonic?: () => number;
  /** Wall-clock ms (tests inject one); a suspended machine's resume must not stretch it either. */
  wallClock?: () => number;
}

/** One moment on both of this process's clocks. */
interface Instant {
  monotonic: number;
  wall: number;
}

/**
 * The lease's timing from LEASE_SECONDS.
 *
 * The margin is max(1 s, a fifth of the lease). The database sets the expiry to its own clock
 * at the statement plus the lifetime, and the statement runs after this process sent it, so
 * counted from the send the expiry is at least a lifetime away, if the two clocks run at one
 * rate. The margin is what is kept for them not to: the database's clock stepped forward by a
 * time sync, a slow monotonic clock, a timer or a check that runs late on a busy event loop.
 * A second at least, so the 2 to 5 s leases of tests keep a whole one; a fifth, so a 30 s lease
 * keeps 6 s, more than a time sync steps a clock that it keeps in step. The lease is renewed
 * three times per certain lifetime, so two renewals in a row may fail before it is lost.
 *
 * A process on standby asks twice a second (so a released lease is taken within half a
 * second), or four times per lifetime for short test leases.
 */
export function leaseTiming(leaseSeconds: number): LeaseTiming {
  const ttlMs = leaseSeconds * 1000;
  const marginMs = Math.max(1000, Math.floor(ttlMs / 5));
  return {
    ttlMs,
    marginMs,
    renewEveryMs: Math.max(50, Math.floor((ttlMs - marginMs) / 3)),
    pollMs: Math.min(500, Math.floor(ttlMs / 4)),
  };
}

/** A lease this process took: how, and when its statement was sent and answered (monotonic). */
interface Taken {
  grant: LeaseGrant;
  sentAt: Instant;
  answeredAt: number;
  /** Taken from a holder certainly gone (./lease-owner.ts): nothing of it can still leave. */
  fromTheDead: boolean;
}

export class LeaseKeeper {
  readonly owner = leaseOwnerId();
  readonly #options: LeaseKeeperOptions;
  readonly #monotonic: () => number;
  readonly #wallClock: () => number;
  #epoch: number | undefined;
  #taken: Taken | undefined;
  /** Until when, on either clock, the lease is certainly valid. */
  #validUntil: Instant = NEVER;
  #heartbeat: NodeJS.Timeout | undefined;
  #expiry: NodeJS.Timeout | undefined;
  #lost = false;

  constructor(options: LeaseKeeperOptions) {
    this.#options = options;
    this.#monotonic = options.monotonic ?? (() => performance.now());
    this.#wallClock = options.wallClock ?? Date.now;
  }

  /** The fence every claim checks while this process holds the lease. */
  get fence(): LeaseFence | undefined {
    return this.#epoch === undefined ? undefined : { owner: this.owner, epoch: this.#epoch };
  }

  /**
   * Whether a purchase may leave now: the lease is held, not lost, and certainly valid. Asked
   * as the last step before a purchase's request is written to the network.
   */
  mayLeave(): boolean {
    if (this.#epoch === undefined || this.#lost) return false;
    return (
      this.#monotonic() < this.#validUntil.monotonic && this.#wallClock() < this.#validUntil.wall
    );
  }

  /**
   * Takes the lease, waiting on standby while another process holds it. Resolves with the
   * epoch, or undefined when `signal` ended the wait (a stop on standby).
   */
  async acquire(signal: AbortSignal): Promise<number | undefined> {
    const { lease, timing, logger } = this.#options;
    let waiting = false;
    while (!signal.aborted) {
      const taken = (await this.#tryAcquire()) ?? (await this.#takeOverFromTheDead());
      if (taken !== undefined) {
        this.#hold(taken);
        logger.info({ owner: this.owner, epoch: taken.grant.epoch }, "holding the sender lease");
        return taken.grant.epoch;
      }
      if (!waiting) {
        waiting = true;
        const holder = await this.#holder(lease);
        logger.info(
          { holder: holder?.owner, expiresAt: holder?.expiresAt },
          "another process holds the sender lease: standing by",
        );
        this.#options.onStandby?.();
      }
      await pause(timing.pollMs, signal);
    }
    return undefined;
  }

  /**
   * How long, from the lease's taking, its previous holder may still have sent: none when it
   * released the lease (a clean stop), when there was none, or when it was certainly gone.
   * Otherwise it was live-looking (paused, cut off from the database, on another host) and is
   * waited for until one more lifetime and margin past its lease's expiry, by the database's
   * clock: its own certain validity ended a margin before that expiry, and the extra lifetime
   * covers the database's clock having run ahead meanwhile.
   */
  predecessorWaitMs(): number {
    const taken = this.#taken;
    const previous = taken?.grant.previous;
    if (taken === undefined || previous === undefined || taken.fromTheDead) return 0;
    const { ttlMs, marginMs } = this.#options.timing;
    return Math.max(0, previous.expiresAt + ttlMs + marginMs - taken.grant.at);
  }

  /**
   * Waits, once the lease is taken, until its previous holder can no longer send anything
   * ({@link predecessorWaitMs}): only then may what it left `sending` be judged interrupted.
   * Counted from when the taking was answered (after the database's `at`, so never short);
   * ends early when `signal` aborts (a stop).
   */
  async untilPredecessorSilent(signal: AbortSignal): Promise<void> {
    const taken = this.#taken;
    if (taken === undefined) return;
    const left = taken.answeredAt + this.predecessorWaitMs() - this.#monotonic();
    if (left <= 0) return;
    this.#options.logger.warn(
      { previous: taken.grant.previous?.owner, waitMs: Math.ceil(left) },
      "the process before did not release the sender lease: waiting until it can no longer send before recovering what it left",
    );
    await pause(left, signal);
  }

  /** Gives the lease up at once (a clean stop); nothing is sent by this process after it. */
  async release(): Promise<void> {
    this.#stopTimers();
    const epoch = this.#epoch;
    if (epoch === undefined || this.#lost) return;
    this.#epoch = undefined;
    try {
      await this.#options.lease.release(this.owner, epoch);
      this.#options.logger.info({ owner: this.owner, epoch }, "released the sender lease");
    } catch (err) {
      // It expires by itself: the next process waits that long at most.
      this.#options.logger.warn({ err }, "could not release the sender lease");
    }
  }

  /** A database that refuses the attempt is a lease not had, tried again at the next poll. */
  async #tryAcquire(): Promise<Taken | undefined> {
    const sentAt = this.#now();
    try {
      const grant = await this.#options.lease.acquire(this.owner, this.#options.timing.ttlMs);
      if (grant === undefined) return undefined;
      return { grant, sentAt, answeredAt: this.#monotonic(), fromTheDead: false };
    } catch (err) {
      this.#options.logger.warn({ err }, "could not ask for the sender lease");
      return undefined;
    }
  }

  /**
   * A holder whose process is certainly gone (a crash, a SIGKILL: see ./lease-owner.ts)
   * cannot renew: its lease is taken now rather than at its expiry, so a restart after a crash
   * takes updates at once. A holder it cannot judge is waited out.
   */
  async #takeOverFromTheDead(): Promise<Taken | undefined> {
    const holder = await this.#holder(this.#options.lease);
    if (holder === undefined || !isDeadHereOwner(holder.owner)) return undefined;
    const sentAt = this.#now();
    try {
      const grant = await this.#options.lease.takeOver(
        this.owner,
        { owner: holder.owner, epoch: holder.epoch },
        this.#options.timing.ttlMs,
      );
      if (grant === undefined) return undefined;
      this.#options.logger.warn(
        { from: holder.owner, epoch: grant.epoch },
        "took the sender lease over from a process that is gone",
      );
      return { grant, sentAt, answeredAt: this.#monotonic(), fromTheDead: true };
    } catch (err) {
      this.#options.logger.warn({ err }, "could not take the sender lease over");
      return undefined;
    }
  }

  async #holder(lease: SenderLease): Promise<LeaseHolder | undefined> {
    try {
      return await lease.holder();
    } catch {
      return undefined;
    }
  }

  #hold(taken: Taken): void {
    this.#taken = taken;
    this.#epoch = taken.grant.epoch;
    this.#lost = false;
    this.#validUntil = NEVER;
    this.#extendFrom(taken.sentAt);
    this.#heartbeat = setInterval(() => void this.#renew(), this.#options.timing.renewEveryMs);
    this.#heartbeat.unref();
  }

  #now(): Instant {
    return { monotonic: this.#monotonic(), wall: this.#wallClock() };
  }

  /** A successful acquire or renewal sent at `sentAt`: certainly valid a lifetime less the margin. */
  #extendFrom(sentAt: Instant): void {
    const { ttlMs, marginMs } = this.#options.timing;
    const certain = ttlMs - marginMs;
    this.#validUntil = {
      monotonic: Math.max(this.#validUntil.monotonic, sentAt.monotonic + certain),
      wall: Math.max(this.#validUntil.wall, sentAt.wall + certain),
    };
    this.#watchExpiry();
  }

  /** Loses the lease when its certain validity runs out before a renewal extends it. */
  #watchExpiry(): void {
    if (this.#expiry !== undefined) clearTimeout(this.#expiry);
    const left = this.#validUntil.monotonic - this.#monotonic();
    if (left <= 0) {
      this.#lose("the sender lease could not be renewed in time: another process may take it");
      return;
    }
    this.#expiry = setTimeout(() => this.#watchExpiry(), Math.ceil(left));
    this.#expiry.unref();
  }

  #stopTimers(): void {
    if (this.#heartbeat !== undefined) clearInterval(this.#heartbeat);
    if (this.#expiry !== undefined) clearTimeout(this.#expiry);
    this.#heartbeat = undefined;
    this.#expiry = undefined;
  }

  async #renew(): Promise<void> {
    const epoch = this.#epoch;
    if (epoch === undefined || !this.#holds(epoch)) return;
    const sentAt = this.#now();
    let held: boolean;
    try {
      held = await this.#options.lease.renew(this.owner, epoch, this.#options.timing.ttlMs);
    } catch (err) {
      // Extends nothing: the next beat tries again, and the certain validity runs out meanwhile.
      this.#options.logger.warn({ err }, "could not renew the sender lease");
      return;
    }
    // Released (a stop) or lost while the renewal was on its way: nothing to extend.
    if (!this.#holds(epoch)) return;
    if (held) this.#extendFrom(sentAt);
    else this.#lose("another process holds the sender lease now");
  }

  /** Whether this process still holds the lease at `epoch`, as far as it knows. */
  #holds(epoch: number): boolean {
    return this.#epoch === epoch && !this.#lost;
  }

  #lose(reason: string): void {
    if (this.#lost) return;
    this.#lost = true;
    this.#stopTimers();
    this.#options.logger.error(
      { owner: this.owner, epoch: this.#epoch, reason },
      "lost the sender lease",
    );
    this.#options.onLost(reason);
  }
}

/** Not valid at all (before the first acquire). */
const NEVER: Instant = { monotonic: Number.NEGATIVE_INFINITY, wall: Number.NEGATIVE_INFINITY };

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
