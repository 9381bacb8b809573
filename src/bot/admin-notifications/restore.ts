/**
 * What the admins are told at the first start after a restore from a backup
 * (src/ledger/restore.ts): when the backup was taken, each giveaway it stopped for good and how
 * many of its recipients were not sent, how many open summaries expired, and how many purchases
 * became unknown (each of those also comes on its own, with the resolve buttons).
 */
import type { RestoreNotice } from "../../ledger/types.js";
import type { Translate } from "../context.js";
import { formatDateTime } from "../format.js";
import { giftName } from "../purchase-views.js";
import type { AdminNotifier } from "./index.js";

/**
 * Tells every admin of `notice`; `onTold` runs once, when the first admin has it (the app then
 * forgets the notice, so that the next start does not tell it again).
 */
export function announceRestore(
  notifier: Pick<AdminNotifier, "tell">,
  notice: RestoreNotice,
  onTold: () => void,
): void {
  let told = false;
  notifier.tell(
    (t, locale) => ({ text: restoredText(t, locale, notice) }),
    () => {
      if (told) return;
      told = true;
      onTold();
    },
  );
}

function restoredText(t: Translate, locale: string, notice: RestoreNotice): string {
  const taken = notice.backupTakenAt === undefined ? undefined : Date.parse(notice.backupTakenAt);
  const lines = [
    taken === undefined || Number.isNaN(taken)
      ? t("admin-restored-title-untimed")
      : t("admin-restored-title", { taken: formatDateTime(locale, taken) }),
    t("admin-restored-intro"),
    ...notice.stoppedBatches.map((batch) =>
      t("admin-restored-batch", {
        gift: giftName(t, batch),
        started: formatDateTime(locale, batch.createdAt),
        unsent: batch.unsent,
      }),
    ),
  ];
  if (notice.expiredSummaries > 0) {
    lines.push(t("admin-restored-summaries", { count: notice.expiredSummaries }));
  }
  if (notice.unknown > 0) lines.push(t("admin-restored-unknown", { count: notice.unknown }));
  if (lines.length === 2) lines.push(t("admin-restored-nothing"));
  return lines.join("\n");
}
