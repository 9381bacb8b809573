/**
 * setTimeout's largest delay (a signed 32-bit millisecond count). Node turns anything larger into
 * 1 ms: a long wait would become a busy loop, a long deadline an instant timeout. Every timer of
 * the client is clamped to this.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;
