/**
 * Where a confirmed giveaway goes: the checked list, handed over once the admin pressed
 * Confirm. This is the one seam between choosing a giveaway (the flow, the checks, the card)
 * and sending it (the batch in the ledger, one intent per recipient, sent through the purchase
 * lane). Sending is not built yet: for now the admin is told so, and nothing is recorded or
 * bought.
 */
import type { GiftKind } from "../../../gifts/catalogue.js";
import type { Username } from "../../../gifts/username.js";
import type { BotContext } from "../../context.js";
import type { BotServices } from "../../services.js";

/** A giveaway as confirmed: what each recipient gets, and who they are (checked, merged). */
export interface ConfirmedGiveaway {
  kind: GiftKind;
  /** Stars per recipient, or Premium months. */
  quantity: number;
  /** Those the checks found able to receive, each once, in the admin's order. */
  recipients: readonly Username[];
  /** The admin who confirmed it, and the chat its progress is shown in. */
  adminId: number;
  chatId: number;
}

/**
 * Starts sending a confirmed giveaway. Not available yet: the admin is told so, and nothing is
 * recorded or bought.
 */
export async function startGiveawayBatch(
  ctx: BotContext,
  giveaway: ConfirmedGiveaway,
  services: Pick<BotServices, "logger">,
): Promise<void> {
  services.logger.info(
    { kind: giveaway.kind, quantity: giveaway.quantity, recipients: giveaway.recipients.length },
    "giveaway confirmed; sending giveaways is not built yet",
  );
  await ctx.reply(ctx.t("giveaway-sending-not-available"));
}
