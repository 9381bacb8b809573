/**
 * Where a confirmed giveaway goes: the checked list, handed over once the admin pressed
 * Confirm. The batch is written to the ledger (one draft per recipient, in one transaction)
 * before anything is sent; then its progress message is posted, and only then does the runner
 * send the recipients, one by one through the purchase lane (src/purchases/giveaway-runner.ts).
 */
import type { GiftKind } from "../../../gifts/catalogue.js";
import type { Username } from "../../../gifts/username.js";
import type { BotContext } from "../../context.js";
import type { BotServices } from "../../services.js";
import { type GiveawaySending, sendingKeyboard, sendingText } from "./sending.js";

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

/** Writes the batch, posts its progress message and lets the runner send it. */
export async function startGiveawayBatch(
  ctx: BotContext,
  giveaway: ConfirmedGiveaway,
  services: Pick<BotServices, "logger" | "defaultPaymentMethod" | "now">,
  sending: GiveawaySending,
): Promise<void> {
  const batch = await sending.runner.create({
    kind: giveaway.kind,
    quantity: giveaway.quantity,
    paymentMethod: services.defaultPaymentMethod,
    adminId: giveaway.adminId,
    chatId: giveaway.chatId,
    recipients: giveaway.recipients,
    balanceBefore: undefined,
  });
  services.logger.info(
    { batchId: batch.id, kind: batch.kind, recipients: giveaway.recipients.length },
    "giveaway batch started",
  );
  // Just written: its state is there (undefined only if the database lost it meanwhile).
  const first = await sending.runner.state(batch.id);
  if (first === undefined) throw new Error(`giveaway batch ${batch.id} vanished once written`);
  const now = services.now();
  const keyboard = sendingKeyboard(ctx.t, first.batch);
  const message = await ctx.reply(
    sendingText(ctx.t, first, { startedAt: now, startedWith: 0, now }),
    keyboard === undefined ? {} : { reply_markup: keyboard },
  );
  await sending.begin(first, message.message_id);
  sending.runner.send(batch.id);
}
