/**
 * The Bot API methods of the bot's own Telegram Stars (issue #39), on the emulator's state: the
 * balance and the books, Premium gifted from the balance, invoices in Stars with their "Pay"
 * button, the pre-checkout query and the paid message, and refunds. The Stars themselves are
 * the shared model (./stars.ts), with its faults.
 */
import { badRequest } from "./errors.js";
import {
  optionalBool,
  optionalInt,
  optionalJson,
  optionalString,
  type Params,
  requiredInt,
} from "./params.js";
import { invoiceStars } from "./stars.js";
import { type EmulatorState, nowSeconds } from "./state.js";
import type { ApiMessage } from "./types.js";

type Handler = (state: EmulatorState, params: Params) => unknown;

function personUser(state: EmulatorState, userId: number) {
  const person = state.people.get(userId);
  if (person === undefined) throw badRequest("USER_ID_INVALID");
  const { id, first_name: firstName, username } = person.user;
  return { id, is_bot: false as const, first_name: firstName, ...(username ? { username } : {}) };
}

function getMyStarBalance(state: EmulatorState): unknown {
  return state.stars.myStarBalance();
}

function getStarTransactions(state: EmulatorState, params: Params): unknown {
  return state.stars.starTransactions(
    optionalInt(params, "offset") ?? 0,
    Math.min(optionalInt(params, "limit") ?? 100, 100),
  );
}

function giftPremiumSubscription(state: EmulatorState, params: Params): unknown {
  const user = personUser(state, requiredInt(params, "user_id"));
  return state.stars.giftPremium(
    user,
    requiredInt(params, "month_count"),
    requiredInt(params, "star_count"),
  );
}

/** An invoice in Stars, shown with its "Pay" button as a Telegram client shows it. */
function sendInvoice(state: EmulatorState, params: Params): ApiMessage {
  const chat = state.requireChat(requiredInt(params, "chat_id"));
  const title = optionalString(params, "title") ?? "";
  const description = optionalString(params, "description") ?? "";
  const payload = optionalString(params, "payload") ?? "";
  if (title === "" || description === "" || payload === "") throw badRequest("invoice is empty");
  const stars = invoiceStars(params.currency, optionalJson(params, "prices"));
  const stored = state.addMessage(chat, (messageId) => ({
    message_id: messageId,
    from: { ...state.bot },
    chat: { ...chat.chat },
    date: nowSeconds(),
    text: `${title}\n${description}`,
    invoice: { title, description, start_parameter: "", currency: "XTR", total_amount: stars },
    reply_markup: { inline_keyboard: [[{ text: `Pay ⭐️${stars}`, pay: true }]] },
  }));
  const messageId = stored.message.message_id;
  state.stars.invoiceSent({ chatId: chat.chat.id, messageId, payload, stars });
  return structuredClone(stored.message);
}

/**
 * A person pays an invoice (its "Pay" button): Telegram asks the bot first, with a pre-checkout
 * query; the charge happens only when the bot says yes. Returns the update's id.
 */
export function payInvoice(
  state: EmulatorState,
  userId: number,
  chatId: number,
  messageId: number,
): number {
  const invoice = state.stars.invoiceOn(chatId, messageId);
  if (invoice === undefined) throw badRequest("invoice not found");
  const id = `pcq${state.newQueryId()}`;
  state.checkouts.set(id, { userId, chatId, messageId });
  return state.enqueue({
    pre_checkout_query: {
      id,
      from: { ...(state.people.get(userId)?.user ?? personUser(state, userId)) },
      currency: "XTR",
      total_amount: invoice.stars,
      invoice_payload: invoice.payload,
    },
  });
}

/** The bot's answer to a pre-checkout query: yes charges the person, and the paid message comes. */
function answerPreCheckoutQuery(state: EmulatorState, params: Params): boolean {
  const id = optionalString(params, "pre_checkout_query_id") ?? "";
  const checkout = state.checkouts.get(id);
  if (checkout === undefined) throw badRequest("QUERY_ID_INVALID");
  state.checkouts.delete(id);
  if (optionalBool(params, "ok") !== true) return true;
  const invoice = state.stars.invoiceOn(checkout.chatId, checkout.messageId);
  const chat = state.requireChat(checkout.chatId);
  const person = state.people.get(checkout.userId);
  if (invoice === undefined || person === undefined) throw badRequest("QUERY_ID_INVALID");
  const payment = state.stars.paid(personUser(state, checkout.userId), invoice);
  const stored = state.addMessage(chat, (messageId) => ({
    message_id: messageId,
    from: { ...person.user },
    chat: { ...chat.chat },
    date: nowSeconds(),
    successful_payment: payment,
  }));
  state.enqueue({ message: stored.message });
  return true;
}

function refundStarPayment(state: EmulatorState, params: Params): unknown {
  const userId = requiredInt(params, "user_id");
  const chargeId = optionalString(params, "telegram_payment_charge_id") ?? "";
  return state.stars.refund(userId, chargeId, personUser(state, userId));
}

export const STARS_HANDLERS: Record<string, Handler> = {
  getMyStarBalance,
  getStarTransactions,
  giftPremiumSubscription,
  sendInvoice,
  answerPreCheckoutQuery,
  refundStarPayment,
};
