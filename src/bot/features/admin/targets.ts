/**
 * Who an admin means by /allow or /deny: a user id typed after the command, or the person a
 * replied-to (or forwarded) message comes from. Telegram only shows a forwarded message's
 * sender when that person allows it; a hidden sender gets a clear explanation, never a guess.
 */
import type { Message, MessageOrigin } from "grammy/types";

export type Target =
  | { kind: "user"; id: number; label: string | undefined }
  /** Forwarded from a person who hides their account: only the name is known. */
  | { kind: "hidden"; name: string }
  /** Forwarded from a chat or channel, not a person. */
  | { kind: "not_person" }
  /** Nothing usable: the admin gets the usage. */
  | { kind: "none" };

const USER_ID = /^[1-9][0-9]{0,15}$/;

/** The target of a forwarded message's origin. */
export function targetOfOrigin(origin: MessageOrigin): Target {
  switch (origin.type) {
    case "user":
      return {
        kind: "user",
        id: origin.sender_user.id,
        label: labelOf(origin.sender_user),
      };
    case "hidden_user":
      return { kind: "hidden", name: origin.sender_user_name };
    default:
      return { kind: "not_person" };
  }
}

/**
 * The target of `/allow <args>` sent as `message`: the id in the arguments, else the origin of
 * the replied-to message when it was forwarded, else its author when that is a person.
 */
export function targetOf(message: Message, args: string, botId: number): Target {
  const typed = args.trim();
  if (typed !== "") {
    if (!USER_ID.test(typed)) return { kind: "none" };
    const id = Number(typed);
    return Number.isSafeInteger(id) ? { kind: "user", id, label: undefined } : { kind: "none" };
  }
  const replied = message.reply_to_message;
  if (replied === undefined) return { kind: "none" };
  if (replied.forward_origin !== undefined) return targetOfOrigin(replied.forward_origin);
  const author = replied.from;
  if (author === undefined || author.is_bot || author.id === botId) return { kind: "none" };
  if (author.id === message.from?.id) return { kind: "none" };
  return { kind: "user", id: author.id, label: labelOf(author) };
}

function labelOf(user: { username?: string; first_name: string }): string {
  return user.username !== undefined ? `@${user.username}` : user.first_name;
}
