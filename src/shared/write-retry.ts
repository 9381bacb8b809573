/**
 * Retrying a write the database refused, when it must land. An outcome is written after its
 * request has left: if that write fails (the database locked by another process beyond its busy
 * timeout, the disk full, an I/O error), giving up would leave the intent `sending` with its
 * answer lost. Such failures are usually brief, so the write is tried again with a bounded,
 * growing pause; the caller decides what to do if it still fails (tell the admins, keep trying).
 * Shared by the desk (src/purchases) and the key-value store: only the store knows which of its
 * errors pass (`isTransient`).
 */
import { backoffDelay } from "./backoff.js";

export interface WriteRetryPolicy {
  /** Tries in all, the first included (at least 1). */
  attempts: number;
  /** The pause after the first failure; each next pause doubles, up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** Waits `ms`; tests pass a fake that releases the fault instead of sleeping. */
  sleep?: (ms: number) => Promise<void>;
  /** Told about each failed try that will be tried again, with the pause before the next. */
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
}

/** About 3 s in all before the caller hears of the failure: 6 tries, 100 ms doubling to 1.6 s. */
export const OUTCOME_WRITE_RETRY: Readonly<Omit<WriteRetryPolicy, "sleep" | "onRetry">> = {
  attempts: 6,
  firstDelayMs: 100,
  maxDelayMs: 1_600,
};

/**
 * Runs `write` until it succeeds, throws an error `isTransient` says will not pass (the ledger's
 * `isTransientWriteError`: only the store knows its driver's errors), or `policy.attempts` tries
 * have failed; then the last error is thrown. Each try must be one whole write that rolls back
 * when it fails, so a retry never applies half a write.
 */
export async function retryWrite<T>(
  write: () => Promise<T>,
  policy: WriteRetryPolicy,
  isTransient: (error: unknown) => boolean,
): Promise<T> {
  const sleep = policy.sleep ?? defaultSleep;
  const attempts = Math.max(1, Math.trunc(policy.attempts));
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= attempts || !isTransient(error)) throw error;
      const delayMs = backoffDelay(policy, attempt);
      policy.onRetry?.(error, attempt, delayMs);
      await sleep(delayMs);
    }
  }
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
