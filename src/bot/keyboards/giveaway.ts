/** A giveaway's first prompt: stars or Premium for every recipient, or Cancel. */
import { InlineKeyboard } from "grammy";
import { encodeFlow } from "../callback-data/flow.js";
import { encodeGiveaway } from "../callback-data/giveaway.js";
import type { Translate } from "../context.js";

export function giveawayKindKeyboard(t: Translate): InlineKeyboard {
  return new InlineKeyboard()
    .text(t("giveaway-button-stars"), encodeGiveaway({ type: "kind", kind: "stars" }))
    .text(t("giveaway-button-premium"), encodeGiveaway({ type: "kind", kind: "premium" }))
    .row()
    .text(t("button-cancel"), encodeFlow({ type: "cancel" }));
}
