/** The ledger's door for gifts through Telegram proved by the bot's Star transactions (issue #39). */
/**
 * Unknown outcomes of gifts the bot paid through Telegram, settled from Telegram's own books
 * (src/stars: the bot's Star transactions) rather than by an admin.
 */
export interface ProofSettlement<Intent> {
  /**
   * unconfirmed → delivered with no admin as actor, `proof` (JSON: the matching Star
   * transaction and the balances read) kept beside the answer that left it unknown. Undefined
   * when it is no longer unconfirmed (an admin settled it first).
   */
  settleByProof(
    id: string,
    proof: unknown,
    detail: string,
    now?: number,
  ): Promise<{ intent: Intent; unconfirmedLeft: number } | undefined>;
  /**
   * Keeps what a search for proof looked at (JSON) on an intent still unconfirmed, for the
   * admin who settles it; the intent itself is unchanged. False when no longer unconfirmed.
   */
  noteSearch(id: string, search: unknown, now?: number): Promise<boolean>;
}

/**
 * The answer that left an intent unknown, with what settles it (`proof`) or what was looked at
 * (`search`) kept beside it: the first such note wraps the answer as `{ answer, … }`.
 */
export function withEvidence(
  response: unknown,
  field: "proof" | "search",
  value: unknown,
): Record<string, unknown> {
  const base =
    typeof response === "object" && response !== null && "answer" in response
      ? (response as Record<string, unknown>)
      : { answer: response ?? null };
  return { ...base, [field]: value };
}
