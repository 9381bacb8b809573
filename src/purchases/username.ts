/**
 * What a person typed, turned into the username the service expects: `@name`, `name`, or a
 * `t.me/name` link (also telegram.me and telegram.dog, with or without a query). One parser for
 * the chat flows and the desk, checked against the spec's pattern (2.1), so a name the bot
 * accepts is exactly a name the service accepts.
 */
import { USERNAME_PATTERN } from "../gifts/catalogue.js";

const LINK =
  /^(?:https?:\/\/)?(?:www\.)?(?:t\.me|telegram\.me|telegram\.dog)\/([^/?#\s]+)\/?(?:[?#].*)?$/i;

/** The bare username (no `@`), or `undefined` when the input cannot be one. */
export function normaliseUsername(input: string): string | undefined {
  const text = input.trim();
  const fromLink = LINK.exec(text)?.[1];
  const candidate = fromLink ?? (text.startsWith("@") ? text.slice(1) : text);
  // The spec's pattern allows one leading `@`; the bare name must not start with another.
  return !candidate.startsWith("@") && USERNAME_PATTERN.test(candidate) ? candidate : undefined;
}
