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
import type { LedgerOptions } from "../types.js";
import { LedgerClaims } from "./claims.js";
import { LedgerCore } from "./core.js";
import { LedgerDrafts } from "./drafts.js";
import { LedgerOutcomes } from "./outcomes.js";
import { LedgerPauseSwitch } from "./pause-switch.js";
import { LedgerQueriesOn } from "./queries.js";

export function openLedger(db: Database, options: LedgerOptions = {}): PurchaseLedger {
  let limits: Readonly<SpendingLimits> = Object.freeze({ ...DEFAULT_LIMITS, ...options.limits });
  const draftTtlMs = options.draftTtlMs ?? DEFAULT_DRAFT_TTL_MS;
  const core = new LedgerCore(db, options.clock ?? Date.now);
  const queries = new LedgerQueriesOn(core);
  const pause = new LedgerPauseSwitch(core);
  const drafts = new LedgerDrafts(core, draftTtlMs);
  const claims = new LedgerClaims({ core, pause, queries, limits: () => limits });
  const outcomes = new LedgerOutcomes(core, queries, (tx) => claims.holdsLease(tx));
  // Each piece's methods are its own properties (arrow functions bound to it): spread, they
  // make up the whole.
  return {
    ...queries,
    ...pause,
    ...drafts,
    ...outcomes,
    ...claims,
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
