/**
 * Settling an unknown outcome of a gift the bot paid through Telegram from Telegram's own books
 * (issue #39): the desk found the gift among the bot's Star transactions (src/stars), so the
 * intent is delivered with that transaction kept as the proof, no admin needed; or it found
 * none, and what it looked at is kept for the admin who settles it. Passes the ledger gate, as
 * every move out of `unconfirmed` does (it reopens purchases).
 */
import type { PurchaseIntent, PurchaseLedger } from "../../ledger/types.js";
import type { LedgerCore } from "./core.js";
import type { LedgerQueryRows } from "./queries.js";

type ProofMoves = Pick<PurchaseLedger, "settleByProof" | "noteSearch">;

/** The answer that left the intent unknown, and what settles or was looked at beside it. */
function withEvidence(intent: PurchaseIntent, field: "proof" | "search", value: unknown): unknown {
  const kept = intent.response;
  const base =
    typeof kept === "object" && kept !== null && "answer" in kept
      ? (kept as Record<string, unknown>)
      : { answer: kept ?? null };
  return { ...base, [field]: value };
}

export class LedgerStarProof implements ProofMoves {
  readonly #core: LedgerCore;
  readonly #queries: LedgerQueryRows;

  constructor(core: LedgerCore, queries: LedgerQueryRows) {
    this.#core = core;
    this.#queries = queries;
  }

  settleByProof = (
    id: string,
    proof: unknown,
    detail: string,
    now = this.#core.clock(),
  ): Promise<{ intent: PurchaseIntent; unconfirmedLeft: number } | undefined> => {
    const core = this.#core;
    return core.db.gated(async (tx) => {
      const current = await core.get(id, tx, true);
      if (current?.status !== "unconfirmed") return undefined;
      const patch = {
        response: withEvidence(current, "proof", proof),
        outcomeDetail: detail,
        resolvedAt: now,
      };
      const intent = await core.move(tx, current, "delivered", now, patch, null);
      return { intent, unconfirmedLeft: await this.#queries.unconfirmedCount(tx) };
    });
  };

  noteSearch = (id: string, search: unknown, now = this.#core.clock()): Promise<boolean> => {
    const core = this.#core;
    return core.db.transaction(async (tx) => {
      const current = await core.get(id, tx, true);
      if (current?.status !== "unconfirmed") return false;
      const changed = await tx.run(
        `UPDATE purchase_intents SET response = @response, updated_at = @now
         WHERE id = @id AND status = 'unconfirmed'`,
        { id, now, response: JSON.stringify(withEvidence(current, "search", search)) },
      );
      return changed === 1;
    });
  };
}
