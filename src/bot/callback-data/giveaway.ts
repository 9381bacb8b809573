/**
 * A giveaway's buttons (/giveaway, admins only). Untrusted like all callback data; the handler
 * also checks that the giveaway exists, is in the right step and is the presser's own.
 * - `give:kind:<stars|premium>`   (the flow's first prompt: what every recipient gets)
 * - `give:stop:<id>`              (the progress message: stop checking the recipients)
 * - `give:ok:<id>`                (the checked list's card: Confirm)
 * - `give:no:<id>`                (the card: Cancel)
 * - `give:csv:<id>`               (the card: download the list as CSV)
 *
 * `<id>` is the giveaway's random id (12 characters of base64url), never a recipient's name.
 */
import type { GiftKind } from "../../gifts/catalogue.js";

/** Routes every press with this prefix, well-formed or not, to the giveaway handler. */
export const GIVEAWAY_DATA = /^give:/;

/** A giveaway's id: 9 random bytes in base64url. */
const GIVEAWAY_ID_PATTERN = /^[A-Za-z0-9_-]{12}$/;

/** What a button on a giveaway's messages (after its flow) does. */
export type GiveawayPressType = "stop" | "ok" | "no" | "csv";

export type GiveawayAction =
  { type: "kind"; kind: GiftKind } | { type: GiveawayPressType; giveawayId: string };

const PRESS_TYPES: ReadonlySet<string> = new Set<GiveawayPressType>(["stop", "ok", "no", "csv"]);

export function encodeGiveaway(action: GiveawayAction): string {
  return action.type === "kind"
    ? `give:kind:${action.kind}`
    : `give:${action.type}:${action.giveawayId}`;
}

export function decodeGiveaway(data: string): GiveawayAction | undefined {
  const parts = data.split(":");
  if (parts.length !== 3 || parts[0] !== "give") return undefined;
  const [, type = "", value = ""] = parts;
  if (type === "kind") {
    return value === "stars" || value === "premium" ? { type: "kind", kind: value } : undefined;
  }
  if (!PRESS_TYPES.has(type) || !GIVEAWAY_ID_PATTERN.test(value)) return undefined;
  return { type: type as GiveawayPressType, giveawayId: value };
}
