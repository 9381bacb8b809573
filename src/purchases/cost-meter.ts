/**
 * Measures what each delivered purchase cost, without a request of its own. The meter never
 * reads the wallet: it listens to the desk's balance reads (the `balanceRead` event), among them the
 * desk's one "balance after purchase" read, made only when the service's quota is idle
 * (`#readBalanceAfterPurchase` in ./desk.ts). When the quota is in demand there is no such read,
 * and the next balance read the desk makes anyway (for a summary, say) serves, as long as no
 * other purchase went out in between. The cost is the difference from the reading just before
 * the claim (src/costs/measure.ts); when it cannot be certain, the accounts say why instead of a
 * figure. With TON_API_ENDPOINT, the purchase's own transfer on chain is asked first.
 *
 * Pending measurements live in memory: a restart forgets them and those purchases simply keep
 * no cost. Everything here is evidence, never a purchase rule: a failure is logged, nothing more.
 */
import { currencyOf } from "../costs/money.js";
import { measureFromBalances, type Reading } from "../costs/measure.js";
import type { PurchaseCost } from "../costs/types.js";
import type { PurchaseAccounts } from "../ledger/accounts.js";
import type { BalanceSnapshot, OutWindow, PurchaseIntent } from "../ledger/types.js";
import type { Logger } from "../shared/logger.js";
import { costFromChain, type OnChainEvidence } from "./on-chain.js";

export interface CostMeterDeps {
  ledger: {
    /** When each intent out between `from` and `to` (not rejected) was sent and finished. */
    outBetween(from: number, to: number): Promise<OutWindow[]>;
  };
  accounts: PurchaseAccounts;
  onChain?: OnChainEvidence | undefined;
  clock: () => number;
  logger: Logger;
  /** How long a purchase waits for a reading after it before it is recorded unmeasured. */
  waitForReadingMs?: number;
}

interface Pending {
  intent: PurchaseIntent;
  /** Other purchases its reading before is known to show (finished before it was read). */
  inBefore: ReadonlySet<string>;
  /** Whether the desk read the balance right after this delivery (then `balance_after`). */
  asked: boolean;
  until: number;
  /** The chain is being asked: readings wait for its answer instead of being judged. */
  onChain: boolean;
  /** The latest reading after the purchase that came while the chain was asked. */
  lastReading?: Reading | undefined;
}

/**
 * How many purchases other than one (and those its reading before shows) were out from `from`
 * until the reading this counter was made for: one read of the ledger serves every purchase
 * judged against that reading.
 */
type OthersSent = (id: string, from: number, inBefore: ReadonlySet<string>) => number;

/** The reading before a purchase, when its draft or claim had one with its time. */
function readingBefore(
  intent: PurchaseIntent,
): { balance: BalanceSnapshot; at: number } | undefined {
  return intent.balanceBefore !== undefined && intent.balanceBeforeAt !== undefined
    ? { balance: intent.balanceBefore, at: intent.balanceBeforeAt }
    : undefined;
}

/** At most this many purchases wait for a reading; the oldest gives up first. */
const MAX_PENDING = 1_000;

export class CostMeter {
  readonly #deps: CostMeterDeps;
  readonly #pending = new Map<string, Pending>();
  readonly #work = new Set<Promise<unknown>>();
  /** Measurements under way per purchase (the chain, the desk's read after it). */
  readonly #underWay = new Map<string, Promise<unknown>>();

  constructor(deps: CostMeterDeps) {
    this.#deps = deps;
  }

  /**
   * A purchase was delivered (`succeeded`): measure its cost, from the chain or a reading.
   * `inBefore`: other purchases its reading before is known to show (the desk's cached reading
   * started after they finished), so none of them counts as going out in between, even one
   * that ended in the very millisecond that reading started.
   */
  delivered(intent: PurchaseIntent, inBefore: readonly string[] = []): void {
    if (intent.status !== "succeeded") return;
    if (this.#pending.size >= MAX_PENDING) {
      const [oldestId, oldest] = this.#pending.entries().next().value ?? [];
      if (oldestId !== undefined && oldest !== undefined) this.#giveUp(oldestId, oldest);
    }
    const onChain = this.#deps.onChain;
    this.#pending.set(intent.id, {
      intent,
      inBefore: new Set(inBefore),
      asked: false,
      until: this.#deps.clock() + (this.#deps.waitForReadingMs ?? 10 * 60_000),
      onChain: onChain !== undefined,
    });
    if (onChain === undefined) return;
    const othersSent = async (from: number, to: number) =>
      (await this.#deps.ledger.outBetween(from, to)).filter((out) => out.id !== intent.id).length;
    const now = this.#deps.clock();
    const fromChain = costFromChain(onChain, intent, now, othersSent).catch((err: unknown) => {
      this.#deps.logger.warn({ err, intentId: intent.id }, "no cost from the chain");
      return undefined;
    });
    this.#track(
      intent.id,
      fromChain.then((cost) => this.#chainAnswered(intent.id, cost)),
    );
  }

  /**
   * The desk has started its one balance read after these purchases (`read` settles once its
   * listeners, this meter among them, have heard the reading). Their costs come from it, so
   * {@link settled} waits for it.
   */
  readingAfter(ids: readonly string[], read: Promise<unknown>): void {
    for (const id of ids) {
      const pending = this.#pending.get(id);
      if (pending === undefined) continue;
      pending.asked = true;
      this.#track(id, read);
    }
  }

  /**
   * Resolves when the measurement under way for `id` ends, or after `waitMs` at most. One step
   * starts the next (the reading starts the judgement, which starts the write), so this waits
   * until no step is left: the store answers later, so the judgement is still reading the
   * ledger when the reading's own step has ended.
   */
  async settled(id: string, waitMs: number): Promise<void> {
    const deadline = performance.now() + waitMs;
    for (let work = this.#underWay.get(id); work !== undefined; work = this.#underWay.get(id)) {
      const left = deadline - performance.now();
      if (left <= 0 || !(await within(work, left))) return;
    }
  }

  /** Whether a measurement of `id` is under way (the chain asked, or the desk's read after it). */
  measuring(id: string): boolean {
    return this.#underWay.has(id);
  }

  /**
   * Every good balance read the desk makes, with when it started: kept in the accounts (the daily
   * report's start and end of day), and used as the reading after for pending purchases.
   */
  observe(reading: Reading): void {
    const kept = (async () => this.#deps.accounts.recordBalance(reading))().catch((err: unknown) =>
      this.#deps.logger.warn({ err }, "could not record a balance reading"),
    );
    this.#trackWork(kept);
    const now = this.#deps.clock();
    const due: [string, Pending][] = [];
    for (const [id, pending] of this.#pending) {
      if (pending.until <= now) {
        this.#giveUp(id, pending);
        continue;
      }
      // A read started before the answer may not show this purchase's transfer.
      if (reading.at < (pending.intent.finishedAt ?? now)) continue;
      if (pending.onChain) pending.lastReading = reading;
      else due.push([id, pending]);
    }
    if (due.length === 0) return;
    this.#judgeAll(due, reading, now);
  }

  /** Judges `due` against the reading after, once the ledger says what else was out meanwhile. */
  #judgeAll(due: [string, Pending][], after: Reading, now: number): void {
    const judged = this.#othersSent(after, due).then((othersSent) => {
      for (const [id, pending] of due) {
        // Judged meanwhile by another reading, or given up.
        if (this.#pending.get(id) !== pending) continue;
        this.#judge(id, pending, after, now, othersSent);
      }
    });
    for (const [id] of due) this.#track(id, judged);
  }

  /**
   * Resolves when every measurement started so far has finished, or after `waitMs` at most
   * (a stop: a chain lookup can take a page timeout for each of its pages, and a cost is only
   * evidence). Resolves to whether everything finished.
   */
  async idle(waitMs = Infinity): Promise<boolean> {
    const all = (async () => {
      while (this.#work.size > 0) await Promise.all([...this.#work]);
    })();
    return within(all, waitMs);
  }

  /** How many purchases wait for a reading (for tests and metrics). */
  get pendingCount(): number {
    return this.#pending.size;
  }

  /** The chain's answer: its figure, else the reading kept meanwhile (or a later one). */
  #chainAnswered(id: string, cost: PurchaseCost | undefined): void {
    const pending = this.#pending.get(id);
    if (pending === undefined) return;
    if (cost !== undefined) {
      this.#pending.delete(id);
      this.#record(id, cost);
      return;
    }
    pending.onChain = false;
    const reading = pending.lastReading;
    pending.lastReading = undefined;
    if (reading === undefined) return;
    this.#judgeAll([[id, pending]], reading, this.#deps.clock());
  }

  /**
   * One read of the ledger for every purchase judged against `after`: the purchases out from
   * the earliest of their readings before until the reading after, included (a purchase sent
   * in the reading's millisecond may have gone out before it). Undefined when the ledger
   * cannot be read: nothing is judged then, and a later reading tries again.
   *
   * A purchase that finished in the very millisecond a reading started may or may not be in it,
   * so it counts, unless the purchase's reading before is known to show it (`inBefore`): a
   * giveaway's next recipient is read before right after the last one finished.
   */
  async #othersSent(
    after: Reading,
    due: readonly [string, Pending][],
  ): Promise<OthersSent | undefined> {
    const froms = due.flatMap(([, pending]) => readingBefore(pending.intent)?.at ?? []);
    if (froms.length === 0) return () => 0;
    let out: OutWindow[];
    try {
      out = await this.#deps.ledger.outBetween(Math.min(...froms), after.at + 1);
    } catch (err) {
      this.#deps.logger.warn({ err }, "could not check purchases sent meanwhile");
      return undefined;
    }
    return (id, from, inBefore) =>
      out.filter(
        (o) =>
          o.id !== id &&
          !inBefore.has(o.id) &&
          (o.finishedAt === undefined || o.finishedAt >= from),
      ).length;
  }

  #judge(
    id: string,
    pending: Pending,
    after: Reading,
    now: number,
    othersSentFor: OthersSent | undefined,
  ): void {
    if (othersSentFor === undefined) return;
    const { intent } = pending;
    const before = readingBefore(intent);
    const measurement = measureFromBalances({
      currency: currencyOf(intent.paymentMethod),
      before,
      after,
      source: pending.asked ? "balance_after" : "later_balance",
      othersSent: before === undefined ? 0 : othersSentFor(id, before.at, pending.inBefore),
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
    this.#track(id, this.#write(id, cost));
  }

  async #write(id: string, cost: PurchaseCost): Promise<void> {
    try {
      await this.#deps.accounts.recordCost(id, cost);
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

  /** Keeps `work` for {@link idle} only (no purchase's cost waits for it). */
  #trackWork(work: Promise<unknown>): void {
    const tracked: Promise<unknown> = work.finally(() => this.#work.delete(tracked));
    this.#work.add(tracked);
  }

  /** Keeps `work` for {@link idle}, and for {@link settled} of `id` (with what was under way). */
  #track(id: string, work: Promise<unknown>): void {
    const earlier = this.#underWay.get(id);
    const tracked: Promise<unknown> = Promise.all([earlier, work])
      .catch((err: unknown) => this.#deps.logger.warn({ err }, "cost measurement failed"))
      .finally(() => {
        this.#work.delete(tracked);
        if (this.#underWay.get(id) === tracked) this.#underWay.delete(id);
      });
    this.#work.add(tracked);
    this.#underWay.set(id, tracked);
  }
}

/** Waits for `work`, at most `waitMs`; whether it finished in time. */
async function within(work: Promise<unknown>, waitMs: number): Promise<boolean> {
  if (waitMs === Infinity) {
    await work;
    return true;
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), waitMs);
    timer.unref();
  });
  const finished = await Promise.race([work.then(() => true as const), timeout]);
  clearTimeout(timer);
  return finished;
}
