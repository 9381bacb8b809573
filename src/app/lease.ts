/**
 * The sender lease in the app: the keeper (standby while another process holds the lease, a
 * fatal stop once it is lost), the claim's fence in the ledger, and the check every purchase
 * passes as the very last step before its request is written (the desk's `mayLeave`). No
 * request leaves this process unless its lease is certainly still valid at that moment, and a
 * process that takes over from a holder that did not let go waits until that one can no longer
 * send before it recovers what it left (issue #35; src/run/lease-keeper.ts).
 */
import type { Config } from "../config/index.js";
import type { PurchaseLedger } from "../ledger/types.js";
import { LeaseKeeper, leaseTiming } from "../run/lease-keeper.js";
import type { Logger } from "../shared/logger.js";
import type { Storage } from "../storage/types.js";

export class AppLease {
  readonly keeper: LeaseKeeper;
  readonly #ledger: PurchaseLedger;
  /** Set once the lease is first held; from then on every purchase asks the keeper. */
  #enforced = false;

  constructor(
    config: Config,
    parts: {
      storage: Storage;
      ledger: PurchaseLedger;
      logger: Logger;
      /** Told when this process waits on standby. */
      onStandby: () => void;
      /** Told once when the lease is lost while held (the app stops and exits). */
      onLost: (reason: string) => void;
    },
  ) {
    const { logger } = parts;
    this.#ledger = parts.ledger;
    this.keeper = new LeaseKeeper({
      lease: parts.storage.senderLease,
      timing: leaseTiming(config.run.leaseSeconds),
      logger,
      onStandby: parts.onStandby,
      onLost: (reason) => {
        logger.fatal({ reason }, "this process no longer holds the sender lease: stopping");
        parts.onLost(reason);
      },
    });
  }

  /** This process's lease owner id. */
  get owner(): string {
    return this.keeper.owner;
  }

  /**
   * The desk's `mayLeave`: before the lease was ever held (an app built and never started:
   * tests, the bench) nothing is fenced, as the ledger's claims are not; from the first hold on,
   * only while the keeper says the lease is certainly valid (never again after a release).
   */
  readonly mayLeave = (): boolean => !this.#enforced || this.keeper.mayLeave();

  /**
   * Takes the lease (on standby until then) and fences the ledger's claims and the purchases'
   * last step with it. Resolves false when `signal` ended the wait (a stop on standby).
   */
  async hold(signal: AbortSignal): Promise<boolean> {
    if ((await this.keeper.acquire(signal)) === undefined) return false;
    this.#enforced = true;
    this.#ledger.fenceWith(this.keeper.fence);
    return true;
  }

  /**
   * Before recovering what the previous holder left: when it did not release the lease, waits
   * until it can no longer send (see {@link LeaseKeeper.untilPredecessorSilent}).
   */
  untilPredecessorSilent(signal: AbortSignal): Promise<void> {
    return this.keeper.untilPredecessorSilent(signal);
  }

  /**
   * Whether this process holds the lease now, certainly (never before it was first taken: a
   * process on standby does not). The admins' app acts only then.
   */
  readonly holds = (): boolean => this.#enforced && this.keeper.mayLeave();

  /** Gives the lease up at a clean stop: nothing is sent by this process after it. */
  release(): Promise<void> {
    return this.keeper.release();
  }
}
