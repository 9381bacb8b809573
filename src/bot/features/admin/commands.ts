/**
 * The admins' commands and buttons. Private chat only (except /allowchat and /denychat, which
 * name the group they are sent in), admins (ADMIN_IDS) only. Anyone else's command falls
 * through untouched to whatever the bot does with an unknown command, so a stranger cannot
 * even learn that these commands exist. Admin buttons pressed by anyone else are answered
 * exactly like forged data.
 */
import { Composer, type Filter, InlineKeyboard } from "grammy";
import type { AccessList } from "../../../access/access-list.js";
import type { GroupAdminChecker } from "../../access/group-admins.js";
import type { AdminNotifier } from "../../admin-notifications/index.js";
import type { BotContext } from "../../context.js";
import type { BotServices } from "../../services.js";
import { sentence } from "../../views.js";
import {
  ADMIN_DATA,
  type AdminAction,
  decodeAdmin,
  PURCHASES_PAGE_SIZE,
} from "../../callback-data/admin.js";
import { purchasesKeyboard, resolveKeyboard, whoKeyboard } from "../../keyboards/admin.js";
import { type Target, targetOf, targetOfOrigin } from "./targets.js";
import {
  allowedText,
  balanceText,
  evidenceText,
  limitsText,
  purchaseDetails,
  purchasesPage,
  userName,
  type WalletInfo,
} from "./views.js";

export interface AdminCommandsDeps {
  access: AccessList;
  notifier: AdminNotifier;
  groupAdmins: GroupAdminChecker;
  wallet: WalletInfo;
}

/** Unconfirmed intents shown by one /pending (each costs a fresh balance read for evidence). */
const MAX_PENDING_SHOWN = 10;

type CallbackContext = Filter<BotContext, "callback_query:data">;

export function adminCommandsFeature(
  services: BotServices,
  deps: AdminCommandsDeps,
): Composer<BotContext> {
  const { desk } = services;
  const { access } = deps;
  const composer = new Composer<BotContext>();
  const isAdmin = (ctx: BotContext) => ctx.from !== undefined && access.isAdmin(ctx.from.id);

  const admin = composer.chatType("private").filter(isAdmin);

  admin.command("balance", async (ctx) => {
    const read = await desk.readBalance();
    if (read.kind === "ok") deps.notifier.checkBalance(read.balance);
    const locale = await ctx.i18n.getLocale();
    const today = desk.dailyTotals(1).find((d) => d.day === desk.usageToday().day);
    await ctx.reply(
      balanceText(ctx.t, locale, {
        read,
        wallet: deps.wallet,
        usage: desk.usageToday(),
        today,
        status: desk.status(),
      }),
    );
  });

  admin.command("purchases", async (ctx) => {
    const locale = await ctx.i18n.getLocale();
    const id = ctx.match.trim();
    if (id !== "") {
      const intent = /^[A-Za-z0-9_-]{1,64}$/.test(id) ? desk.getIntent(id) : undefined;
      await ctx.reply(
        intent === undefined
          ? ctx.t("admin-purchase-not-found", { id: id.slice(0, 64) })
          : purchaseDetails(ctx.t, locale, intent),
        intent?.status === "unconfirmed" ? { reply_markup: resolveKeyboard(ctx.t, intent.id) } : {},
      );
      return;
    }
    const page = purchasesAt(0);
    const keyboard = purchasesKeyboard(ctx.t, 0, page.hasOlder);
    await ctx.reply(
      purchasesPage(ctx.t, locale, page.intents, 0),
      keyboard === undefined ? {} : { reply_markup: keyboard },
    );
  });

  admin.command("pending", async (ctx) => {
    const pending = desk.unconfirmed();
    if (pending.length === 0) {
      await ctx.reply(ctx.t("admin-pending-none"));
      return;
    }
    await ctx.reply(ctx.t("admin-pending-count", { count: pending.length }));
    const locale = await ctx.i18n.getLocale();
    for (const intent of pending.slice(0, MAX_PENDING_SHOWN)) {
      const evidence = await desk.evidence(intent.id);
      const fresh = evidence?.intent ?? intent;
      await ctx.reply(evidenceText(ctx.t, locale, fresh, evidence, "pending"), {
        reply_markup: resolveKeyboard(ctx.t, fresh.id),
      });
    }
  });

  admin.command("pause", async (ctx) => {
    desk.pause(ctx.from.id);
    await ctx.reply(ctx.t("admin-paused"));
  });

  admin.command("resume", async (ctx) => {
    desk.resume(ctx.from.id);
    const { unconfirmed } = desk.status();
    await ctx.reply(
      unconfirmed > 0
        ? ctx.t("admin-resumed-frozen", { count: unconfirmed })
        : ctx.t("admin-resumed"),
    );
  });

  admin.command("allow", async (ctx) => {
    const target = targetOf(ctx.msg, ctx.match, ctx.me.id);
    if (target.kind !== "user") return explainTarget(ctx, target);
    await ctx.reply(allow(ctx, target.id, target.label));
  });

  admin.command("deny", async (ctx) => {
    const target = targetOf(ctx.msg, ctx.match, ctx.me.id);
    if (target.kind !== "user") return explainTarget(ctx, target);
    await ctx.reply(deny(ctx, target.id, target.label));
  });

  admin.command("allowed", async (ctx) => {
    const locale = await ctx.i18n.getLocale();
    await ctx.reply(
      allowedText(ctx.t, locale, {
        admins: [...services.admins],
        users: access.allowedUsers(),
        chats: access.allowedChats(),
        publicPurchases: access.publicPurchases,
      }),
    );
  });

  admin.command("limits", async (ctx) => {
    const locale = await ctx.i18n.getLocale();
    await ctx.reply(limitsText(ctx.t, locale, desk.limits(), desk.usageToday()));
  });

  admin.command(["allowchat", "denychat"], async (ctx) => {
    await ctx.reply(ctx.t("admin-chat-only-in-group"));
  });

  // A message an admin forwards to the bot (outside a flow): offer to allow or deny its sender.
  admin.on("message").filter(
    (ctx) => ctx.msg.forward_origin !== undefined,
    async (ctx) => {
      const origin = ctx.msg.forward_origin;
      if (origin === undefined) return;
      const target = targetOfOrigin(origin);
      if (target.kind !== "user") return explainTarget(ctx, target);
      await ctx.reply(ctx.t("admin-forwarded", { who: userName(ctx.t, target.id, target.label) }), {
        reply_markup: whoKeyboard(ctx.t, target.id),
      });
    },
  );

  const groupAdmin = composer.chatType(["group", "supergroup"]).filter(isAdmin);
  groupAdmin.command("allowchat", async (ctx) => {
    access.allowChat(ctx.chat.id, ctx.from.id, ctx.chat.title, services.now());
    await ctx.reply(ctx.t("admin-chat-allowed"));
  });
  groupAdmin.command("denychat", async (ctx) => {
    const result = access.denyChat(ctx.chat.id);
    deps.groupAdmins.forgetChat(ctx.chat.id);
    await ctx.reply(
      ctx.t(
        result === "removed"
          ? "admin-chat-denied"
          : result === "configured"
            ? "admin-chat-deny-configured"
            : "admin-chat-deny-not-listed",
      ),
    );
  });

  composer.callbackQuery(ADMIN_DATA, async (ctx) => {
    const action = decodeAdmin(ctx.callbackQuery.data);
    // A non-admin's press and forged data get the same answer: nothing to learn here.
    if (action === undefined || !isAdmin(ctx) || ctx.chat?.type !== "private") {
      await ctx.answerCallbackQuery({ text: ctx.t("callback-invalid") });
      return;
    }
    await onAction(ctx, action);
  });

  function purchasesAt(offset: number) {
    const rows = desk.recent({ limit: PURCHASES_PAGE_SIZE + 1, offset });
    return {
      intents: rows.slice(0, PURCHASES_PAGE_SIZE),
      hasOlder: rows.length > PURCHASES_PAGE_SIZE,
    };
  }

  function allow(ctx: BotContext, userId: number, label: string | undefined): string {
    const who = userName(ctx.t, userId, label);
    if (access.isAdmin(userId)) return ctx.t("admin-allow-admin", { who });
    access.allowUser(userId, ctx.from?.id ?? 0, label, services.now());
    return ctx.t("admin-allowed-user", { who });
  }

  function deny(ctx: BotContext, userId: number, label: string | undefined): string {
    const who = userName(ctx.t, userId, label);
    if (access.isAdmin(userId)) return ctx.t("admin-deny-admin", { who });
    const result = access.denyUser(userId);
    const text =
      result === "removed"
        ? ctx.t("admin-denied-user", { who })
        : result === "configured"
          ? ctx.t("admin-deny-configured", { who })
          : ctx.t("admin-deny-not-listed", { who });
    return access.publicPurchases ? `${text}\n${ctx.t("admin-deny-public")}` : text;
  }

  async function explainTarget(ctx: BotContext, target: Exclude<Target, { kind: "user" }>) {
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

  async function onAction(ctx: CallbackContext, action: AdminAction): Promise<void> {
    const locale = await ctx.i18n.getLocale();
    switch (action.type) {
      case "page": {
        const page = purchasesAt(action.offset);
        await ctx.answerCallbackQuery();
        const keyboard = purchasesKeyboard(ctx.t, action.offset, page.hasOlder);
        await editQuietly(ctx, purchasesPage(ctx.t, locale, page.intents, action.offset), keyboard);
        return;
      }
      case "who": {
        const text = action.allow
          ? allow(ctx, action.userId, undefined)
          : deny(ctx, action.userId, undefined);
        await ctx.answerCallbackQuery();
        await editQuietly(ctx, text, undefined);
        return;
      }
      case "resolve":
        return resolve(ctx, action.intentId, action.delivered);
    }
  }

  async function resolve(ctx: CallbackContext, intentId: string, delivered: boolean) {
    const result = desk.resolve(intentId, ctx.from.id, delivered);
    const shown = ctx.callbackQuery.message?.text ?? "";
    if (!result.ok) {
      const intent = desk.getIntent(intentId);
      if (intent === undefined) {
        await ctx.answerCallbackQuery({ text: ctx.t("callback-invalid") });
        return;
      }
      const already = ctx.t("admin-resolved-already", { status: ctx.t(`status-${intent.status}`) });
      await ctx.answerCallbackQuery({ text: sentence(already) });
      await editQuietly(ctx, withLine(shown, already), undefined);
      return;
    }
    const line = ctx.t(delivered ? "admin-resolved-delivered" : "admin-resolved-not-delivered", {
      adminId: String(ctx.from.id),
    });
    await ctx.answerCallbackQuery({ text: line });
    await editQuietly(ctx, withLine(shown, line), undefined);
    if (result.unconfirmedLeft > 0) {
      await ctx.reply(ctx.t("admin-resolve-left", { count: result.unconfirmedLeft }));
    } else {
      await ctx.reply(
        ctx.t(desk.status().paused ? "admin-resolve-resumed-paused" : "admin-resolve-resumed"),
      );
    }
  }

  return composer;
}

function withLine(text: string, line: string): string {
  return text === "" ? line : `${text}\n\n${line}`;
}

/** Edits the pressed message; an old or unchanged message is not worth an error. */
async function editQuietly(
  ctx: BotContext,
  text: string,
  keyboard: InlineKeyboard | undefined,
): Promise<void> {
  try {
    await ctx.editMessageText(text, keyboard === undefined ? {} : { reply_markup: keyboard });
  } catch (error) {
    ctx.log.debug({ err: error }, "could not edit an admin message");
  }
}
