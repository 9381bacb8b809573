/**
 * The access check built on the access list: who may start a flow and confirm a purchase.
 *
 * Private chats: admins (ADMIN_IDS), buyers (ALLOWED_USER_IDS and those admins add in the bot),
 * or anyone when PUBLIC_PURCHASES is on. Groups: premium only, only in allowed groups, only by
 * that group's administrators, asked of Telegram at the start and again (fresh) at
 * confirmation. Everything here is decided locally or by Telegram: a refused person never
 * causes a request to the Gift Purchase Service.
 */
import type { AccessList } from "../../access/access-list.js";
import type { BotContext } from "../context.js";
import type { AccessCheck, AccessCheckDecision, AccessCheckRequest } from "../access-check.js";
import type { GroupAdminChecker } from "./group-admins.js";

export interface AccessCheckOptions {
  access: AccessList;
  groupAdmins: GroupAdminChecker;
  /**
   * Whom a refused person should ask for access (e.g. `@shop_support`), when the admins gave
   * one (ADMIN_CONTACT); without it the refusal says "the bot's admins".
   */
  contact?: string | undefined;
}

/** Why a group request was refused, for features that word the answer themselves. */
export type GroupRefusal = "premium_only" | "chat_not_allowed" | "not_admin" | "check_failed";

/** Decides a group request; `undefined` means allowed. */
export async function checkGroupRequest(
  ctx: BotContext,
  request: AccessCheckRequest,
  options: AccessCheckOptions,
): Promise<GroupRefusal | undefined> {
  const chatId = ctx.chat?.id;
  const userId = ctx.from?.id;
  if (chatId === undefined || userId === undefined) return "not_admin";
  if (request.kind !== "premium") return "premium_only";
  if (!(await options.access.isChatAllowed(chatId))) return "chat_not_allowed";
  const check = await options.groupAdmins.check(ctx.api, chatId, userId, {
    fresh: request.stage === "confirm",
  });
  if (check === "unknown") return "check_failed";
  return check === "admin" ? undefined : "not_admin";
}

/** The text a refused group request gets, in the person's language. */
export function groupRefusalText(ctx: BotContext, refusal: GroupRefusal): string {
  switch (refusal) {
    case "premium_only":
      return ctx.t("access-group-premium-only");
    case "chat_not_allowed":
      return ctx.t("access-group-not-allowed");
    case "not_admin":
      return ctx.t("access-group-admins-only");
    case "check_failed":
      return ctx.t("access-group-check-failed");
  }
}

/** The access check to pass as `canBuy` to createGiftBot. */
export function createAccessCheck(options: AccessCheckOptions): AccessCheck {
  return async (ctx, request): Promise<AccessCheckDecision> => {
    const chat = ctx.chat;
    const userId = ctx.from?.id;
    if (chat === undefined || userId === undefined) return { allowed: false };
    if (chat.type === "private") {
      if (await options.access.mayBuy(userId)) return { allowed: true };
      const contact = options.contact?.trim();
      return {
        allowed: false,
        text:
          contact === undefined || contact === ""
            ? ctx.t("access-denied", { userId: String(userId) })
            : ctx.t("access-denied-contact", { contact, userId: String(userId) }),
      };
    }
    if (chat.type === "group" || chat.type === "supergroup") {
      const refusal = await checkGroupRequest(ctx, request, options);
      return refusal === undefined
        ? { allowed: true }
        : { allowed: false, text: groupRefusalText(ctx, refusal) };
    }
    // Channels cannot hold a conversation with a buyer.
    return { allowed: false };
  };
}
