/**
 * The accounts' answers of `recentCosts`, remembered until a cost is recorded through the same
 * accounts: every summary asks for the same few estimates, and the costs change only when a
 * purchase is measured, which the one sending process does (README "How money is kept safe").
 * For a store of one process (SQLite); replicas on PostgreSQL, any of which may have recorded a
 * cost since, ask the database every time.
 */
import { parseMoney } from "../costs/money.js";
import type { PurchaseCost } from "../costs/types.js";
import type { CostSample, PurchaseAccounts } from "../ledger/accounts.js";

type CostQuery = Parameters<PurchaseAccounts["recentCosts"]>[0];

/** A remembered answer, with the newest cost time it holds. */
interface KnownCosts {
  query: CostQuery;
  samples: CostSample[];
  newestAt: number;
}

export class RecentCosts {
  readonly #known = new Map<string, KnownCosts>();
  /** Moves at every cost being recorded: an answer read across one is not remembered. */
  #generation = 0;

  /** A copy of the remembered answer, if any. */
  answer(query: CostQuery, limit: number): CostSample[] | undefined {
    return this.#known.get(keyOf(query, limit))?.samples.slice();
  }

  /** Called before reading an answer; hand the token to {@link remember}. */
  asking(): number {
    return this.#generation;
  }

  /** Remembers an answer unless a cost was being recorded while it was read. */
  remember(
    query: CostQuery & { limit: number },
    samples: CostSample[],
    newestAt: number,
    asked: number | undefined,
  ): void {
    if (asked !== this.#generation) return;
    this.#known.set(keyOf(query, query.limit), { query, samples: samples.slice(), newestAt });
  }

  /** Called before and after recording a cost. */
  recording(): void {
    this.#generation += 1;
  }

  /**
   * Puts a cost just recorded in front of the remembered answers it belongs to (they are newest
   * first); an answer it would not come first in is forgotten and read again when asked.
   */
  add(
    intent: { kind: "stars" | "premium"; quantity: number; payment_method: string },
    cost: Extract<PurchaseCost, { measured: true }>,
  ): void {
    const money = parseMoney(cost.currency, cost.amount);
    for (const [key, known] of this.#known) {
      const { query } = known;
      if (query.kind !== intent.kind || query.paymentMethod !== intent.payment_method) continue;
      if (query.quantity !== undefined && query.quantity !== intent.quantity) continue;
      if (money === undefined || cost.at < known.newestAt) {
        this.#known.delete(key);
        continue;
      }
      const sample = {
        kind: query.kind,
        quantity: intent.quantity,
        paymentMethod: query.paymentMethod,
        cost: money,
      };
      known.samples = [sample, ...known.samples].slice(0, query.limit);
      known.newestAt = cost.at;
    }
  }
}

function keyOf(query: CostQuery, limit: number): string {
  return JSON.stringify([query.kind, query.paymentMethod, query.quantity ?? null, limit]);
}
