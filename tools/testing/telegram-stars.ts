/**
 * The bot's own Telegram Stars on the recording fake (tests of issue #39): the fake answers
 * `getMyStarBalance`, `getStarTransactions`, `giftPremiumSubscription`, `sendInvoice` and
 * `refundStarPayment` from the emulator's model (tools/telegram-emulator/stars.ts), faults
 * included; and makes the updates of a person paying an invoice (the pre-checkout query, then
 * the message with `successful_payment`), as Telegram sends them.
 */
import type { Update, User } from "grammy/types";
import { BotStarsModel, invoiceStars } from "../telegram-emulator/stars.js";
import type { CannedAnswer, RecordedCall, TelegramFake } from "./telegram-fake.js";

export interface FakeStars {
  readonly model: BotStarsModel;
  /** The pre-checkout query Telegram sends when `payer` pays the invoice sent in `call`. */
  preCheckout(payer: User, call: RecordedCall): Update;
  /**
   * The message with `successful_payment` Telegram sends once the bot said yes to the
   * pre-checkout query (the balance grows and the books keep it here).
   */
  paid(payer: User, call: RecordedCall): Update;
}

let nextUpdateId = 900_000;
let nextMessageId = 90_000;

function starUser(id: number, from?: Record<string, unknown>) {
  return {
    id,
    is_bot: false as const,
    first_name: typeof from?.first_name === "string" ? from.first_name : `Person${id}`,
  };
}

const ok = (result: unknown): CannedAnswer => ({ ok: true, result });

/** Installs the Stars on `fake`, with `balance` Stars to start with. */
export function installStars(
  fake: TelegramFake,
  options: { balance?: number; now?: () => number } = {},
): FakeStars {
  const model = new BotStarsModel(options);
  fake.answer("getMyStarBalance", () => ok(model.myStarBalance()));
  fake.answer("getStarTransactions", (p) =>
    ok(model.starTransactions(Number(p.offset ?? 0), Number(p.limit ?? 100))),
  );
  fake.answer("giftPremiumSubscription", (p) => {
    const user = starUser(Number(p.user_id));
    return refusalOr(() => model.giftPremium(user, Number(p.month_count), Number(p.star_count)));
  });
  fake.answer("sendInvoice", (p, _call, fallback) =>
    refusalOr(() => {
      invoiceStars(p.currency, p.prices);
      return (fallback() as { result: unknown }).result;
    }),
  );
  fake.answer("refundStarPayment", (p) =>
    refusalOr(() =>
      model.refund(Number(p.user_id), String(p.telegram_payment_charge_id), starUser(0)),
    ),
  );

  function invoiceOf(call: RecordedCall) {
    const stars = invoiceStars(call.payload.currency, call.payload.prices);
    return {
      chatId: Number(call.payload.chat_id),
      messageId: (call.result as { message_id: number }).message_id,
      payload: String(call.payload.payload),
      stars,
    };
  }

  return {
    model,
    preCheckout: (payer, call) => {
      const invoice = invoiceOf(call);
      return {
        update_id: nextUpdateId++,
        pre_checkout_query: {
          id: `pcq-${nextUpdateId}`,
          from: payer,
          currency: "XTR",
          total_amount: invoice.stars,
          invoice_payload: invoice.payload,
        },
      };
    },
    paid: (payer, call) => {
      const invoice = invoiceOf(call);
      const payment = model.paid(starUser(payer.id, { first_name: payer.first_name }), invoice);
      return {
        update_id: nextUpdateId++,
        message: {
          message_id: nextMessageId++,
          date: Math.floor(Date.now() / 1000),
          chat: { id: invoice.chatId, type: "private", first_name: payer.first_name },
          from: payer,
          successful_payment: payment,
        },
      } as unknown as Update;
    },
  };
}

/** The model's answer, or the Telegram refusal it threw (a dropped answer passes through). */
function refusalOr(run: () => unknown): CannedAnswer {
  try {
    return ok(run());
  } catch (error) {
    if (error instanceof Error && "errorCode" in error && "description" in error) {
      const refusal = error as Error & { errorCode: number; description: string };
      return { ok: false, error_code: refusal.errorCode, description: refusal.description };
    }
    throw error;
  }
}
