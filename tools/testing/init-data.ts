/**
 * Mini App init data signed as Telegram signs it (HMAC-SHA256 under the key
 * HMAC-SHA256("WebAppData", bot token), over the sorted `key=value` lines), for the tests and
 * the demo, which open the admins' app without Telegram.
 */
import { createHmac } from "node:crypto";

export interface InitDataUser {
  id: number;
  first_name: string;
  username?: string;
  language_code?: string;
}

/** The raw init data string (`query_id=…&user=…&auth_date=…&hash=…`). */
export function signInitData(
  token: string,
  user: InitDataUser,
  options: { authDate?: number; queryId?: string } = {},
): string {
  const fields = new URLSearchParams({
    query_id: options.queryId ?? "AAE-test-query",
    user: JSON.stringify(user),
    auth_date: String(options.authDate ?? Math.floor(Date.now() / 1000)),
  });
  const checkString = [...fields.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, value]) => `${key}=${value}`)
    .join("\n");
  const secret = createHmac("sha256", "WebAppData").update(token).digest();
  fields.set("hash", createHmac("sha256", secret).update(checkString).digest("hex"));
  return fields.toString();
}

/** Telegram's light and dark theme parameters, as a client passes them. */
export const THEMES = {
  light: {
    bg_color: "#ffffff",
    text_color: "#000000",
    hint_color: "#999999",
    link_color: "#2481cc",
    button_color: "#2481cc",
    button_text_color: "#ffffff",
    secondary_bg_color: "#efeff3",
  },
  dark: {
    bg_color: "#17212b",
    text_color: "#f5f5f5",
    hint_color: "#708499",
    link_color: "#6ab3f3",
    button_color: "#5288c1",
    button_text_color: "#ffffff",
    secondary_bg_color: "#232e3c",
  },
} as const;

/**
 * The address Telegram opens: the app's URL with the launch parameters in its fragment
 * (`tgWebAppData`, `tgWebAppVersion`, `tgWebAppPlatform`, `tgWebAppThemeParams`).
 */
export function launchUrl(appUrl: string, initData: string, theme: keyof typeof THEMES): string {
  const launch = new URLSearchParams({
    tgWebAppData: initData,
    tgWebAppVersion: "8.0",
    tgWebAppPlatform: "tdesktop",
    tgWebAppThemeParams: JSON.stringify(THEMES[theme]),
  });
  return `${appUrl}#${launch.toString()}`;
}
