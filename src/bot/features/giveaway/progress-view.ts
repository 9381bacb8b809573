/**
 * The words of a giveaway's progress message: `Checking 37/120 ▓▓▓░░░░░░░ ~3 min left`. The
 * time left is the pace so far (the checks wait on the service's quota, which sets it)
 * carried over to what is left; nothing is said before the first check has come back.
 */
import type { Translate } from "../../context.js";
import { progressBar } from "./progress.js";

export interface CheckProgress {
  done: number;
  total: number;
  /** When the checks began and now, on one clock (ms). */
  startedAt: number;
  now: number;
}

/** The time the rest should take at the pace so far; undefined before the first check. */
export function timeLeftMs(progress: CheckProgress): number | undefined {
  if (progress.done <= 0) return undefined;
  const elapsed = Math.max(0, progress.now - progress.startedAt);
  return Math.round((elapsed / progress.done) * Math.max(0, progress.total - progress.done));
}

/** The progress message while the recipients are checked. */
export function checkingText(t: Translate, progress: CheckProgress): string {
  const line = t("giveaway-checking", {
    done: progress.done,
    total: progress.total,
    bar: progressBar(progress.done, progress.total),
  });
  const left = timeLeftMs(progress);
  if (left === undefined || progress.done >= progress.total) return line;
  return `${line} ${timeLeftText(t, left)}`;
}

/** "~3 minutes left", or "less than a minute left". */
export function timeLeftText(t: Translate, ms: number): string {
  const minutes = Math.round(ms / 60_000);
  return minutes < 1 ? t("giveaway-left-under-minute") : t("giveaway-left-minutes", { minutes });
}
