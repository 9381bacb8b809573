/**
 * Keeps this process's hold on the sender lease (src/storage/sqlite/sender-lease.ts): one process at a
 * time takes updates, recovers what an earlier one left in flight, and sends purchases.
 *
 * - At start, {@link LeaseKeeper.acquire} takes the lease, or waits on standby (trying again every
 *   {@link LeaseTiming.pollMs}) until the holder releases it or it expires. A rolling deploy's
 *   new process waits here while the old one finishes; the old one releases the lease at its
 *   stop, and the new one takes over within one poll.
 * - While held, it is renewed every third of its lifetime. A renewal refused because another
 *   process holds it now (this one was paused or cut off past its expiry) means this process
 *   has lost it: `onLost` is told once (the app stops taking updates and exits for a restart).
 *   The claim's fence check in the database refuses any purchase meanwhile, whatever this
 *   object believes.
 */
import type { LeaseFence, LeaseHolder, SenderLease } from "../ledger/types.js";
import type { Logger } from "../shared/logger.js";
import { isDeadHereOwner, leaseOwnerId } from "./lease-owner.js";

export interface LeaseTiming {
  /** How long a lease lasts without a renewal (LEASE_SECONDS). */
  ttlMs: number;
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
}

/**
 * The lease's timing from LEASE_SECONDS: a process on standby asks twice a second (so a released
 * lease is taken within half a second), or four times per lifetime for short test leases.
 */
export function leaseTiming(leaseSeconds: number): LeaseTiming {
  const ttlMs = leaseSeconds * 1000;
  return { ttlMs, pollMs: Math.min(500, Math.floor(ttlMs / 4)) };
}

export class LeaseKeeper {
  readonly owner = leaseOwnerId();
  readonly #options: LeaseKeeperOptions;
  #epoch: number | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #lost = false;

  constructor(options: LeaseKeeperOptions) {
    this.#options = options;
  }

  /** The fence every claim checks while this process holds the lease. */
  get fence(): LeaseFence | undefined {
    return this.#epoch === undefined ? undefined : { owner: this.owner, epoch: this.#epoch };
  }

  /**
   * Takes the lease, waiting on standby while another process holds it. Resolves with the
   * epoch, or undefined when `signal` ended the wait (a stop on standby).
   */
  async acquire(signal: AbortSignal): Promise<number | undefined> {
    const { lease, timing, logger } = this.#options;
    let waiting = false;
    while (!signal.aborted) {
      const epoch = (await this.#tryAcquire()) ?? (await this.#takeOverFromTheDead());
      if (epoch !== undefined) {
        this.#epoch = epoch;
        this.#startHeartbeat();
        logger.info({ owner: this.owner, epoch }, "holding the sender lease");
        return epoch;
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

  /** Gives the lease up at once (a clean stop); nothing is sent by this process after it. */
  async release(): Promise<void> {
    this.#stopHeartbeat();
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
  async #tryAcquire(): Promise<number | undefined> {
    try {
      const grant = await this.#options.lease.acquire(this.owner, this.#options.timing.ttlMs);
      return grant?.epoch;
    } catch (err) {
      this.#options.logger.warn({ err }, "could not ask for the sender lease");
      return undefined;
    }
  }

  /**
   * A holder whose process is certainly gone (a crash, a SIGKILL: see ./lease-owner.ts)
   * cannot renew: its lease is taken now rather than at its expiry, so a restart after a crash
   * takes updates at once. A holder it cannot judge (another host, another container) is
   * waited out.
   */
  async #takeOverFromTheDead(): Promise<number | undefined> {
    const holder = await this.#holder(this.#options.lease);
    if (holder === undefined || !isDeadHereOwner(holder.owner)) return undefined;
    try {
      const epoch = (
        await this.#options.lease.takeOver(
          this.owner,
          { owner: holder.owner, epoch: holder.epoch },
          this.#options.timing.ttlMs,
        )
      )?.epoch;
      if (epoch !== undefined) {
        this.#options.logger.warn(
          { from: holder.owner, epoch },
          "took the sender lease over from a process that is gone",
        );
      }
      return epoch;
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

  #startHeartbeat(): void {
    const every = Math.max(50, Math.floor(this.#options.timing.ttlMs / 3));
    this.#heartbeat = setInterval(() => void this.#renew(), every);
    this.#heartbeat.unref();
  }

  #stopHeartbeat(): void {
    if (this.#heartbeat !== undefined) clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
  }

  async #renew(): Promise<void> {
    const epoch = this.#epoch;
    if (epoch === undefined) return;
    let held: boolean;
    try {
      held = await this.#options.lease.renew(this.owner, epoch, this.#options.timing.ttlMs);
    } catch (err) {
      // A locked database: tried again at the next beat; the lease lasts three beats.
      this.#options.logger.warn({ err }, "could not renew the sender lease");
      return;
    }
    // Released (a stop) while the renewal was on its way: not a loss.
    if (held || this.#epoch !== epoch) return;
    this.#lost = true;
    this.#stopHeartbeat();
    this.#options.logger.error({ owner: this.owner, epoch }, "lost the sender lease");
    this.#options.onLost("another process holds the sender lease now");
  }
}

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
