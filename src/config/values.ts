/**
 * The building blocks of the settings' schema (./schema.ts): a value that must be set, one line
 * of a header, integers in a range, true or false, URLs, Telegram id lists, the marketplace
 * cookie, decimal amounts and the wallet's words. Each message says why a value is wrong and
 * never repeats it.
 */
import { z } from "zod";
import { type CheckedMnemonic, checkMnemonic, normaliseMnemonic } from "./wallet.js";

const TRUE_WORDS = new Set(["true", "1", "yes"]);
const FALSE_WORDS = new Set(["false", "0", "no"]);

/** A variable that must be set; `what` tells the operator what to put there. */
export function required(what: string) {
  return z.string({ error: () => `is required: ${what}` });
}

/** Header values (cookie, keys, proxy) go on the wire as they are: a line break would break the request. */
export function singleLine(schema: z.ZodString) {
  return schema.refine((value) => !/[\r\n]/.test(value), "must be a single line");
}

/**
 * A value sent as (or in) an HTTP header: only visible ASCII and spaces. undici refuses a
 * header with a control character or one above U+00FF (a zero-width space or a "…" pasted
 * with the cookie) before sending it; refusing it here, at start and at a rotation, names the
 * setting instead of leaving the purchase it would have gone with to fail. Latin-1 letters,
 * which undici would pass, are refused too: none belongs in a cookie, a key, a proxy URL or a
 * user agent. The message never quotes the value: these are secrets.
 */
export function headerSafe<T extends z.ZodType<string>>(schema: T) {
  return schema.refine(
    (value) => /^[\x20-\x7e\r\n]*$/.test(value),
    "contains a character that cannot go in an HTTP header (only visible ASCII letters, digits, signs and spaces can; look for a pasted zero-width space, a typographic quote or an ellipsis)",
  );
}

export function integer(min: number, max: number) {
  return z
    .string()
    .regex(/^-?\d+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));
}

export const boolean = z.string().transform((value, ctx) => {
  const word = value.toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  ctx.addIssue({ code: "custom", message: "must be true/false, yes/no or 1/0" });
  return z.NEVER;
});

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** https, or http on this machine (the demo opens the app in a local browser). */
export function isAppUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      url.protocol === "https:" ||
      (url.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname))
    );
  } catch {
    return false;
  }
}

/** An http(s) URL without its trailing slash, so callers can append paths. */
export function httpUrl(schema: z.ZodString = z.string()) {
  return schema
    .refine(isHttpUrl, "must be an http:// or https:// URL")
    .transform((value) => value.replace(/\/+$/, ""));
}

/** Comma-separated Telegram ids. Users are positive; chats may be negative (groups). */
export function idList(kind: "user" | "chat", base: z.ZodString = z.string()) {
  return base.transform((value, ctx) => {
    const entries = value
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean);
    const ids: number[] = [];
    for (const entry of entries) {
      const id = /^-?\d{1,16}$/.test(entry) ? Number(entry) : Number.NaN;
      const fits = Number.isSafeInteger(id) && (kind === "user" ? id > 0 : id !== 0);
      if (!fits) {
        const expected = kind === "user" ? "a positive whole number" : "a non-zero whole number";
        ctx.addIssue({
          code: "custom",
          message: `"${entry}" is not a Telegram ${kind} id (${expected})`,
        });
        return z.NEVER;
      }
      ids.push(id);
    }
    return ids;
  });
}

/** The marketplace session is the cookie `stel_ssid`; the header may carry others too. */
export function hasStelSsid(cookieHeader: string): boolean {
  return cookieHeader.split(";").some((pair) => {
    const [name, ...rest] = pair.split("=");
    return name?.trim() === "stel_ssid" && rest.join("=").trim().length > 0;
  });
}

export const decimal = z
  .string()
  .regex(/^\d+(\.\d+)?$/, "must be a non-negative decimal number like 1.5 (no sign, no exponent)");

export const mnemonic = required(
  "the paying wallet's 12, 18 or 24 words, separated by spaces",
).transform(async (phrase, ctx): Promise<Extract<CheckedMnemonic, { ok: true }>> => {
  const checked = await checkMnemonic(normaliseMnemonic(phrase));
  if (!checked.ok) {
    ctx.addIssue({ code: "custom", message: checked.reason });
    return z.NEVER;
  }
  return checked;
});
