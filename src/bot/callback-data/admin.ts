/**
 * The admins' buttons. Untrusted like all callback data; the handler also checks who pressed.
 * - `adm:page:<offset>`                 (/purchases paging; offset a multiple of the page size)
 * - `adm:open:<intentId>`               (/purchases: open one purchase of the page in full)
 * - `adm:res:<y|n>:<intentId>`          (/pending and notifications: delivered / not delivered)
 * - `adm:who:<allow|deny>:<userId>`     (a forwarded message: allow or deny its sender)
 * - `adm:resume`                        (the breaker's message: reopen purchases)
 */
import { INTENT_ID_PATTERN } from "../../gifts/catalogue.js";

/** Routes every press with this prefix, well-formed or not, to the admin handler. */
export const ADMIN_DATA = /^adm:/;

/** Recent intents shown per /purchases page. */
export const PURCHASES_PAGE_SIZE = 5;
/** Pages beyond this are not offered (the ledger keeps everything; /purchases <id> finds any). */
const MAX_OFFSET = 10_000;

const WHOLE = /^(0|[1-9][0-9]{0,5})$/;
const USER_ID = /^[1-9][0-9]{0,15}$/;

export type AdminAction =
  | { type: "page"; offset: number }
  | { type: "open"; intentId: string }
  | { type: "resolve"; intentId: string; delivered: boolean }
  | { type: "who"; userId: number; allow: boolean }
  | { type: "resume" };

export function encodeAdmin(action: AdminAction): string {
  switch (action.type) {
    case "page":
      return `adm:page:${action.offset}`;
    case "open":
      return `adm:open:${action.intentId}`;
    case "resolve":
      return `adm:res:${action.delivered ? "y" : "n"}:${action.intentId}`;
    case "who":
      return `adm:who:${action.allow ? "allow" : "deny"}:${action.userId}`;
    case "resume":
      return "adm:resume";
  }
}

export function decodeAdmin(data: string): AdminAction | undefined {
  if (data === "adm:resume") return { type: "resume" };
  const parts = data.split(":");
  if (parts[0] !== "adm") return undefined;
  const [, type, a = "", b = ""] = parts;
  if (type === "page" && parts.length === 3 && WHOLE.test(a)) {
    const offset = Number(a);
    if (offset > MAX_OFFSET || offset % PURCHASES_PAGE_SIZE !== 0) return undefined;
    return { type: "page", offset };
  }
  if (type === "open" && parts.length === 3 && INTENT_ID_PATTERN.test(a)) {
    return { type: "open", intentId: a };
  }
  if (
    type === "res" &&
    parts.length === 4 &&
    (a === "y" || a === "n") &&
    INTENT_ID_PATTERN.test(b)
  ) {
    return { type: "resolve", intentId: b, delivered: a === "y" };
  }
  if (type === "who" && parts.length === 4 && (a === "allow" || a === "deny") && USER_ID.test(b)) {
    const userId = Number(b);
    if (!Number.isSafeInteger(userId)) return undefined;
    return { type: "who", userId, allow: a === "allow" };
  }
  return undefined;
}
