/**
 * How Telegram starts a Mini App: the launch parameters in the URL's fragment
 * (`#tgWebAppData=…&tgWebAppThemeParams=…&tgWebAppVersion=…`), read here as @tma.js/sdk reads
 * them (Telegram's own script, from telegram.org, is another origin, which the page's policy
 * refuses). When a host page did provide `window.Telegram.WebApp` (tests may), it is used.
 * Events go to Telegram the way its clients take them: `TelegramWebviewProxy.postEvent` in the
 * apps, `postMessage` to the parent in Telegram Web.
 */
export interface ThemeParams {
  bg_color?: string;
  text_color?: string;
  hint_color?: string;
  link_color?: string;
  button_color?: string;
  button_text_color?: string;
  secondary_bg_color?: string;
}

export interface Launch {
  /** The raw init data, sent with every API call. */
  initData: string;
  /** The language of the admin's Telegram app, as the init data says. */
  languageCode: string | undefined;
  theme: ThemeParams;
  colorScheme: "light" | "dark";
}

interface TelegramGlobal {
  WebApp?: { initData?: string; themeParams?: ThemeParams; colorScheme?: "light" | "dark" };
  WebView?: { receiveEvent?: (type: string, data: unknown) => void };
}

declare global {
  interface Window {
    Telegram?: TelegramGlobal;
    TelegramWebviewProxy?: { postEvent(type: string, data: string): void };
  }
}

/** The launch parameters: from `window.Telegram.WebApp` when present, else the fragment. */
export function readLaunch(): Launch {
  const webApp = window.Telegram?.WebApp;
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const initData = webApp?.initData ?? fragment.get("tgWebAppData") ?? "";
  const theme = webApp?.themeParams ?? parseTheme(fragment.get("tgWebAppThemeParams"));
  return {
    initData,
    languageCode: languageOf(initData),
    theme,
    colorScheme: webApp?.colorScheme ?? schemeOf(theme),
  };
}

function parseTheme(json: string | null): ThemeParams {
  try {
    const parsed: unknown = JSON.parse(json ?? "{}");
    return typeof parsed === "object" && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}

function languageOf(initData: string): string | undefined {
  try {
    const user = JSON.parse(new URLSearchParams(initData).get("user") ?? "{}") as {
      language_code?: unknown;
    };
    return typeof user.language_code === "string" ? user.language_code : undefined;
  } catch {
    return undefined;
  }
}

/** Dark when the background is dark, as Telegram's own script decides it. */
function schemeOf(theme: ThemeParams): "light" | "dark" {
  const match = /^#?([0-9a-f]{6})$/i.exec(theme.bg_color ?? "");
  if (match === null) {
    return window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }
  const value = parseInt(match[1] ?? "ffffff", 16);
  const [r, g, b] = [(value >> 16) & 255, (value >> 8) & 255, value & 255];
  return Math.sqrt(0.299 * r * r + 0.587 * g * g + 0.114 * b * b) < 120 ? "dark" : "light";
}

/** Puts Telegram's colours on the page's CSS variables (the stylesheet's defaults otherwise). */
export function applyTheme(theme: ThemeParams, scheme: "light" | "dark"): void {
  const root = document.documentElement;
  root.dataset.scheme = scheme;
  for (const [name, value] of Object.entries(theme)) {
    if (typeof value === "string" && /^#[0-9a-f]{3,8}$/i.test(value)) {
      root.style.setProperty(`--tg-${name.replaceAll("_", "-")}`, value);
    }
  }
}

/** Tells Telegram the app is ready (it hides its placeholder) and to open it full height. */
export function tellTelegramReady(): void {
  for (const type of ["web_app_ready", "web_app_expand"]) {
    if (window.TelegramWebviewProxy !== undefined) {
      window.TelegramWebviewProxy.postEvent(type, "");
    } else if (window.parent !== window) {
      window.parent.postMessage(JSON.stringify({ eventType: type, eventData: "" }), "*");
    }
  }
}

/** Follows a theme change made in Telegram while the app is open. */
export function followThemeChanges(): void {
  const onEvent = (type: string, data: unknown): void => {
    if (type !== "theme_changed") return;
    const theme = (data as { theme_params?: ThemeParams } | undefined)?.theme_params ?? {};
    applyTheme(theme, schemeOf(theme));
  };
  window.Telegram = { ...window.Telegram, WebView: { receiveEvent: onEvent } };
  window.addEventListener("message", (event) => {
    try {
      const message = JSON.parse(String(event.data)) as { eventType?: string; eventData?: unknown };
      if (typeof message.eventType === "string") onEvent(message.eventType, message.eventData);
    } catch {
      // Not one of Telegram's messages.
    }
  });
}
