/**
 * New intents: their ids, and what a draft must be before it is written. Every store makes and
 * checks them the same way.
 */
import { randomBytes } from "node:crypto";
import { isPremiumDuration, isStarsAmount } from "../gifts/catalogue.js";
import { parseUsername } from "../gifts/username.js";
import { InvalidDraftError } from "./errors.js";
import type { NewIntent } from "./types.js";

/**
 * A new random, unguessable intent id: 16 bytes, base64url (22 characters), never starting
 * with "-": a spreadsheet reads such a cell as a formula, so the accountant's export would
 * have to mark it (`'-...`) and the id in the file would no longer be the id.
 */
export function newIntentId(): string {
  for (;;) {
    const id = randomBytes(16).toString("base64url");
    if (!id.startsWith("-")) return id;
  }
}

/** Throws {@link InvalidDraftError} for a draft the service would refuse; the clean recipient. */
export function checkedRecipient(request: NewIntent): string {
  const recipient = parseUsername(request.recipient);
  if (recipient === undefined) throw new InvalidDraftError("The recipient is not a username.");
  if (!Number.isSafeInteger(request.quantity) || request.quantity <= 0) {
    throw new InvalidDraftError("The quantity must be a positive whole number.");
  }
  // The service's own bounds (src/gifts/catalogue.ts): a draft it would refuse is not worth showing.
  if (request.kind === "stars" && !isStarsAmount(request.quantity)) {
    throw new InvalidDraftError("A stars amount is a whole number from 50 to 1,000,000.");
  }
  if (request.kind === "premium" && !isPremiumDuration(request.quantity)) {
    throw new InvalidDraftError("A premium duration is 3, 6 or 12 months.");
  }
  if (request.paidVia === "telegram") {
    // Telegram gifts Premium only, and only to a user named by id (never a guessed name).
    if (request.kind !== "premium") throw new InvalidDraftError("Only Premium is paid in Stars.");
    const id = request.recipientUserId;
    if (id === undefined || !Number.isSafeInteger(id) || id <= 0) {
      throw new InvalidDraftError("A gift through Telegram needs the recipient's user id.");
    }
  }
  return recipient;
}

/** A giveaway's recipients as stored (without `@`), refusing one that is not a username. */
export function checkedRecipients(recipients: readonly string[]): string[] {
  if (recipients.length === 0) throw new InvalidDraftError("A giveaway needs recipients.");
  return recipients.map((name) => {
    const recipient = parseUsername(name);
    if (recipient === undefined) throw new InvalidDraftError(`"${name}" is not a username.`);
    return recipient;
  });
}
