/**
 * Who is asking: the Mini App's init data (Telegram signs it with a key made from the bot's
 * token) sent as `Authorization: tma <init data>` with every API call. The signature is checked
 * with @grammyjs/validator; data older than the setting (ADMIN_APP_MAX_AGE_SECONDS) is refused,
 * so a link or a header that leaked stops working; then only admins pass.
 */
import { validateWebAppData } from "@grammyjs/validator";

/** The person the init data names (only what the app uses). */
export interface AppUser {
  id: number;
  /** Telegram's language of their app (`ru`, `en-GB`...), when given. */
  languageCode: string | undefined;
}

export type InitDataCheck =
  | { ok: true; user: AppUser; authDate: number }
  /** 401: nothing sent, a bad signature, or too old. */
  | { ok: false; status: 401; reason: "missing" | "forged" | "stale" }
  /** 403: a real Telegram user who is not an admin. */
  | { ok: false; status: 403; reason: "not_admin" };

export interface InitDataRules {
  token: string;
  maxAgeSeconds: number;
  isAdmin: (userId: number) => boolean;
  /** Seconds since the epoch, now. */
  nowSeconds: () => number;
}

/** Longest header taken: real init data is well under 4 KB. */
const MAX_INIT_DATA_LENGTH = 8192;

/** How far in the future an `auth_date` may be (clocks differ a little). */
const CLOCK_SKEW_SECONDS = 60;

/** Checks an `Authorization` header's init data against the rules. */
export function checkInitData(header: string | undefined, rules: InitDataRules): InitDataCheck {
  const raw = /^tma (.+)$/.exec(header ?? "")?.[1];
  if (raw === undefined || raw.length > MAX_INIT_DATA_LENGTH) {
    return { ok: false, status: 401, reason: "missing" };
  }
  const data = new URLSearchParams(raw);
  if (!data.has("hash") || !validateWebAppData(rules.token, data)) {
    return { ok: false, status: 401, reason: "forged" };
  }
  const authDate = Number(data.get("auth_date"));
  const age = rules.nowSeconds() - authDate;
  if (!Number.isInteger(authDate) || age > rules.maxAgeSeconds || age < -CLOCK_SKEW_SECONDS) {
    return { ok: false, status: 401, reason: "stale" };
  }
  const user = userOf(data.get("user"));
  if (user === undefined) return { ok: false, status: 401, reason: "forged" };
  if (!rules.isAdmin(user.id)) return { ok: false, status: 403, reason: "not_admin" };
  return { ok: true, user, authDate };
}

/** The `user` field's id and language; undefined when it is not a signed user object. */
function userOf(json: string | null): AppUser | undefined {
  try {
    const parsed = JSON.parse(json ?? "") as { id?: unknown; language_code?: unknown };
    if (typeof parsed.id !== "number" || !Number.isSafeInteger(parsed.id)) return undefined;
    return {
      id: parsed.id,
      languageCode: typeof parsed.language_code === "string" ? parsed.language_code : undefined,
    };
  } catch {
    return undefined;
  }
}
