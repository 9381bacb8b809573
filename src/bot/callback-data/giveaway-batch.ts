/**
 * The buttons of a giveaway being sent (its progress message; admins only): Pause, Resume and
 * Cancel. Untrusted like all callback data; the handler also checks that the batch exists and
 * what state it is in.
 * - `gsend:<pause|resume|cancel>:<batch id>` (12 characters of base64url)
 */

/** Routes every press with this prefix, well-formed or not, to the batch handler. */
export const GIVEAWAY_BATCH_DATA = /^gsend:/;

const BATCH_ID_PATTERN = /^[A-Za-z0-9_-]{12}$/;

type BatchPressType = "pause" | "resume" | "cancel";

export interface BatchAction {
  type: BatchPressType;
  batchId: string;
}

const TYPES: ReadonlySet<string> = new Set<BatchPressType>(["pause", "resume", "cancel"]);

export function encodeBatchAction(action: BatchAction): string {
  return `gsend:${action.type}:${action.batchId}`;
}

export function decodeBatchAction(data: string): BatchAction | undefined {
  const parts = data.split(":");
  if (parts.length !== 3 || parts[0] !== "gsend") return undefined;
  const [, type = "", batchId = ""] = parts;
  if (!TYPES.has(type) || !BATCH_ID_PATTERN.test(batchId)) return undefined;
  return { type: type as BatchPressType, batchId };
}
