/**
 * Funding the bot's own Telegram Stars (issue #39, docs/telegram-premium.md): `/topup N` sends an
 * admin an invoice in Stars (currency `XTR`, no payment provider) that they pay from their own
 * Telegram account; Telegram asks the bot before it charges (the pre-checkout query: only the
 * bot's own top-up invoices, paid by an admin, are accepted), then sends the paid message, which
 * the store keeps once by Telegram's charge id. `/refund` lists the top-ups, and
 * `/refund <charge id>` gives one made by mistake back (`refundStarPayment`, never retried).
 */
import {
  type ChatTypeContext,
  type CommandContext,
  Composer,
  type Filter,
  GrammyError,
} from "grammy";
import type { StarTopUps } from "../../../ledger/star-top-ups.js";
import type { PurchaseDesk } from "../../../purchases/types.js";
import type { BotContext } from "../../context.js";
import { formatDateTime } from "../../format.js";
import type { BotServices } from "../../services.js";
import { who } from "../../admin-views.js";

/** The Stars one top-up may add (Telegram's own cap on a Stars invoice is higher). */
const MIN_TOP_UP = 1;
const MAX_TOP_UP = 10_000;
/** Top-ups /refund lists. */
const LISTED = 10;

/** The invoice's payload: what the bot recognises as its own top-up, and for whom. */
const PAYLOAD = /^topup:(\d+):(\d+)$/;

type PrivateCommand = CommandContext<ChatTypeContext<BotContext, "private">>;
type PaidMessage = Filter<BotContext, "message:successful_payment">;

export interface TopUpDeps {
  /** The kept top-ups; undefined when PREMIUM_VIA is `service` (the bot's Stars are not used). */
  starTopUps: StarTopUps | undefined;
  access: { isAdmin(userId: number): boolean };
}

export function topUpFeature(services: BotServices, deps: TopUpDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const admin = composer.chatType("private").filter((ctx) => deps.access.isAdmin(ctx.from.id));
  admin.command("topup", (ctx) => sendTopUpInvoice(ctx, deps));
  admin.command("refund", (ctx) => refundTopUp(ctx, services, deps));
  composer.on("pre_checkout_query", async (ctx) => {
    const query = ctx.preCheckoutQuery;
    const stars = ownTopUp(query.invoice_payload, query.from.id);
    const ok =
      deps.starTopUps !== undefined &&
      deps.access.isAdmin(query.from.id) &&
      query.currency === "XTR" &&
      stars === query.total_amount;
    await ctx.answerPreCheckoutQuery(
      ok,
      ok ? undefined : { error_message: ctx.t("topup-refused") },
    );
  });
  composer.on("message:successful_payment", (ctx) => keepTopUp(ctx, services, deps));
  return composer;
}

/** The Stars of the bot's own top-up invoice for this payer, else undefined. */
function ownTopUp(payload: string, payerId: number): number | undefined {
  const match = PAYLOAD.exec(payload);
  if (match === null || Number(match[2]) !== payerId) return undefined;
  return Number(match[1]);
}

/** /topup N: the invoice, paid from the admin's own account. */
async function sendTopUpInvoice(ctx: PrivateCommand, deps: TopUpDeps): Promise<void> {
  if (deps.starTopUps === undefined) {
    await ctx.reply(ctx.t("topup-off"));
    return;
  }
  const text = ctx.match.trim();
  const stars = /^\d{1,6}$/.test(text) ? Number(text) : Number.NaN;
  if (!(stars >= MIN_TOP_UP && stars <= MAX_TOP_UP)) {
    await ctx.reply(ctx.t("topup-usage", { min: MIN_TOP_UP, max: MAX_TOP_UP }));
    return;
  }
  await ctx.replyWithInvoice(
    ctx.t("topup-title"),
    ctx.t("topup-description", { stars }),
    `topup:${stars}:${ctx.from.id}`,
    "XTR",
    [{ label: ctx.t("topup-label", { stars }), amount: stars }],
  );
}

/** Telegram's paid message: kept once in the store, the payer and the other admins told. */
async function keepTopUp(ctx: PaidMessage, services: BotServices, deps: TopUpDeps): Promise<void> {
  const payment = ctx.msg.successful_payment;
  const payerId = ctx.from.id;
  const stars = ownTopUp(payment.invoice_payload, payerId);
  if (deps.starTopUps === undefined || stars === undefined) return;
  const chargeId = payment.telegram_payment_charge_id;
  const kept = await deps.starTopUps.recordTopUp({
    chargeId,
    userId: payerId,
    stars: payment.total_amount,
    payload: payment.invoice_payload,
    paidAt: services.now(),
  });
  if (!kept) return;
  services.logger.info({ adminId: payerId, stars: payment.total_amount }, "Stars topped up");
  const balance = await services.desk.readStarBalance();
  const added = { stars: payment.total_amount, charge: chargeId };
  await ctx.reply(
    balance?.kind === "ok"
      ? ctx.t("topup-paid", { ...added, balance: balance.stars })
      : ctx.t("topup-paid-balance-unknown", added),
  );
  const name = await services.people.render((names) => who(ctx.t, payerId, names));
  for (const adminId of services.admins) {
    if (adminId === payerId) continue;
    const locale = (await services.settings.preferredLanguage(adminId)) ?? "en";
    const text = services.i18n.t(locale, "topup-paid-admins", { ...added, who: name });
    await ctx.api.sendMessage(adminId, text).catch((err: unknown) => {
      services.logger.warn({ err, adminId }, "could not tell an admin of a top-up");
    });
  }
}

/** /refund: the top-ups; /refund <charge id>: that one given back to whoever paid it. */
async function refundTopUp(
  ctx: PrivateCommand,
  services: BotServices,
  deps: TopUpDeps,
): Promise<void> {
  const stored = deps.starTopUps;
  if (stored === undefined) {
    await ctx.reply(ctx.t("topup-off"));
    return;
  }
  const chargeId = ctx.match.trim();
  if (chargeId === "") {
    await ctx.reply(await topUpList(ctx, services, stored));
    return;
  }
  const topUp = await stored.topUp(chargeId);
  if (topUp === undefined) {
    await ctx.reply(ctx.t("refund-unknown"));
    return;
  }
  if (topUp.refundedAt !== undefined) {
    await ctx.reply(ctx.t("refund-already"));
    return;
  }
  try {
    await ctx.api.refundStarPayment(topUp.userId, topUp.chargeId);
  } catch (error) {
    const reason = error instanceof GrammyError ? error.description : String(error);
    await ctx.reply(ctx.t("refund-failed", { reason }));
    return;
  }
  await stored.markRefunded(topUp.chargeId, ctx.from.id, services.now());
  const name = await services.people.render((names) => who(ctx.t, topUp.userId, names));
  await ctx.reply(ctx.t("refund-done", { stars: topUp.stars, who: name, charge: topUp.chargeId }));
}

async function topUpList(ctx: PrivateCommand, services: BotServices, stored: StarTopUps) {
  const topUps = await stored.recentTopUps(LISTED);
  if (topUps.length === 0) return ctx.t("refund-list-empty");
  const locale = await ctx.i18n.getLocale();
  const lines = await services.people.render((names) =>
    topUps.map((topUp) =>
      ctx.t("refund-list-line", {
        date: formatDateTime(locale, topUp.paidAt),
        stars: topUp.stars,
        who: who(ctx.t, topUp.userId, names),
        charge: topUp.chargeId,
        refunded: topUp.refundedAt === undefined ? "no" : "yes",
      }),
    ),
  );
  const example = topUps[0]?.chargeId ?? "";
  return [ctx.t("refund-list-title"), ...lines, "", ctx.t("refund-usage", { example })].join("\n");
}

/** The daily report's line of the bot's own Stars, when Premium may be paid in them. */
export function starsOfDay(desk: PurchaseDesk, topUps: StarTopUps | undefined) {
  if (topUps === undefined) return undefined;
  return async (from: number, to: number) => {
    const read = await desk.readStarBalance();
    const added = await topUps.toppedUpBetween(from, to);
    return { now: read?.kind === "ok" ? read.stars : undefined, ...added };
  };
}
