/**
 * A bot with admins, buyers and an allowed group, built by the one composition root
 * (openApp) on the real harness: the access check, the admin commands, group gifting and the
 * admin notifications are all there, as in production.
 */
import type { Message, Update, User } from "grammy/types";
import type { AccessList } from "../../src/access/access-list.js";
import type { BalanceAlerts } from "../../src/bot/index.js";
import type { AccessConfig } from "../../src/config/index.js";
import type { BotHarness, BotHarnessOptions } from "../../tools/testing/bot-harness.js";
import type { CannedAnswer } from "../../tools/testing/telegram-fake.js";
import { testUser } from "../../tools/testing/updates.js";
import { harness } from "./bot.js";

export const ADMIN = testUser(1001, { first_name: "Ada", username: "ada_admin" });
export const ADMIN2 = testUser(1002, { first_name: "Boris", language_code: "ru" });
export const BUYER = testUser(2001, { first_name: "Bea", username: "bea_buyer" });
export const STRANGER = testUser(3001, { first_name: "Sam" });
export const GROUP_ID = -100_500;
export const OTHER_GROUP_ID = -100_600;
export const WALLET = {
  address: "UQ_test_wallet_address_0000000000000000000000000",
  version: "v5r1" as const,
};

/** What the admin tests wait on and run by hand: the current process's background work. */
interface AdminFeatures {
  /** Resolves when the admin messages started so far are sent. */
  idle(): Promise<void>;
  /** The app's minute timer's group clean-up. */
  sweepGroups(): Promise<number>;
}

export interface AdminWorld {
  h: BotHarness;
  /** The current process's background work (rebuilt on restart). */
  readonly features: AdminFeatures;
  readonly access: AccessList;
}

export async function adminWorld(
  options: {
    access?: Partial<AccessConfig>;
    alerts?: BalanceAlerts;
    /** ADMIN_CONTACT: whom strangers are told to ask. */
    contact?: string;
  } & Omit<BotHarnessOptions, "dir" | "access" | "alerts" | "wallet"> = {},
): Promise<AdminWorld> {
  const { access: accessOverrides, alerts, contact, ...harnessOptions } = options;
  const { adminIds, ...access } = {
    adminIds: [ADMIN.id, ADMIN2.id],
    allowedUserIds: [BUYER.id],
    allowedChatIds: [GROUP_ID],
    publicPurchases: false,
    ...accessOverrides,
  };
  const h = await harness({
    ...harnessOptions,
    admins: [...adminIds],
    access: { ...access, adminContact: contact },
    ...(alerts ? { alerts } : {}),
    wallet: WALLET,
  });
  return {
    h,
    features: {
      idle: () => h.app.notifier.idle(),
      sweepGroups: () => h.app.sweepGroups(),
    },
    get access() {
      return h.app.access;
    },
  };
}

let nextUpdateId = 500_000;
let nextMessageId = 50_000;

function commandEntities(text: string) {
  const command = /^\/[A-Za-z0-9_]+(@[A-Za-z0-9_]+)?/.exec(text);
  return command
    ? { entities: [{ type: "bot_command" as const, offset: 0, length: command[0].length }] }
    : {};
}

/** A message in a group, optionally replying to another one. */
export function groupMessage(
  from: User,
  chatId: number,
  text: string,
  extra: { replyTo?: Message; title?: string } = {},
): { update: Update; message: Message } {
  const message = {
    message_id: nextMessageId++,
    date: Math.floor(Date.now() / 1000),
    chat: { id: chatId, type: "supergroup", title: extra.title ?? "Family" },
    from,
    text,
    ...commandEntities(text),
    ...(extra.replyTo ? { reply_to_message: extra.replyTo } : {}),
  } as Message;
  return { update: { update_id: nextUpdateId++, message } as Update, message };
}

/** A private message that carries a forward origin (a message the admin forwarded). */
export function forwardedMessage(
  from: User,
  origin: NonNullable<Message["forward_origin"]>,
  text = "hello",
): Message {
  // tsc needs this assertion (the literal's reply_to_message would not fit), whatever the rule says.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
  return {
    message_id: nextMessageId++,
    date: Math.floor(Date.now() / 1000),
    chat: { id: from.id, type: "private", first_name: from.first_name },
    from,
    text,
    forward_origin: origin,
  } as Message;
}

/** A private message (command or text) from `from`, optionally replying to `replyTo`. */
export function privateMessage(from: User, text: string, replyTo?: Message): Update {
  return {
    update_id: nextUpdateId++,
    message: {
      message_id: nextMessageId++,
      date: Math.floor(Date.now() / 1000),
      chat: { id: from.id, type: "private", first_name: from.first_name },
      from,
      text,
      ...commandEntities(text),
      ...(replyTo ? { reply_to_message: replyTo } : {}),
    },
  } as Update;
}

/** Answers getChatMember from a table of statuses per chat; everyone else is a member. */
export function memberStatuses(h: BotHarness): Map<string, string> {
  const statuses = new Map<string, string>();
  h.telegram.answer("getChatMember", (payload): CannedAnswer => {
    const status =
      statuses.get(`${Number(payload.chat_id)}:${Number(payload.user_id)}`) ?? "member";
    return {
      ok: true,
      result: {
        status,
        user: { id: Number(payload.user_id), is_bot: false, first_name: "Member" },
        ...(status === "administrator" ? { can_be_edited: false } : {}),
      },
    };
  });
  return statuses;
}

/** Texts the bot sent (sendMessage) to a chat after `since`. */
export function sentTexts(h: BotHarness, chatId: number, since = 0): string[] {
  return h.telegram
    .callsSince(since)
    .filter((c) => c.method === "sendMessage" && Number(c.payload.chat_id) === chatId)
    .map((c) => String(c.payload.text));
}
