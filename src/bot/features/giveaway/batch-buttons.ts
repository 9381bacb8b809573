/**
 * The buttons of a giveaway being sent: Pause, Resume and "Cancel the rest". Any admin may
 * press them (a giveaway spends the operator's money, so every admin may stop it); anyone else,
 * or a press outside a private chat, gets the answer forged data gets. A press on a batch that
 * has moved on (a double press, a press on an old message) is answered as no longer active.
 */
import { Composer, type Filter } from "grammy";
import {
  type BatchAction,
  decodeBatchAction,
  GIVEAWAY_BATCH_DATA,
} from "../../callback-data/giveaway-batch.js";
import type { BotContext } from "../../context.js";
import { purchasesState } from "../../flows/headroom.js";
import { decodedPress } from "../../press.js";
import type { BotServices } from "../../services.js";
import type { GiveawaySending } from "./sending.js";

type BatchPress = Filter<BotContext, "callback_query:data">;

export function giveawayBatchFeature(
  services: BotServices,
  sending: GiveawaySending,
): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.callbackQuery(
    GIVEAWAY_BATCH_DATA,
    decodedPress(decodeBatchAction, (ctx, action) => onPress(ctx, action, services, sending)),
  );
  return composer;
}

async function onPress(
  ctx: BatchPress,
  action: BatchAction,
  services: BotServices,
  sending: GiveawaySending,
): Promise<void> {
  if (!services.admins.has(ctx.from.id) || ctx.chat?.type !== "private") {
    await ctx.answerCallbackQuery({ text: ctx.t("callback-invalid") });
    return;
  }
  const runner = sending.runner;
  switch (action.type) {
    case "pause":
      await answer(ctx, await runner.pause(action.batchId), "giveaway-paused");
      return;
    case "cancel":
      await answer(ctx, await runner.cancel(action.batchId), "giveaway-cancelled-rest");
      return;
    case "resume":
      await resume(ctx, action.batchId, services, sending);
  }
}

/**
 * Resume goes on only while purchases are open: else it would stop again at once. A batch a
 * restore stopped never goes on, and the admin is told why first (purchases are usually on hold
 * after a restore, which would say nothing about it).
 */
async function resume(
  ctx: BatchPress,
  batchId: string,
  services: BotServices,
  sending: GiveawaySending,
): Promise<void> {
  const batch = (await sending.runner.state(batchId))?.batch;
  if (batch?.stopReason === "restored") {
    await ctx.answerCallbackQuery({ text: ctx.t("giveaway-resume-restored") });
    return;
  }
  const state = await purchasesState(services);
  if (state.paused || state.unconfirmed > 0) {
    await ctx.answerCallbackQuery({ text: ctx.t("giveaway-resume-closed") });
    return;
  }
  const result = await sending.runner.resume(batchId);
  await answer(ctx, result === "resumed", "giveaway-resumed");
}

async function answer(ctx: BatchPress, acted: boolean, key: string): Promise<void> {
  await ctx.answerCallbackQuery({ text: ctx.t(acted ? key : "flow-button-inactive") });
}
