/**
 * What the ledger's contract tests share: outcomes, a fixture of two ledgers on one fresh
 * database of a store (`ledger`, and `other` as a second process or replica), and `attempt`,
 * which turns a throw into a rejection.
 */
import type {
  ClaimContext,
  ClaimResult,
  NewIntent,
  PurchaseIntent,
  PurchaseLedger,
} from "../../src/ledger/types.js";
import type { Ambiguous, PurchaseOutcome } from "../../src/service/types.js";
import type { Storage } from "../../src/storage/types.js";
import { starsDraft } from "../helpers/ledger.js";
import { openLedgers, type StoreUnderTest } from "./stores.js";

export const success: Extract<PurchaseOutcome, { kind: "success" }> = {
  kind: "success",
  value: { txHash: "abc123", data: { order: 7 } },
  body: { ok: true, tx_hash: "abc123", data: { order: 7 }, extra_field: "kept" },
};
export const rejected: PurchaseOutcome = {
  kind: "rejected",
  status: 400,
  body: { ok: false, error: "BAD_RECIPIENT", insufficient: false },
  detail: "BAD_RECIPIENT",
};
export const ambiguous: Ambiguous = {
  kind: "ambiguous",
  cause: "unconfirmed",
  status: 400,
  body: { ok: false, unconfirmed: true, transient: true, tx_hash: "def456" },
  txHash: "def456",
  detail: "the service marked the outcome unconfirmed",
};

export interface ContractFixture {
  ledger: PurchaseLedger;
  /** A second ledger on the same database (another process or replica). */
  other: PurchaseLedger;
  storages: [Storage, Storage];
  clock: { now: number };
  draft: (overrides?: Partial<NewIntent>) => Promise<PurchaseIntent>;
  /** SQL of the test's own on the database (rows as an older version left them). */
  sql: (statement: string) => Promise<void>;
}

export async function ledgerContract(
  store: StoreUnderTest,
  settings: Parameters<typeof openLedgers>[1] = {},
): Promise<ContractFixture> {
  const { a, b, storages, clock, sql } = await openLedgers(store, settings);
  return {
    ledger: a,
    other: b,
    storages,
    clock,
    sql,
    draft: async (overrides = {}) => a.createDraft({ ...starsDraft(), ...overrides }),
  };
}

/** Claims and, when the claim wins, records a success: one purchase done, none in flight. */
export async function buy(
  ledger: PurchaseLedger,
  id: string,
  userId: number,
  options?: ClaimContext,
): Promise<ClaimResult> {
  const claim = await ledger.claim(id, userId, undefined, options);
  if (claim.ok) await ledger.recordOutcome(id, success);
  return claim;
}

/** Runs `work` so that a synchronous throw becomes a rejected promise. */
export function attempt<T>(work: () => T | Promise<T>): Promise<T> {
  return (async () => work())();
}

/** A requester who is user `id` in their private chat. */
export const user = (id: number): Pick<NewIntent, "requester"> => ({
  requester: { userId: id, chatId: id, chatType: "private" },
});
