/**
 * Delivered / Not delivered on an unknown outcome (an alert, a /pending listing, or
 * `/purchases <id>`). The desk settles it and tells everyone who must learn it (the requester,
 * every message of it the admins hold: src/bot/settled-notice.ts and
 * src/bot/admin-notifications/settlements.ts); this answers the press, puts the pressed
 * message in its settled state when nobody else will, and says what still holds purchases.
 */
import type { CallbackQueryContext } from "grammy";
import type { AdminNotifier } from "../../admin-notifications/index.js";
import {
  bodyOfShownAlert,
  type SettledAs,
  settledAlertText,
  settledAsOf,
  settledByLine,
} from "../../admin-notifications/settlement-views.js";
import { purchaseDetails } from "../../admin-views.js";
import type { BotContext } from "../../context.js";
import { editQuietly } from "../../edit-quietly.js";
import { sentence } from "../../purchase-views.js";
import type { BotServices } from "../../services.js";
import type { PurchaseIntent } from "../../../ledger/types.js";

type AdminPress = CallbackQueryContext<BotContext>;

export async function settlePurchase(
  ctx: AdminPress,
  env: { services: BotServices; notifier: AdminNotifier },
  intentId: string,
  delivered: boolean,
): Promise<void> {
  const { services, notifier } = env;
  const adminId = ctx.from.id;
  const pressed = ctx.callbackQuery.message;
  // Asked before the settlement, which edits (and forgets) the messages it knows.
  const known =
    pressed !== undefined &&
    (await notifier.showsAlert(intentId, pressed.chat.id, pressed.message_id));
  const result = await services.desk.admin.resolve(intentId, adminId, delivered);
  if (!result.ok) {
    await alreadySettled(ctx, services, intentId);
    return;
  }
  const settled: SettledAs = { by: "admin", adminId, delivered };
  const line = await services.people.render((names) => settledByLine(ctx.t, settled, names));
  await ctx.answerCallbackQuery({ text: line });
  if (!known) await showSettled(ctx, services, result.intent, settled);
  if (result.unconfirmedLeft > 0) {
    await ctx.reply(ctx.t("admin-resolve-left", { count: result.unconfirmedLeft }));
    return;
  }
  const { paused } = await services.records.status();
  await ctx.reply(ctx.t(paused ? "admin-resolve-resumed-paused" : "admin-resolve-resumed"));
}

/**
 * A press of buttons whose outcome was settled already (another admin, the service's late
 * answer, or a message the settlement could not edit): said, and the buttons go.
 */
async function alreadySettled(
  ctx: AdminPress,
  services: BotServices,
  intentId: string,
): Promise<void> {
  const intent = await services.records.getIntent(intentId);
  if (intent === undefined) {
    await ctx.answerCallbackQuery({ text: ctx.t("callback-invalid") });
    return;
  }
  const already = ctx.t("admin-resolved-already", { status: ctx.t(`status-${intent.status}`) });
  await ctx.answerCallbackQuery({ text: sentence(already) });
  const settled = settledAsOf(intent);
  if (settled === undefined) {
    const shown = ctx.callbackQuery.message?.text ?? "";
    await editQuietly(ctx, shown === "" ? sentence(already) : `${shown}\n\n${sentence(already)}`);
    return;
  }
  await showSettled(ctx, services, intent, settled);
}

/**
 * The pressed message in its settled state, without buttons: `/purchases <id>` shown again as
 * it is now; an alert or a /pending listing with its own evidence under a settled title.
 */
async function showSettled(
  ctx: AdminPress,
  services: BotServices,
  intent: PurchaseIntent,
  settled: SettledAs,
): Promise<void> {
  const shown = ctx.callbackQuery.message?.text ?? "";
  const locale = await ctx.i18n.getLocale();
  const text = await services.people.render((names) =>
    shown.startsWith(ctx.t("admin-detail-title", { id: intent.id }))
      ? purchaseDetails(ctx.t, locale, intent, services.explorerUrl, names)
      : settledAlertText(ctx.t, intent, settled, bodyOfShownAlert(ctx.t, shown), names),
  );
  await editQuietly(ctx, text);
}
