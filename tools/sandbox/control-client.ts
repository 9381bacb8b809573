/**
 * A small client of the sandbox's `/__sandbox/` control endpoints (control.ts), for programs that
 * steer a sandbox running elsewhere: the demo's terminal chat expires the marketplace session or
 * drains the wallet through it.
 */

import { ANY_PURCHASE } from "./types.js";

/** Thrown when a control endpoint does not answer 200. */
class SandboxControlError extends Error {
  override readonly name = "SandboxControlError";
}

export class SandboxControlClient {
  constructor(readonly baseUrl: string) {}

  /** Purchases with the cookie in use are refused as an expired marketplace session. */
  async expireSession(): Promise<void> {
    await this.post("session/expire");
  }

  async restoreSession(): Promise<void> {
    await this.post("session/restore");
  }

  /** The wallet's balances to zero: purchases are refused with `insufficient: true`. */
  async drainWallet(): Promise<void> {
    await this.post("wallet/drain");
  }

  /**
   * The next purchase (stars or premium) is carried out, then its connection drops before the
   * answer: the bot cannot know the outcome, which is what /pending is for.
   */
  async loseNextPurchaseAnswer(): Promise<void> {
    await this.post("faults", { fault: { type: "drop", executed: true }, path: ANY_PURCHASE });
  }

  /** The wallet back to the balance the sandbox started with. */
  async refillWallet(): Promise<void> {
    await this.post("wallet/refill");
  }

  private async post(path: string, input?: unknown): Promise<unknown> {
    const res = await fetch(`${this.baseUrl.replace(/\/+$/, "")}/__sandbox/${path}`, {
      method: "POST",
      ...(input === undefined
        ? {}
        : { headers: { "content-type": "application/json" }, body: JSON.stringify(input) }),
    });
    const body: unknown = await res.json().catch(() => undefined);
    if (res.status !== 200) {
      throw new SandboxControlError(`sandbox control ${path} answered ${res.status}`);
    }
    return body;
  }
}
