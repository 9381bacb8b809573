/**
 * The one waiting rule of every retry in the bot (an outcome write, an unrecorded outcome, an admin
 * message Telegram did not take, connecting to Telegram): the first pause, doubling each
 * time, never longer than the longest.
 */
export interface Backoff {
  firstDelayMs: number;
  maxDelayMs: number;
}

/** The pause after the `attempt`-th failure (counting from 1). */
export function backoffDelay(backoff: Backoff, attempt: number): number {
  return Math.min(backoff.maxDelayMs, backoff.firstDelayMs * 2 ** (attempt - 1));
}
