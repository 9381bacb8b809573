/**
 * Measures what each delivered purchase cost, without spending the service's quota on it when
 * the quota is needed by people. After a delivered purchase the wallet is read again, but only
 * when the quota is idle (nothing queued, room left in the window); otherwise the next balance
 * read the desk makes anyway (for a summary, say) serves, as long as no other purchase went
 * out in between. The cost is the difference from the reading just before the claim
 * (src/costs/measure.ts); when it cannot be certain, the books say why instead of a figure.
 *
 * Pending measurements live in memory: a restart forgets them and those purchases simply keep
 * no cost. Everything here is evidence, never a purchase rule: a failure is logged, nothing more.
 */
import { currencyOf } from "../costs/money.js";
import { measureFromBalances, type Reading } from "../costs/measure.js";
import type { PurchaseCost } from "../costs/types.js";
import type { PurchaseAccounts } from "../ledger/accounts.js";
import type { PurchaseIntent } from "../ledger/types.js";
import type { Logger } from "../logger.js";
import { costFromChain, type OnChainEvidence } from "./on-chain.js";

export interface CostMeterDeps {
  ledger: {
    /** Other intents whose request was out between `from` and `to` (not rejected). */
    sentDuring(from: number, to: number, exceptId: string): PurchaseIntent[];
  };
  accounts: PurchaseAccounts;
  /**
   * One balance read of the meter's own, outside the desk's shared cache: the summaries' "balance
   * before" stays the figure their person saw. Undefined when the read gave no figure.
   */
  readBalance: () => Promise<Reading | undefined>;
  /** Whether a request now would take no one's turn (see `quotaIsIdle` in src/app). */
  quotaIdle: () => boolean;
  onChain?: OnChainEvidence | undefined;
  clock: () => number;
  logger: Logger;
  /** How long a purchase waits for a reading after it before it is recorded unmeasured. */
  waitForReadingMs?: number;
}

interface Pending {
  intent: PurchaseIntent;
  /** Whether this meter asked for the reading after (then it is `balance_after`). */
  asked: boolean;
  until: number;
}

/** At most this many purchases wait for a reading; the oldest gives up first. */
const MAX_PENDING = 1_000;

export class CostMeter {
  readonly #deps: CostMeterDeps;
  readonly #pending = new Map<string, Pending>();
  readonly #work = new Set<Promise<unknown>>();
  /** Measurements under way per purchase (its own read, or the chain). */
  readonly #underWay = new Map<string, Promise<unknown>>();

  constructor(deps: CostMeterDeps) {
    this.#deps = deps;
  }

  /** A purchase was delivered (`succeeded`): measure its cost, now or at a later reading. */
  delivered(intent: PurchaseIntent): void {
    if (intent.status !== "succeeded") return;
    const onChain = this.#deps.onChain;
    if (onChain !== undefined) {
      this.#track(
        intent.id,
        costFromChain(onChain, intent, this.#deps.clock())
          .catch((err: unknown) => {
            this.#deps.logger.warn({ err, intentId: intent.id }, "no cost from the chain");
            return undefined;
          })
          .then((cost) => {
            if (cost === undefined) return this.#measureByBalance(intent);
            this.#record(intent.id, cost);
            return undefined;
          }),
      );
      return;
    }
    void this.#measureByBalance(intent);
  }

  /** Resolves when the measurement under way for `id` ends, or after `waitMs` at most. */
  async settled(id: string, waitMs: number): Promise<void> {
    const work = this.#underWay.get(id);
    if (work === undefined) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs);
      timer.unref();
    });
    await Promise.race([work, timeout]);
    clearTimeout(timer);
  }

  /**
   * Every good balance read the desk makes, with when it started: kept in the books (the daily
   * report's start and end of day), and used as the reading after for pending purchases.
   */
  observe(reading: Reading): void {
    try {
      this.#deps.accounts.recordBalance(reading);
    } catch (err) {
      this.#deps.logger.warn({ err }, "could not record a balance reading");
    }
    const now = this.#deps.clock();
    for (const [id, pending] of this.#pending) {
      if (pending.until <= now) {
        this.#giveUp(id, pending);
        continue;
      }
      const finishedAt = pending.intent.finishedAt ?? now;
      // A read started before the answer may not show this purchase's transfer.
      if (reading.at < finishedAt) continue;
      this.#judge(id, pending, reading, now);
    }
  }

  /** Resolves when every measurement started so far has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.#work.size > 0) await Promise.all([...this.#work]);
  }

  /** How many purchases wait for a reading (for tests and metrics). */
  get pendingCount(): number {
    return this.#pending.size;
  }

  #measureByBalance(intent: PurchaseIntent): Promise<unknown> | undefined {
    const asked = this.#deps.quotaIdle();
    if (this.#pending.size >= MAX_PENDING) {
      const [oldestId, oldest] = this.#pending.entries().next().value ?? [];
      if (oldestId !== undefined && oldest !== undefined) this.#giveUp(oldestId, oldest);
    }
    this.#pending.set(intent.id, {
      intent,
      asked,
      until: this.#deps.clock() + (this.#deps.waitForReadingMs ?? 10 * 60_000),
    });
    if (!asked) return undefined;
    const read = this.#deps.readBalance().then((reading) => {
      if (reading !== undefined) this.observe(reading);
    });
    this.#track(intent.id, read);
    return read;
  }

  #judge(id: string, pending: Pending, after: Reading, now: number): void {
    const { intent } = pending;
    const before =
      intent.balanceBefore !== undefined && intent.balanceBeforeAt !== undefined
        ? { balance: intent.balanceBefore, at: intent.balanceBeforeAt }
        : undefined;
    let othersSent: number;
    try {
      othersSent =
        // Up to and including the reading's millisecond: a purchase sent in the same
        // millisecond may have gone out before it.
        before === undefined ? 0 : this.#deps.ledger.sentDuring(before.at, after.at + 1, id).length;
    } catch (err) {
      this.#deps.logger.warn({ err, intentId: id }, "could not check purchases sent meanwhile");
      return;
    }
    const measurement = measureFromBalances({
      currency: currencyOf(intent.paymentMethod),
      before,
      after,
      source: pending.asked ? "balance_after" : "later_balance",
      othersSent,
      now,
    });
    if (measurement.kind === "not_yet") return;
    this.#pending.delete(id);
    this.#record(id, measurement.cost);
  }

  #giveUp(id: string, pending: Pending): void {
    this.#pending.delete(id);
    this.#record(id, {
      measured: false,
      currency: currencyOf(pending.intent.paymentMethod),
      reason: "no_reading_after",
      at: this.#deps.clock(),
    });
  }

  #record(id: string, cost: PurchaseCost): void {
    try {
      this.#deps.accounts.recordCost(id, cost);
      this.#deps.logger.info(
        cost.measured
          ? { intentId: id, cost: cost.amount, currency: cost.currency, source: cost.source }
          : { intentId: id, unmeasured: cost.reason },
        "purchase cost recorded",
      );
    } catch (err) {
      this.#deps.logger.warn({ err, intentId: id }, "could not record a purchase cost");
    }
  }

  #track(id: string, work: Promise<unknown>): void {
    const tracked = work
      .catch((err: unknown) => this.#deps.logger.warn({ err }, "cost measurement failed"))
      .finally(() => {
        this.#work.delete(tracked);
        if (this.#underWay.get(id) === tracked) this.#underWay.delete(id);
      });
    this.#work.add(tracked);
    this.#underWay.set(id, tracked);
  }
}
