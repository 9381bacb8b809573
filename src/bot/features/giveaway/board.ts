/**
 * The giveaways between /giveaway and Confirm, in memory: each one's kind, its recipients as
 * read and as checked, whose it is and where its messages are. Nothing here is money: until
 * Confirm nothing is recorded or bought, so a restart simply forgets them (a press on an
 * old card is then answered as stale, and the admin runs /giveaway again).
 *
 * One giveaway per admin: a new one stops and forgets the admin's older one, so an old card's
 * Confirm can never send a list the admin has since replaced.
 */
import { randomBytes } from "node:crypto";
import type { GiftKind } from "../../../gifts/catalogue.js";
import type { CheckedRecipients } from "./check.js";
import type { RecipientList } from "./recipients.js";

/** How long a checked list may be confirmed: the checks grow old (someone buys Premium). */
const CHECKED_LIST_TTL_MS = 30 * 60_000;

export interface Giveaway {
  readonly id: string;
  /** The admin who runs it: the only one whose presses count. */
  readonly ownerId: number;
  readonly chatId: number;
  /** The admin's language, for the messages sent when no update is being answered. */
  readonly locale: string;
  readonly kind: GiftKind;
  /** Stars per recipient, or Premium months. */
  readonly quantity: number;
  /** The recipients as read from the admin's list. */
  readonly list: RecipientList;
  readonly startedAt: number;
  /**
   * `checking` until the checks end, then `checked` (the card is up), `confirmed` once its
   * Confirm was pressed (only its list may still be downloaded), `closed` once cancelled,
   * stopped or replaced.
   */
  phase: "checking" | "checked" | "confirmed" | "closed";
  /** Set when the checks end. */
  checked?: CheckedRecipients;
  checkedAt?: number;
  /** Aborted by the admin's Stop (or a new giveaway, or the bot stopping). */
  readonly stop: AbortController;
}

export type NewGiveaway = Omit<Giveaway, "id" | "phase" | "stop" | "checked" | "checkedAt">;

/** A new giveaway id: 9 random bytes, 12 characters of base64url (GIVEAWAY_ID_PATTERN). */
function newGiveawayId(): string {
  return randomBytes(9).toString("base64url");
}

export class GiveawayBoard {
  readonly #giveaways = new Map<string, Giveaway>();
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  /** Registers a new giveaway in `checking`, stopping and forgetting the owner's older one. */
  open(giveaway: NewGiveaway): Giveaway {
    for (const old of [...this.#giveaways.values()]) {
      if (old.ownerId === giveaway.ownerId) this.#forget(old);
    }
    const opened: Giveaway = {
      ...giveaway,
      id: newGiveawayId(),
      phase: "checking",
      stop: new AbortController(),
    };
    this.#giveaways.set(opened.id, opened);
    return opened;
  }

  /** The giveaway, unless it is unknown, closed or its checked list has grown too old. */
  get(id: string): Giveaway | undefined {
    const giveaway = this.#giveaways.get(id);
    if (giveaway === undefined || giveaway.phase === "closed") return undefined;
    if (
      giveaway.checkedAt !== undefined &&
      this.#now() - giveaway.checkedAt > CHECKED_LIST_TTL_MS
    ) {
      this.#forget(giveaway);
      return undefined;
    }
    return giveaway;
  }

  /** The checks are done: the card may be shown and pressed. */
  checked(giveaway: Giveaway, checked: CheckedRecipients): void {
    giveaway.checked = checked;
    giveaway.checkedAt = this.#now();
    giveaway.phase = "checked";
  }

  /**
   * Marks a checked giveaway confirmed: true for the one press that confirmed it, false when
   * it is not (or no longer) waiting for Confirm, so a double press sends once.
   */
  confirm(giveaway: Giveaway): boolean {
    if (giveaway.phase !== "checked") return false;
    giveaway.phase = "confirmed";
    return true;
  }

  /**
   * Closes it for good (Cancel, stopped checks): true for the one press that closed
   * it, false when it already was, so a double press acts once.
   */
  close(giveaway: Giveaway): boolean {
    if (giveaway.phase === "closed") return false;
    this.#forget(giveaway);
    return true;
  }

  /** Stops every check under way (the bot is stopping). */
  stopAll(): void {
    for (const giveaway of this.#giveaways.values()) giveaway.stop.abort();
  }

  #forget(giveaway: Giveaway): void {
    giveaway.phase = "closed";
    giveaway.stop.abort();
    this.#giveaways.delete(giveaway.id);
  }
}
