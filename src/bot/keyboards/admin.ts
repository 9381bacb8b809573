/**
 * The admins' keyboards: /purchases paging, Delivered / Not delivered for an unconfirmed
 * purchase, allow or deny the sender of a forwarded message, and Resume under the breaker's message.
 */
import { InlineKeyboard } from "grammy";
import { encodeAdmin, PURCHASES_PAGE_SIZE } from "../callback-data/admin.js";
import type { Translate } from "../context.js";

/**
 * Under a /purchases page: one numbered button per line (the number the line starts with), which
 * opens that purchase in full, then Newer / Older when there is more than one page.
 */
export function purchasesKeyboard(
  t: Translate,
  offset: number,
  page: { intentIds: readonly string[]; hasOlder: boolean },
): InlineKeyboard | undefined {
  const { intentIds, hasOlder } = page;
  if (intentIds.length === 0 && offset === 0 && !hasOlder) return undefined;
  const keyboard = new InlineKeyboard();
  intentIds.forEach((intentId, index) =>
    keyboard.text(
      t("button-admin-open", { number: offset + index + 1 }),
      encodeAdmin({ type: "open", intentId }),
    ),
  );
  if (intentIds.length > 0) keyboard.row();
  if (offset > 0) {
    keyboard.text(
      t("button-admin-newer"),
      encodeAdmin({ type: "page", offset: Math.max(0, offset - PURCHASES_PAGE_SIZE) }),
    );
  }
  if (hasOlder) {
    keyboard.text(
      t("button-admin-older"),
      encodeAdmin({ type: "page", offset: offset + PURCHASES_PAGE_SIZE }),
    );
  }
  return keyboard;
}

/** Delivered / Not delivered for one unconfirmed intent. */
export function resolveKeyboard(t: Translate, intentId: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(t("button-admin-delivered"), encodeAdmin({ type: "resolve", intentId, delivered: true }))
    .text(
      t("button-admin-not-delivered"),
      encodeAdmin({ type: "resolve", intentId, delivered: false }),
    );
}

/** The Resume button under the breaker's message: reopens purchases. */
export function resumeKeyboard(t: Translate): InlineKeyboard {
  return new InlineKeyboard().text(t("button-admin-resume"), encodeAdmin({ type: "resume" }));
}

/** Allow or deny the sender of a message an admin forwarded. */
export function whoKeyboard(t: Translate, userId: number): InlineKeyboard {
  return new InlineKeyboard()
    .text(t("button-admin-allow"), encodeAdmin({ type: "who", userId, allow: true }))
    .text(t("button-admin-deny"), encodeAdmin({ type: "who", userId, allow: false }));
}
