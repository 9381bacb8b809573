/**
 * The fair-share part of /balance: how full the service's quota queue is, and who is being
 * slowed down (by id, with the name the bot last saw), so admins can act (e.g. /deny a person
 * who floods the bot). Shown
 * only when there is something to see: requests waiting, a hold after a 429/503, or someone
 * slowed down; a quiet bot's /balance stays as short as before.
 */
import type { ThrottledPerson } from "../../../purchases/check-allowance.js";
import type { FairShareStatus } from "../../../purchases/types.js";
import type { Translate } from "../../context.js";
import { formatDateTime } from "../../format.js";
import type { NameLookup } from "../../people.js";

/** The section, with a blank line before it; empty when all is quiet. */
export function fairShareSection(
  t: Translate,
  locale: string,
  status: FairShareStatus,
  floods: readonly ThrottledPerson[],
  names: NameLookup = () => undefined,
): string {
  const quota = status.quota;
  const waiting =
    quota !== undefined &&
    (Object.values(quota.queued).some((queued) => queued > 0) || quota.retryWaitMs > 0);
  if (!waiting && status.throttledChecks.length === 0 && floods.length === 0) return "";
  return `\n\n${fairShareLines(t, locale, status, floods, names).join("\n")}`;
}

/** Every line of the section (the quota, then who is slowed down). */
function fairShareLines(
  t: Translate,
  locale: string,
  status: FairShareStatus,
  floods: readonly ThrottledPerson[],
  names: NameLookup = () => undefined,
): string[] {
  const lines = [t("admin-quota-title")];
  const { quota } = status;
  if (quota !== undefined) {
    lines.push(t("admin-quota-used", { used: quota.usedSlots, limit: quota.limit }));
    lines.push(
      t("admin-quota-queued", {
        // A giveaway's recipient waiting (bulk) is a purchase waiting too.
        purchases: quota.queued.purchase + quota.queued.bulk,
        shared: quota.queued.shared_read,
        reads: quota.queued.read,
      }),
    );
    if (quota.retryWaitMs > 0) {
      lines.push(t("admin-quota-retry-wait", { seconds: Math.ceil(quota.retryWaitMs / 1000) }));
    }
    if (quota.topOwners.length > 0) {
      const owners = quota.topOwners.map((o) => `${String(o.owner)}: ${o.queued}`).join(", ");
      lines.push(t("admin-quota-top", { owners }));
    }
  }
  // "6000 (@sam, Jan 1, 2030, 12:05 UTC)": the id to /deny, the name when the bot knows it.
  const person = (p: ThrottledPerson) => {
    const until = formatDateTime(locale, p.until);
    const name = names(p.userId);
    return `${p.userId} (${name === undefined ? until : `${name}, ${until}`})`;
  };
  const people = (list: readonly ThrottledPerson[]) => list.map(person).join(", ");
  if (status.throttledChecks.length === 0 && floods.length === 0) {
    lines.push(t("admin-throttled-none"));
  }
  if (status.throttledChecks.length > 0) {
    lines.push(t("admin-throttled-checks", { people: people(status.throttledChecks) }));
  }
  if (floods.length > 0) lines.push(t("admin-throttled-updates", { people: people(floods) }));
  return lines;
}
