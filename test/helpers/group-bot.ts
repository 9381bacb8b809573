/**
 * A group where Gina administers (and creates another group), on the admin world: say things,
 * press buttons by label, read the newest message.
 */
import type { User } from "grammy/types";
import { testUser } from "../../tools/testing/updates.js";
import { adminWorld, GROUP_ID, groupMessage, memberStatuses, OTHER_GROUP_ID } from "./admin-bot.js";

/** A group administrator who is neither a bot admin nor an allowed buyer. */
export const GINA = testUser(5001, { first_name: "Gina" });
export const MIA = testUser(5002, { first_name: "Mia", username: "mia_member" });
export const NOAH = testUser(5003, { first_name: "Noah" });

export async function groupWorld(options: Parameters<typeof adminWorld>[0] = {}) {
  const world = await adminWorld(options);
  const statuses = memberStatuses(world.h);
  statuses.set(`${GROUP_ID}:${GINA.id}`, "administrator");
  statuses.set(`${OTHER_GROUP_ID}:${GINA.id}`, "creator");
  const { h } = world;

  async function say(
    from: User,
    text: string,
    replyTo?: ReturnType<typeof groupMessage>,
    chatId = GROUP_ID,
  ) {
    const sent = groupMessage(from, chatId, text, replyTo ? { replyTo: replyTo.message } : {});
    await h.send(sent.update);
    return sent;
  }

  function findButton(label: string, chatId = GROUP_ID) {
    const messages = h.telegram.messagesIn(chatId);
    for (let i = messages.length - 1; i >= 0; i--) {
      const message = messages[i];
      for (const row of message?.reply_markup?.inline_keyboard ?? []) {
        for (const button of row) {
          if (button.text === label && "callback_data" in button && message) {
            return { messageId: message.message_id, data: button.callback_data };
          }
        }
      }
    }
    throw new Error(`No button "${label}" in the group`);
  }

  async function press(from: User, label: string, chatId = GROUP_ID) {
    const { messageId, data } = findButton(label, chatId);
    const shown = h.telegram.message(chatId, messageId);
    await h.send(
      h.updates.callback(from, data, messageId, chatId, {
        ...(shown?.text !== undefined ? { text: shown.text } : {}),
        ...(shown?.reply_markup ? { reply_markup: shown.reply_markup } : {}),
      }),
    );
  }

  const last = (chatId = GROUP_ID) => h.telegram.messagesIn(chatId).at(-1);
  const memberChecks = () => h.telegram.callsOf("getChatMember").length;
  return { ...world, statuses, say, press, findButton, last, memberChecks };
}
