/**
 * What a person may still buy, said before they are asked anything: purchases paused or on
 * hold, and each spending limit's remainder, read from the ledger the claim will check. The
 * claim at Confirm still decides (things may change in between); this only keeps a person
 * from walking through a flow that the claim would refuse at its end.
 */
import { MAX_STARS, MIN_STARS } from "../../gifts/catalogue.js";
import type { Headroom } from "../../ledger/limits.js";
import type { IntentKind } from "../../ledger/types.js";
import type { DeskStatus } from "../../purchases/types.js";
import type { Translate } from "../context.js";
import { formatDateTime } from "../format.js";
import type { BotServices } from "../services.js";

/** What is left today for this person of `kind`, as the claim would count it. */
export async function personHeadroom(
  services: BotServices,
  userId: number,
  kind: IntentKind,
): Promise<Headroom> {
  return services.records.headroom(userId, kind, services.admins.has(userId));
}

/** The most stars this person may ask for now: the service's range, within every limit. */
export function starsCeiling(room: Headroom): number {
  return Math.min(MAX_STARS, room.left);
}

/** The smallest gift of `kind` (stars have a minimum amount; Premium is one gift). */
function smallest(kind: IntentKind): number {
  return kind === "stars" ? MIN_STARS : 1;
}

/** Whether purchases are open now, and who paused them: what {@link closedText} says. */
export type PurchasesState = DeskStatus;

/**
 * Whether purchases are open, read from the ledger. Plain data, so a conversation can keep it
 * in its replay log.
 */
export function purchasesState(services: BotServices): Promise<PurchasesState> {
  return services.records.status();
}

/**
 * Why purchases cannot be confirmed by anyone right now, as a line; none when they can.
 *
 * At a flow's start (`"start"`) only an admin's pause stops the flow: the admins chose it and
 * nobody knows for how long. A pause by the breaker (the service refused the last purchases)
 * and a hold for an unknown outcome are the admins' to clear, usually soon (the breaker's alert
 * has a Resume button): a flow still starts, its first prompt says why Confirm will wait
 * ({@link flowNotice}), and the summary says it again. Under a summary (`"summary"`, and its
 * refused Confirm) the summary stays, to be confirmed once purchases reopen.
 */
export function closedText(
  t: Translate,
  state: PurchasesState,
  where: "start" | "summary",
): string | undefined {
  if (where === "start") {
    return state.paused && state.pausedBy !== "breaker" ? t("flow-paused") : undefined;
  }
  if (state.paused) {
    return t(state.pausedBy === "breaker" ? "summary-paused-breaker" : "summary-paused");
  }
  if (state.unconfirmed > 0) return t("summary-frozen");
  return undefined;
}

/**
 * What a flow that starts while purchases wait says first, in its first prompt: paused by the
 * breaker, or on hold for an unknown outcome (see {@link closedText}); none when they are open.
 */
export function flowNotice(t: Translate, state: PurchasesState): string | undefined {
  if (state.paused && state.pausedBy === "breaker") return t("flow-notice-paused-breaker");
  if (!state.paused && state.unconfirmed > 0) return t("flow-notice-frozen");
  return undefined;
}

/** A prompt with the flow's notice (if any) above it. */
export function withNotice(notice: string | undefined, prompt: string): string {
  return notice === undefined ? prompt : `${notice}\n\n${prompt}`;
}

/**
 * Why this person cannot start a gift of `kind` now (purchases paused by an admin, or too
 * little left of a limit for the smallest gift), in their language; none when they can. In a
 * group the figures of the limit are not said (the whole group reads it), as at Confirm.
 */
export async function startProblem(
  t: Translate,
  locale: string,
  services: BotServices,
  who: { userId: number; audience: "private" | "group" },
  kind: IntentKind,
): Promise<string | undefined> {
  const closed = closedText(t, await purchasesState(services), "start");
  if (closed !== undefined) return closed;
  const room = await personHeadroom(services, who.userId, kind);
  if (room.left >= smallest(kind)) return undefined;
  return limitReachedText(t, locale, services, who, room);
}

/** Which limit leaves too little for the smallest gift, and when it resets. */
export async function limitReachedText(
  t: Translate,
  locale: string,
  services: BotServices,
  who: { userId: number; audience: "private" | "group" },
  room: Headroom,
): Promise<string> {
  const limit = t(`limit-${room.limit}`);
  const resetsAt = formatDateTime(locale, (await services.records.usageToday(who.userId)).resetsAt);
  return who.audience === "group"
    ? t("group-limit-reached", { limit, resetsAt })
    : t("flow-limit-reached", { limit, left: room.left, max: room.max, resetsAt });
}
