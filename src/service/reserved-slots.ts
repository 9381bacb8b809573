/**
 * Purchase slots reserved ahead of their request (`reservePurchase`): the desk reserves one
 * before it claims a purchase in the ledger, so that the request follows the claim at once
 * instead of waiting for the quota while claimed. A slot is the caller's token; its grant in
 * the scheduler stays here, so only this client can spend it, and only once.
 */
import type { QuotaGrant, QuotaScheduler } from "./quota.js";
import type { Invalid, PurchaseSlot, ReserveOptions } from "./types.js";
/** The purchase slots handed out and not yet used. */
export class ReservedSlots {
  readonly #grants = new WeakMap<PurchaseSlot, QuotaGrant>();

  constructor(private readonly scheduler: QuotaScheduler) {}

  async reserve(options: ReserveOptions = {}): Promise<PurchaseSlot> {
    const grant = await this.scheduler.reserve(options.bulk === true ? "bulk" : "purchase", {
      onQueued: options.onQueued,
    });
    const slot: PurchaseSlot = {
      ready: async () => {
        const clear = await grant.whenClear();
        if (!clear) this.#grants.delete(slot);
        return clear;
      },
      giveBack: () => {
        this.#grants.delete(slot);
        grant.giveBack();
      },
    };
    this.#grants.set(slot, grant);
    return slot;
  }

  /**
   * The grant a purchase goes in (none: it waits for its turn), or what it comes to instead:
   * its input was invalid (a slot it had is given back), or its slot was already spent.
   */
  take(
    slot: PurchaseSlot | undefined,
    invalid: Invalid | undefined,
  ): { grant: QuotaGrant | undefined } | Invalid {
    if (invalid !== undefined) {
      slot?.giveBack();
      return invalid;
    }
    if (slot === undefined) return { grant: undefined };
    const grant = this.#grants.get(slot);
    if (grant === undefined) {
      return { kind: "invalid", field: "request", detail: "its quota slot was already used" };
    }
    this.#grants.delete(slot);
    return { grant };
  }
}
