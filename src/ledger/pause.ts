/**
 * Why purchases are paused, as the pause switch keeps it beside itself (JSON
 * `{ source, detail }`, src/storage/ledger/pause-switch.ts).
 */
import type { PauseReason } from "./types.js";

/** A pause from before reasons were kept, or one whose reason cannot be read: an admin's. */
export function pauseReasonOf(stored: string | undefined): PauseReason {
  if (stored === undefined) return { source: "admin", detail: undefined };
  try {
    const parsed = JSON.parse(stored) as { source?: unknown; detail?: unknown };
    return parsed.source === "breaker"
      ? { source: "breaker", detail: parsed.detail }
      : { source: "admin", detail: undefined };
  } catch {
    return { source: "admin", detail: undefined };
  }
}
