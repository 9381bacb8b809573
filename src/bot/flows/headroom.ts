/**
 * What a person may still buy, said before they are asked anything: purchases paused or on
 * hold, and each spending limit's remainder, read from the ledger the claim will check. The
 * claim at Confirm still decides (things may change in between); this only keeps a person
 * from walking through a flow that the claim would refuse at its end.
 */
import { MAX_STARS, MIN_STARS } from "../../gifts/catalogue.js";
import { type Headroom, headroom } from "../../ledger/limits.js";
import type { IntentKind } from "../../ledger/types.js";
import type { DeskStatus } from "../../purchases/types.js";
import type { Translate } from "../context.js";
import { formatDateTime } from "../format.js";
import type { BotServices } from "../services.js";

/** What is left today for this person of `kind`, as the claim would count it. */
export function personHeadroom(services: BotServices, userId: number, kind: IntentKind): Headroom {
  const limits = services.records.limits();
  const exempt = limits.adminsExempt && services.admins.has(userId);
  return headroom(kind, limits, services.records.usageToday(userId), exempt);
}

/** The most stars this person may ask for now: the service's range, within every limit. */
export function starsCeiling(room: Headroom): number {
  return Math.min(MAX_STARS, room.left);
}

/** The smallest gift of `kind` (stars have a minimum amount; Premium is one gift). */
function smallest(kind: IntentKind): number {
  return kind === "stars" ? MIN_STARS : 1;
}

/**
 * Why purchases cannot be confirmed by anyone right now, as a line; none when they can. At a
 * flow's start the flow does not begin; under a summary (or its refused Confirm) the summary
 * stays, to be confirmed once purchases reopen.
 */
export function closedText(
  t: Translate,
  status: DeskStatus,
  where: "start" | "summary",
): string | undefined {
  if (status.paused) return t(where === "start" ? "flow-paused" : "summary-paused");
  // On hold for an unknown outcome: a flow still starts (an admin usually settles it soon, and
  // the summary then stays confirmable); the summary and Confirm say why it waits.
  if (status.unconfirmed > 0 && where === "summary") return t("summary-frozen");
  return undefined;
}

/**
 * Why this person cannot start a gift of `kind` now (purchases paused or on hold, or too
 * little left of a limit for the smallest gift), in their language; none when they can.
 */
export function startProblem(
  t: Translate,
  locale: string,
  services: BotServices,
  userId: number,
  kind: IntentKind,
): string | undefined {
  const closed = closedText(t, services.records.status(), "start");
  if (closed !== undefined) return closed;
  const room = personHeadroom(services, userId, kind);
  if (room.left >= smallest(kind)) return undefined;
  return t("flow-limit-reached", {
    limit: t(`limit-${room.limit}`),
    left: room.left,
    max: room.max,
    resetsAt: formatDateTime(locale, services.records.usageToday(userId).resetsAt),
  });
}
