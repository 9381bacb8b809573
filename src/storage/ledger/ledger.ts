/**
 * The purchase ledger, assembled from its pieces over the database port: drafts, the claim,
 * outcomes, the pause switch and the queries. It alone decides whether a purchase request may be
 * sent, with one claim statement (./claims.ts), so that any number of concurrent or repeated
 * confirmations (promises, connections, processes, replicas) send at most one request. Every
 * decision is made inside the database, never in this object's memory.
 */
import { DEFAULT_DRAFT_TTL_MS, DEFAULT_LIMITS } from "../../ledger/limits.js";
import type { PurchaseLedger, SpendingLimits } from "../../ledger/types.js";
import type { Database } from "../db/port.js";
import { claimMoves } from "./claims.js";
import { LedgerCore } from "./core.js";
import { draftMoves } from "./drafts.js";
import { outcomeMoves } from "./outcomes.js";
import { pauseSwitch } from "./pause-switch.js";
import { ledgerQueries } from "./queries.js";

export interface LedgerOptions {
  /** Missing members take {@link DEFAULT_LIMITS}. */
  limits?: Partial<SpendingLimits> | undefined;
  /** How long a draft (a summary shown) stays confirmable. */
  draftTtlMs?: number | undefined;
  /** Milliseconds since the epoch; tests move time without sleeping. */
  clock?: (() => number) | undefined;
}

export function openLedger(db: Database, options: LedgerOptions = {}): PurchaseLedger {
  let limits: Readonly<SpendingLimits> = Object.freeze({ ...DEFAULT_LIMITS, ...options.limits });
  const draftTtlMs = options.draftTtlMs ?? DEFAULT_DRAFT_TTL_MS;
  const core = new LedgerCore(db, options.clock ?? Date.now);
  const queries = ledgerQueries(core);
  const pause = pauseSwitch(core);
  return {
    ...queries,
    ...pause,
    ...draftMoves(core, draftTtlMs),
    ...outcomeMoves(core, queries),
    ...claimMoves({ core, pause, queries, limits: () => limits }),
    get: (id) => core.get(id),
    get limits() {
      return limits;
    },
    setLimits(next) {
      limits = Object.freeze({ ...next });
    },
    draftTtlMs,
    now: () => core.clock(),
    isTransientWriteError: (error) => db.isTransient(error),
  };
}
