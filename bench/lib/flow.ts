/**
 * The stars flow as a simulated person goes through it: each step's update is built from what
 * the bot last showed in that person's chat (the button to press must be on screen), so a bot
 * that answered wrongly makes the bench fail loudly instead of measuring nonsense.
 */
import type { Update, User } from "grammy/types";
import { testUser, type UpdateFactory } from "../../tools/testing/updates.js";
import type { TelegramStub } from "./telegram-stub.js";

/** The five updates of a complete stars flow. */
export const STARS_STEPS = ["start", "menu", "recipient", "amount", "confirm"] as const;
export type StarsStep = (typeof STARS_STEPS)[number];

export interface Person {
  user: User;
  recipient: string;
}

/** People with ids from `firstId`, each with a distinct recipient; every other one speaks Russian. */
export function people(count: number, firstId: number, recipientPrefix: string): Person[] {
  return Array.from({ length: count }, (_, i) => ({
    user: testUser(firstId + i, { language_code: i % 2 === 0 ? "en" : "ru" }),
    recipient: `${recipientPrefix}${i}`,
  }));
}

/** Thrown when the bot did not show what the next step needs. */
class UnexpectedScreenError extends Error {
  override readonly name = "UnexpectedScreenError";
}

function press(
  stub: TelegramStub,
  updates: UpdateFactory,
  person: Person,
  matches: (data: string) => boolean,
  what: string,
): Update {
  const chatId = person.user.id;
  const keyboard = stub.keyboard(chatId);
  const data = keyboard?.data.find(matches);
  if (keyboard === undefined || data === undefined) {
    throw new UnexpectedScreenError(
      `chat ${chatId}: no ${what} button; the bot last said: ${JSON.stringify(stub.lastText(chatId))}`,
    );
  }
  return updates.callback(person.user, data, keyboard.messageId, chatId, { text: keyboard.text });
}

/** The update a person sends at `step`, given what the bot shows them now. */
export function stepUpdate(
  step: StarsStep,
  person: Person,
  stub: TelegramStub,
  updates: UpdateFactory,
): Update {
  switch (step) {
    case "start":
      return updates.command(person.user, "start");
    case "menu":
      return press(stub, updates, person, (d) => d === "menu:stars", "Gift stars");
    case "recipient":
      return updates.text(person.user, `@${person.recipient}`);
    case "amount":
      return press(stub, updates, person, (d) => d === "flow:amount:50", "50 stars");
    case "confirm":
      return press(stub, updates, person, (d) => d.startsWith("buy:confirm:"), "Confirm");
  }
}

/** Whether the chat's last text is a delivered outcome (English or Russian). */
export function delivered(stub: TelegramStub, person: Person): boolean {
  return /^✅ (Delivered|Доставлено)/.test(stub.lastText(person.user.id) ?? "");
}
