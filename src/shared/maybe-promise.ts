/**
 * A value, or a promise of it: what the stores answer. The SQLite store answers at once (its
 * driver is synchronous), the PostgreSQL one with a promise; callers always `await`, so one
 * caller serves both, and the type checker refuses a caller that reads a result without it.
 * The same shape as grammY's storage adapters (`MaybePromise` in grammY's own types).
 */
export type MaybePromise<T> = T | Promise<T>;
