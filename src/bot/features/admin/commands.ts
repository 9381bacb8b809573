/**
 * The admins' commands and buttons. Private chat only (except /allowchat and /denychat, which
 * name the group they are sent in), admins (ADMIN_IDS) only. Anyone else's command falls
 * through untouched to whatever the bot does with an unknown command, so a stranger cannot
 * even learn that these commands exist. Admin buttons pressed by anyone else are answered
 * exactly like forged data.
 *
 * Each command and button is a named handler taking the context and the {@link AdminEnv};
 * {@link adminCommandsFeature} only routes to them.
 */
import { editQuietly } from "../../edit-quietly.js";
import {
  type CallbackQueryContext,
  type ChatTypeContext,
  type CommandContext,
  Composer,
  type Filter,
} from "grammy";
import type { AccessList } from "../../../access/access-list.js";
import { fairShareSection } from "./fair-share-view.js";
import { INTENT_ID_PATTERN } from "../../../gifts/catalogue.js";
import type { GroupAdminChecker } from "../../access/group-admins.js";
import type { AdminNotifier } from "../../admin-notifications/index.js";
import {
  ADMIN_DATA,
  type AdminAction,
  decodeAdmin,
  PURCHASES_PAGE_SIZE,
} from "../../callback-data/admin.js";
import type { BotContext } from "../../context.js";
import { purchasesKeyboard, resolveKeyboard, whoKeyboard } from "../../keyboards/admin.js";
import { decodedPress } from "../../press.js";
import type { BotServices } from "../../services.js";
import { formatBytes } from "../../format.js";
import { quoteServiceText } from "../../../service/quote.js";
import { type Target, targetOf, targetOfOrigin } from "./targets.js";
import {
  allowedText,
  balanceText,
  evidenceBody,
  evidenceFrame,
  limitsText,
  purchaseDetails,
  purchasesPage,
  userName,
  type WalletInfo,
  who,
} from "../../admin-views.js";
import { exportPurchases } from "./export.js";
import { settlePurchase } from "./settle.js";
import { tellReopened } from "../../reopened.js";

export interface AdminCommandsDeps {
  access: AccessList;
  notifier: AdminNotifier;
  groupAdmins: GroupAdminChecker;
  wallet: WalletInfo;
}

/** What every admin handler works with: the bot's services and the admin features' parts. */
interface AdminEnv extends AdminCommandsDeps {
  services: BotServices;
}

/** Unconfirmed intents shown by one /pending (each costs a fresh balance read for evidence). */
const MAX_PENDING_SHOWN = 10;

type PrivateCommand = CommandContext<ChatTypeContext<BotContext, "private">>;
type GroupCommand = CommandContext<ChatTypeContext<BotContext, "group" | "supergroup">>;
type ForwardedMessage = Filter<ChatTypeContext<BotContext, "private">, "message">;
type AdminPress = CallbackQueryContext<BotContext>;

/** Routes the admins' commands, forwarded messages and buttons to their handlers. */
export function adminCommandsFeature(
  services: BotServices,
  deps: AdminCommandsDeps,
): Composer<BotContext> {
  const env: AdminEnv = { ...deps, services };
  const composer = new Composer<BotContext>();
  const isAdmin = (ctx: BotContext) => isAdminUpdate(ctx, env);

  const admin = composer.chatType("private").filter(isAdmin);
  admin.command("balance", (ctx) => showBalance(ctx, env));
  admin.command("purchases", (ctx) => showPurchases(ctx, env));
  admin.command("pending", (ctx) => showPending(ctx, env));
  admin.command("pause", (ctx) => pausePurchases(ctx, env));
  admin.command("resume", (ctx) => resumePurchases(ctx, env));
  admin.command("allow", (ctx) => allowCommand(ctx, env));
  admin.command("deny", (ctx) => denyCommand(ctx, env));
  admin.command("allowed", (ctx) => showAllowed(ctx, env));
  admin.command("limits", (ctx) => showLimits(ctx, env));
  admin.command("export", (ctx) => exportPurchases(ctx, env.services));
  admin.command("backup", (ctx) => backupNow(ctx, env.services));
  admin.command(["allowchat", "denychat"], (ctx) => ctx.reply(ctx.t("admin-chat-only-in-group")));
  // A message an admin forwards to the bot (outside a flow): offer to allow or deny its sender.
  admin.on("message").filter(
    (ctx) => ctx.msg.forward_origin !== undefined,
    (ctx) => offerForwardedSender(ctx),
  );

  const groupAdmin = composer.chatType(["group", "supergroup"]).filter(isAdmin);
  groupAdmin.command("allowchat", (ctx) => allowChat(ctx, env));
  groupAdmin.command("denychat", (ctx) => denyChat(ctx, env));

  composer.callbackQuery(
    ADMIN_DATA,
    decodedPress(decodeAdmin, (ctx, action) => onAdminPress(ctx, env, action)),
  );
  return composer;
}

function isAdminUpdate(ctx: BotContext, env: AdminEnv): boolean {
  return ctx.from !== undefined && env.access.isAdmin(ctx.from.id);
}

/**
 * /balance: the wallet, today's purchases, whether buying is open, and, when the service's
 * quota is busy or someone is slowed down, how full its queue is and who (fair-share-view.ts).
 */
async function showBalance(ctx: PrivateCommand, env: AdminEnv): Promise<void> {
  const { desk } = env.services;
  // The low-balance check hears this read itself (it listens to the desk's balance reads).
  const read = await desk.readBalance();
  const locale = await ctx.i18n.getLocale();
  const usage = await env.services.records.usageToday();
  const today = (await env.services.records.dailyTotals(1)).find((d) => d.day === usage.day);
  const status = await env.services.records.status();
  const fairShare = await env.services.people.render((names) =>
    fairShareSection(ctx.t, locale, desk.fairShare(), env.services.floods.throttled(), names),
  );
  await ctx.reply(
    balanceText(ctx.t, locale, {
      read,
      wallet: env.wallet,
      usage,
      today,
      status,
      stars: await desk.readStarBalance(),
    }) + fairShare,
  );
}

/** /purchases: the newest purchases, paged; `/purchases <id>`: one purchase in full. */
async function showPurchases(ctx: PrivateCommand, env: AdminEnv): Promise<void> {
  const id = ctx.match.trim();
  if (id !== "") {
    const found = await purchaseInFull(ctx, env, id);
    await ctx.reply(found?.text ?? ctx.t("admin-purchase-not-found", { id: id.slice(0, 64) }), {
      ...(found?.keyboard === undefined ? {} : { reply_markup: found.keyboard }),
    });
    return;
  }
  const locale = await ctx.i18n.getLocale();
  const page = await purchasesAt(env, 0);
  const keyboard = purchasesKeyboard(ctx.t, 0, page);
  await ctx.reply(
    await env.services.people.render((names) =>
      purchasesPage(ctx.t, locale, page.intents, 0, names),
    ),
    keyboard === undefined ? {} : { reply_markup: keyboard },
  );
}

/**
 * One purchase as `/purchases <id>` shows it (with Delivered / Not delivered while its outcome
 * is unknown), or undefined when the ledger has no such id.
 */
async function purchaseInFull(ctx: BotContext, env: AdminEnv, id: string) {
  const intent = INTENT_ID_PATTERN.test(id) ? await env.services.records.getIntent(id) : undefined;
  if (intent === undefined) return undefined;
  const locale = await ctx.i18n.getLocale();
  return {
    text: await env.services.people.render((names) =>
      purchaseDetails(ctx.t, locale, intent, env.services.explorerUrl, names),
    ),
    keyboard: intent.status === "unconfirmed" ? resolveKeyboard(ctx.t, intent.id) : undefined,
  };
}

/**
 * A numbered button under /purchases: the purchase in full, as a new message (the list stays
 * to open the next one). An id the ledger does not know (a forged press, or a list made before
 * a restore) is answered, not shown.
 */
async function openPurchase(ctx: AdminPress, env: AdminEnv, id: string): Promise<void> {
  const found = await purchaseInFull(ctx, env, id);
  if (found === undefined) {
    await ctx.answerCallbackQuery({
      text: ctx.t("admin-purchase-not-found", { id }),
      show_alert: true,
    });
    return;
  }
  await ctx.answerCallbackQuery();
  await ctx.reply(found.text, {
    ...(found.keyboard === undefined ? {} : { reply_markup: found.keyboard }),
  });
}

/** /pending: each unconfirmed purchase with its evidence and the buttons to settle it. */
async function showPending(ctx: PrivateCommand, env: AdminEnv): Promise<void> {
  const { desk } = env.services;
  const pending = await env.services.records.unconfirmed();
  if (pending.length === 0) {
    await ctx.reply(ctx.t("admin-pending-none"));
    return;
  }
  await ctx.reply(ctx.t("admin-pending-count", { count: pending.length }));
  const locale = await ctx.i18n.getLocale();
  const explorer = env.services.explorerUrl;
  for (const intent of pending.slice(0, MAX_PENDING_SHOWN)) {
    const evidence = await desk.admin.evidence(intent.id);
    const fresh = evidence?.intent ?? intent;
    const body = await env.services.people.render((names) =>
      evidenceBody(ctx.t, locale, fresh, evidence, explorer, names),
    );
    const sent = await ctx.reply(evidenceFrame(ctx.t, "pending", fresh, body), {
      reply_markup: resolveKeyboard(ctx.t, fresh.id),
    });
    // Its settlement edits it into the settled state, whoever settles it.
    await env.notifier.rememberAlert(fresh.id, ctx.chat.id, sent.message_id, body);
  }
}

async function pausePurchases(ctx: PrivateCommand, env: AdminEnv): Promise<void> {
  await env.services.desk.admin.pause(ctx.from.id);
  await ctx.reply(ctx.t("admin-paused"));
}

/** /resume: lifts the pause, an admin's or the breaker's. */
async function resumePurchases(ctx: PrivateCommand, env: AdminEnv): Promise<void> {
  await ctx.reply(await resumeText(ctx, env, ctx.from.id));
}

/**
 * The breaker's Resume button: the button goes, the text stays as the record of why. It lifts
 * only the breaker's own pause: an old alert pressed after an admin's /pause (or after the
 * purchases were reopened) must not reopen buying behind that admin's back.
 */
async function resumeFromButton(ctx: AdminPress, env: AdminEnv): Promise<void> {
  const shown = ctx.callbackQuery.message?.text ?? "";
  const pause = await env.services.records.pauseReason();
  if (pause?.source !== "breaker") {
    await ctx.answerCallbackQuery({
      text: ctx.t(pause === undefined ? "admin-breaker-resume-open" : "admin-breaker-resume-admin"),
      show_alert: true,
    });
    await editQuietly(ctx, shown, undefined);
    return;
  }
  const text = await resumeText(ctx, env, ctx.from.id);
  await ctx.answerCallbackQuery({ text });
  const adminId = ctx.from.id;
  const resumed = await env.services.people.render((names) =>
    ctx.t("admin-breaker-resumed", { admin: who(ctx.t, adminId, names) }),
  );
  await editQuietly(ctx, `${shown}\n\n${resumed}`, undefined);
}

/** Lifts the pause (an admin's or the breaker's) and says what still holds purchases. */
async function resumeText(ctx: BotContext, env: AdminEnv, adminId: number): Promise<string> {
  await env.services.desk.admin.resume(adminId);
  const { paused, unconfirmed } = await env.services.records.status();
  // Everyone who met the pause is told, once, in their language, in the background.
  if (!paused && unconfirmed === 0) tellReopened(ctx.api, env.services);
  return unconfirmed > 0
    ? ctx.t("admin-resumed-frozen", { count: unconfirmed })
    : ctx.t("admin-resumed");
}

/** /allow: a user id, or the author (or forwarded sender) of the replied-to message. */
async function allowCommand(ctx: PrivateCommand, env: AdminEnv): Promise<void> {
  const target = targetOf(ctx.msg, ctx.match, ctx.me.id);
  if (target.kind !== "user") return explainTarget(ctx, target);
  await ctx.reply(await allow(ctx, env, target.id, target.label));
}

/** /deny: the same targets as /allow. */
async function denyCommand(ctx: PrivateCommand, env: AdminEnv): Promise<void> {
  const target = targetOf(ctx.msg, ctx.match, ctx.me.id);
  if (target.kind !== "user") return explainTarget(ctx, target);
  await ctx.reply(await deny(ctx, env, target.id, target.label));
}

/** /allowed: admins, buyers, groups, and whether purchases are public. */
async function showAllowed(ctx: PrivateCommand, env: AdminEnv): Promise<void> {
  const { access } = env;
  const locale = await ctx.i18n.getLocale();
  const lists = {
    admins: [...env.services.admins],
    users: await access.allowedUsers(),
    chats: await access.allowedChats(),
    publicPurchases: access.publicPurchases,
  };
  await ctx.reply(
    await env.services.people.render((names) => allowedText(ctx.t, locale, lists, names)),
  );
}

/** /limits: the limits in force and today's use of the bot-wide ones. */
async function showLimits(ctx: PrivateCommand, env: AdminEnv): Promise<void> {
  const locale = await ctx.i18n.getLocale();
  await ctx.reply(
    limitsText(
      ctx.t,
      locale,
      env.services.records.limits(),
      await env.services.records.usageToday(),
    ),
  );
}

/** A forwarded message: offer to allow or deny its sender, when Telegram shows who it is. */
async function offerForwardedSender(ctx: ForwardedMessage): Promise<void> {
  const origin = ctx.msg.forward_origin;
  if (origin === undefined) return;
  const target = targetOfOrigin(origin);
  if (target.kind !== "user") return explainTarget(ctx, target);
  await ctx.reply(ctx.t("admin-forwarded", { who: userName(ctx.t, target.id, target.label) }), {
    reply_markup: whoKeyboard(ctx.t, target.id),
  });
}

/** /allowchat in a group: buying premium there is open to its administrators. */
async function allowChat(ctx: GroupCommand, env: AdminEnv): Promise<void> {
  await env.access.allowChat(ctx.chat.id, ctx.from.id, ctx.chat.title, env.services.now());
  await ctx.reply(ctx.t("admin-chat-allowed"));
}

/** /denychat in a group: closes it again (a group from ALLOWED_CHAT_IDS stays open). */
async function denyChat(ctx: GroupCommand, env: AdminEnv): Promise<void> {
  const result = await env.access.denyChat(ctx.chat.id);
  env.groupAdmins.forgetChat(ctx.chat.id);
  await ctx.reply(
    ctx.t(
      result === "removed"
        ? "admin-chat-denied"
        : result === "configured"
          ? "admin-chat-deny-configured"
          : "admin-chat-deny-not-listed",
    ),
  );
}

/** An `adm:` button: only an admin's press in a private chat counts. */
async function onAdminPress(ctx: AdminPress, env: AdminEnv, action: AdminAction): Promise<void> {
  // A non-admin's press gets the same answer as forged data: nothing to learn here.
  if (!isAdminUpdate(ctx, env) || ctx.chat?.type !== "private") {
    await ctx.answerCallbackQuery({ text: ctx.t("callback-invalid") });
    return;
  }
  switch (action.type) {
    case "page": {
      const locale = await ctx.i18n.getLocale();
      const page = await purchasesAt(env, action.offset);
      await ctx.answerCallbackQuery();
      const keyboard = purchasesKeyboard(ctx.t, action.offset, page);
      await editQuietly(
        ctx,
        await env.services.people.render((names) =>
          purchasesPage(ctx.t, locale, page.intents, action.offset, names),
        ),
        keyboard,
      );
      return;
    }
    case "who": {
      const text = action.allow
        ? await allow(ctx, env, action.userId, undefined)
        : await deny(ctx, env, action.userId, undefined);
      await ctx.answerCallbackQuery();
      await editQuietly(ctx, text, undefined);
      return;
    }
    case "open":
      return openPurchase(ctx, env, action.intentId);
    case "resolve":
      return settlePurchase(ctx, env, action.intentId, action.delivered);
    case "resume":
      return resumeFromButton(ctx, env);
  }
}

async function purchasesAt(env: AdminEnv, offset: number) {
  const rows = await env.services.records.recent({ limit: PURCHASES_PAGE_SIZE + 1, offset });
  const intents = rows.slice(0, PURCHASES_PAGE_SIZE);
  return {
    intents,
    intentIds: intents.map((intent) => intent.id),
    hasOlder: rows.length > PURCHASES_PAGE_SIZE,
  };
}

async function allow(
  ctx: BotContext,
  env: AdminEnv,
  userId: number,
  label: string | undefined,
): Promise<string> {
  const who = userName(ctx.t, userId, label);
  if (env.access.isAdmin(userId)) return ctx.t("admin-allow-admin", { who });
  await env.access.allowUser(userId, ctx.from?.id ?? 0, label, env.services.now());
  return ctx.t("admin-allowed-user", { who });
}

async function deny(
  ctx: BotContext,
  env: AdminEnv,
  userId: number,
  label: string | undefined,
): Promise<string> {
  const { access } = env;
  const who = userName(ctx.t, userId, label);
  if (access.isAdmin(userId)) return ctx.t("admin-deny-admin", { who });
  const result = await access.denyUser(userId);
  const text =
    result === "removed"
      ? ctx.t("admin-denied-user", { who })
      : result === "configured"
        ? ctx.t("admin-deny-configured", { who })
        : ctx.t("admin-deny-not-listed", { who });
  return access.publicPurchases ? `${text}\n${ctx.t("admin-deny-public")}` : text;
}

async function explainTarget(
  ctx: BotContext,
  target: Exclude<Target, { kind: "user" }>,
): Promise<void> {
  switch (target.kind) {
    case "hidden":
      await ctx.reply(ctx.t("admin-who-hidden", { name: target.name }));
      return;
    case "not_person":
      await ctx.reply(ctx.t("admin-who-not-person"));
      return;
    case "none":
      await ctx.reply(ctx.t("admin-who-usage"));
      return;
  }
}

/**
 * /backup: an online backup of the database now, and where it went and how large it is. The
 * file is never sent through Telegram: it holds people's ids and names.
 */
async function backupNow(ctx: PrivateCommand, services: BotServices): Promise<void> {
  const backups = services.backups;
  if (backups === undefined) {
    await ctx.reply(ctx.t("admin-backup-unavailable"));
    return;
  }
  try {
    const result = await backups.takeNow();
    const locale = await ctx.i18n.getLocale();
    await ctx.reply(
      ctx.t("admin-backup-done", { path: result.path, size: formatBytes(locale, result.bytes) }),
    );
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await ctx.reply(
      ctx.t("admin-backup-failed", { dir: backups.dir, reason: quoteServiceText(reason) }),
    );
  }
}
