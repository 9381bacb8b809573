/**
 * A recipient's username, parsed once where it enters (what a person typed, a replied-to
 * member's account, the service's answer) into a {@link Username} that the rest of the code
 * trusts without checking again. The one parser: `@name`, `name`, or a `t.me/name` link (also
 * telegram.me and telegram.dog, with or without a query), checked against the catalogue's
 * {@link USERNAME_PATTERN}, so a name the bot accepts is exactly a name the service accepts.
 */
import { USERNAME_PATTERN } from "./catalogue.js";

/** A valid username without the `@`; only {@link parseUsername} makes one. */
export type Username = string & { readonly __brand: "Username" };

const LINK =
  /^(?:https?:\/\/)?(?:www\.)?(?:t\.me|telegram\.me|telegram\.dog)\/([^/?#\s]+)\/?(?:[?#].*)?$/i;

/** The bare username (no `@`), or `undefined` when the input cannot be one. */
export function parseUsername(input: string): Username | undefined {
  const text = input.trim();
  const fromLink = LINK.exec(text)?.[1];
  const candidate = fromLink ?? (text.startsWith("@") ? text.slice(1) : text);
  // The pattern allows one leading `@`; the bare name must not start with another.
  return !candidate.startsWith("@") && USERNAME_PATTERN.test(candidate)
    ? (candidate as Username)
    : undefined;
}
