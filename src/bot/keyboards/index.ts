/**
 * Inline keyboards. Every label comes from the locale files; every data string from the
 * callback-data encoders, so the decoders on the other side always agree with what was sent.
 */
import { InlineKeyboard } from "grammy";
import type { PurchaseIntent } from "../../ledger/types.js";
import { encodeSummary } from "../callback-data/buy.js";
import { encodeFlow } from "../callback-data/flow.js";
import { encodeLanguage, LOCALES } from "../callback-data/lang.js";
import { encodeMenu } from "../callback-data/menu.js";
import {
  type PaymentMethod,
  PREMIUM_DURATIONS,
  type PremiumDuration,
  STAR_AMOUNT_PRESETS,
} from "../../gifts/catalogue.js";
import type { Translate } from "../context.js";

/** The start menu: begin a stars or a premium flow. */
export function startMenuKeyboard(t: Translate): InlineKeyboard {
  return new InlineKeyboard()
    .text(t("button-gift-stars"), encodeMenu("stars"))
    .text(t("button-gift-premium"), encodeMenu("premium"));
}

/** Under a prompt that expects typed text: only a way out. */
export function cancelKeyboard(t: Translate): InlineKeyboard {
  return new InlineKeyboard().text(t("button-cancel"), encodeFlow({ type: "cancel" }));
}

/** Amount presets (only those within the configured per-purchase limit), another amount, cancel. */
export function amountKeyboard(t: Translate, max: number): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  const presets = STAR_AMOUNT_PRESETS.filter((amount) => amount <= max);
  presets.forEach((amount, index) => {
    keyboard.text(t("button-amount", { amount }), encodeFlow({ type: "amount", amount }));
    if (index % 3 === 2) keyboard.row();
  });
  if (presets.length % 3 !== 0) keyboard.row();
  return keyboard
    .text(t("button-amount-other"), encodeFlow({ type: "amount-other" }))
    .row()
    .text(t("button-cancel"), encodeFlow({ type: "cancel" }));
}

/** A duration prompt's press: the private flow and the group flow encode it each their way. */
export type DurationChoice = { type: "duration"; months: PremiumDuration } | { type: "cancel" };

/**
 * Premium durations, then cancel, for the private flow (`encodeFlow`) and the group flow
 * (`encodeGroup`) alike: the buttons are the same, only their callback data differs.
 */
export function durationKeyboard(
  t: Translate,
  encode: (choice: DurationChoice) => string,
): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  for (const months of PREMIUM_DURATIONS) {
    keyboard.text(t("button-duration", { months }), encode({ type: "duration", months }));
  }
  return keyboard.row().text(t("button-cancel"), encode({ type: "cancel" }));
}

/** The other payment method than the one chosen. */
function otherMethod(method: PaymentMethod): PaymentMethod {
  return method === "ton" ? "usdt_ton" : "ton";
}

/**
 * Confirm / Cancel, all keyed by the intent id; in a private chat also a switch to the other
 * payment method (groups stay short: they pay with the configured method).
 */
export function summaryKeyboard(t: Translate, intent: PurchaseIntent): InlineKeyboard {
  const keyboard = new InlineKeyboard()
    .text(t("button-confirm"), encodeSummary({ type: "confirm", intentId: intent.id }))
    .text(t("button-cancel"), encodeSummary({ type: "cancel", intentId: intent.id }));
  // Paid in the bot's Stars: there is no wallet to pay in one currency or another.
  if (intent.requester.chatType !== "private" || intent.paidVia === "telegram") return keyboard;
  const other = otherMethod(intent.paymentMethod);
  return keyboard
    .row()
    .text(
      t("button-switch-method", { method: t(`method-${other}`) }),
      encodeSummary({ type: "method", intentId: intent.id, method: other }),
    );
}

/** One button per locale, each labelled in its own language. */
export function languageKeyboard(t: Translate): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  for (const locale of LOCALES) keyboard.text(t(`language-name-${locale}`), encodeLanguage(locale));
  return keyboard;
}
