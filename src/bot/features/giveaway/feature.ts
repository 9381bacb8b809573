/**
 * /giveaway (admins, private chat) and the buttons of a giveaway's messages: Stop on the
 * progress message, Confirm, Cancel and "Download the list" on the card. Anyone else's
 * /giveaway falls through to the unknown-command answer, as every admin command does. A press
 * is refused, with a localized answer, when its data is forged or the presser is not an admin
 * (both answered alike), its giveaway is unknown (stale: a restart, a newer giveaway, too old)
 * or closed, or it is not the presser's own.
 */
import { createConversation } from "@grammyjs/conversations";
import { type CallbackQueryContext, Composer, type InlineKeyboard, InputFile } from "grammy";
import {
  decodeGiveaway,
  GIVEAWAY_DATA,
  type GiveawayAction,
  type GiveawayPressType,
} from "../../callback-data/giveaway.js";
import type { BotContext, FlowContext } from "../../context.js";
import { createGiveawayFlow, type GiveawayDeps } from "./flow.js";
import { decodedPress } from "../../press.js";
import type { BotServices } from "../../services.js";
import type { Giveaway } from "./board.js";
import { confirmedCardKeyboard } from "./card.js";
import { giveawayListCsv } from "./list-csv.js";
import { startGiveawayBatch } from "./start-batch.js";

/** The conversation's id. */
const GIVEAWAY_FLOW_ID = "giveaway";

/** An admin away this long in the middle of the flow starts afresh. */
const GIVEAWAY_FLOW_MAX_WAIT_MS = 30 * 60_000;

/** The conversation; installed with the other conversations, before the commands. */
export function giveawayConversation(
  services: BotServices,
  deps: GiveawayDeps,
): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.use(
    createConversation<BotContext, FlowContext>(createGiveawayFlow(services, deps), {
      id: GIVEAWAY_FLOW_ID,
      maxMillisecondsToWait: GIVEAWAY_FLOW_MAX_WAIT_MS,
    }),
  );
  return composer;
}

type GiveawayPress = CallbackQueryContext<BotContext>;

/** /giveaway and the giveaway's buttons. */
export function giveawayFeature(services: BotServices, deps: GiveawayDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer
    .chatType("private")
    .filter((ctx) => services.admins.has(ctx.from.id))
    .command("giveaway", async (ctx) => {
      if (Object.keys(ctx.conversation.active()).length > 0) await ctx.conversation.exitAll();
      await ctx.conversation.enter(GIVEAWAY_FLOW_ID);
    });
  composer.callbackQuery(
    GIVEAWAY_DATA,
    decodedPress(decodeGiveaway, (ctx, action) => onPress(ctx, action, services, deps)),
  );
  return composer;
}

async function onPress(
  ctx: GiveawayPress,
  action: GiveawayAction,
  services: BotServices,
  deps: GiveawayDeps,
): Promise<void> {
  // Anyone but an admin in a private chat gets the answer forged data gets, as with the
  // admins' own buttons: a stranger learns nothing, not even that giveaways exist.
  if (!services.admins.has(ctx.from.id) || ctx.chat?.type !== "private") {
    await ctx.answerCallbackQuery({ text: ctx.t("callback-invalid") });
    return;
  }
  // The kind is chosen inside the flow: here, that flow has ended.
  if (action.type === "kind") {
    await ctx.answerCallbackQuery({ text: ctx.t("flow-button-inactive") });
    return;
  }
  const giveaway = deps.board.get(action.giveawayId);
  if (giveaway === undefined) {
    // The buttons stay: forged data "on" a live card must not take the card's buttons away.
    await ctx.answerCallbackQuery({ text: ctx.t("giveaway-stale") });
    return;
  }
  if (giveaway.ownerId !== ctx.from.id) {
    await ctx.answerCallbackQuery({ text: ctx.t("giveaway-not-yours") });
    return;
  }
  const expected = EXPECTED_PRESSES[giveaway.phase];
  if (!expected.includes(action.type)) {
    await ctx.answerCallbackQuery({ text: ctx.t("flow-button-inactive") });
    return;
  }
  await PRESSES[action.type](ctx, giveaway, { services, deps });
}

/** The buttons that act in each phase; any other is no longer active. */
const EXPECTED_PRESSES: Record<Giveaway["phase"], readonly GiveawayPressType[]> = {
  checking: ["stop"],
  checked: ["ok", "no", "csv"],
  confirmed: ["csv"],
  closed: [],
};

interface PressEnv {
  services: BotServices;
  deps: GiveawayDeps;
}

const PRESSES: Record<
  GiveawayPressType,
  (ctx: GiveawayPress, giveaway: Giveaway, env: PressEnv) => Promise<void>
> = {
  stop: async (ctx, giveaway) => {
    // The checks see it before their next name, and the progress message then says so.
    giveaway.stop.abort();
    await ctx.answerCallbackQuery({ text: ctx.t("giveaway-stopping") });
  },
  ok: async (ctx, giveaway, { services, deps }) => {
    const checked = giveaway.checked;
    // A double press acts once: only the press that confirms it goes on.
    if (checked === undefined || checked.canReceive.length === 0 || !deps.board.confirm(giveaway)) {
      await ctx.answerCallbackQuery({ text: ctx.t("flow-button-inactive") });
      return;
    }
    await ctx.answerCallbackQuery();
    await replaceKeyboard(ctx, confirmedCardKeyboard(ctx.t, giveaway.id));
    await startGiveawayBatch(
      ctx,
      {
        kind: giveaway.kind,
        quantity: giveaway.quantity,
        recipients: [...checked.canReceive],
        adminId: giveaway.ownerId,
        chatId: giveaway.chatId,
      },
      services,
      deps.sending,
    );
  },
  no: async (ctx, giveaway, { deps }) => {
    deps.board.close(giveaway);
    await ctx.answerCallbackQuery();
    await dropKeyboard(ctx);
    await ctx.reply(ctx.t("giveaway-cancelled"));
  },
  csv: async (ctx, giveaway) => {
    await ctx.answerCallbackQuery();
    if (giveaway.checked === undefined) return;
    const csv = giveawayListCsv(giveaway.checked, giveaway.list.invalid);
    await ctx.replyWithDocument(new InputFile(Buffer.from(csv, "utf8"), "giveaway.csv"));
  },
};

/** Takes the buttons off the pressed message; a failure (too old, gone) is only logged. */
async function dropKeyboard(ctx: GiveawayPress): Promise<void> {
  await replaceKeyboard(ctx, undefined);
}

/** Puts `keyboard` (or none) on the pressed message; a failure is only logged. */
async function replaceKeyboard(
  ctx: GiveawayPress,
  keyboard: InlineKeyboard | undefined,
): Promise<void> {
  try {
    await ctx.editMessageReplyMarkup(keyboard === undefined ? {} : { reply_markup: keyboard });
  } catch (error) {
    ctx.log.debug({ err: error }, "could not take a giveaway message's buttons away");
  }
}
