/**
 * How a message reaches every admin: rendered in each admin's language (their /language, else
 * English), sent through the bot's API, and sent again to an admin Telegram did not take it
 * from for a passing reason (unreachable, 5xx, 429 beyond the outer retries), with a bounded,
 * growing pause while the process runs. The work runs in the background; `idle()` waits for it.
 */
import type { I18n, TranslationVariables } from "@grammyjs/i18n";
import { type Api, type Context, GrammyError, HttpError, type InlineKeyboard } from "grammy";
import { backoffDelay } from "../../shared/backoff.js";
import type { Logger } from "../../shared/logger.js";
import type { Translate } from "../context.js";
import { DEFAULT_LOCALE, type UserSettingsStore } from "../i18n.js";
import type { SettledAlerts } from "./settled-alerts.js";

/** Re-sending an admin message Telegram did not take: tries after the first, and the pauses. */
export interface AdminMessageRetry {
  /** Sends after the first one failed (at least 0). */
  retries: number;
  /** The first pause; each next one doubles, up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
}

/** 5 s doubling to 5 min, 10 more sends: about half an hour of Telegram being unreachable. */
const ADMIN_MESSAGE_RETRY: Readonly<AdminMessageRetry> = {
  retries: 10,
  firstDelayMs: 5_000,
  maxDelayMs: 300_000,
};

/**
 * What one admin message is made of, rendered in that admin's language. `alert`: it shows an
 * unknown outcome with the settle buttons, remembered so its settlement edits it.
 */
export type AdminMessageRender = (
  t: Translate,
  locale: string,
) => {
  text: string;
  keyboard?: InlineKeyboard | undefined;
  alert?: { intentId: string; body: string } | undefined;
};

/** Whether sending again later may succeed: Telegram unreachable, overloaded or rate limiting. */
export function isPassingTelegramFailure(error: unknown): boolean {
  if (error instanceof HttpError) return true;
  return error instanceof GrammyError && (error.error_code === 429 || error.error_code >= 500);
}

export interface AdminMessengerOptions {
  /** The bot's API: admin messages answer no update, so they go out through it. */
  api: Api;
  admins: () => readonly number[];
  i18n: I18n<Context>;
  settings: UserSettingsStore;
  /** Where a message with settle buttons is remembered, for its settlement to edit it. */
  alerts: SettledAlerts;
  logger: Logger;
  /** How undelivered admin messages are retried; default {@link ADMIN_MESSAGE_RETRY}. */
  retry?: AdminMessageRetry | undefined;
}

/** Sends admin messages, each in its admin's language, and re-sends what did not arrive. */
export class AdminMessenger {
  readonly #options: AdminMessengerOptions;
  readonly #pending = new Set<Promise<unknown>>();
  /** Re-sends waiting for their turn; cleared by {@link close}. */
  readonly #retryTimers = new Set<NodeJS.Timeout>();
  #closed = false;

  constructor(options: AdminMessengerOptions) {
    this.#options = options;
  }

  /** Stops re-sending: a message still waiting for a re-send is dropped. */
  close(): void {
    this.#closed = true;
    for (const timer of this.#retryTimers) clearTimeout(timer);
    this.#retryTimers.clear();
  }

  /** One message to every admin, in the background: {@link toAdmins}, waited for by {@link idle}. */
  tell(render: AdminMessageRender, onReached?: () => void): void {
    this.track(this.toAdmins(render, onReached));
  }

  /** Resolves when every message started so far has been sent (or has failed). */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  /**
   * Sends one message to every admin, each in their language. `onReached` runs when the first
   * admin has it (now or on a re-send). Resolves to how many admins a re-send is pending for.
   */
  async toAdmins(render: AdminMessageRender, onReached?: () => void): Promise<number> {
    let retrying = 0;
    for (const adminId of this.#options.admins()) {
      const sent = await this.#sendTo(adminId, render);
      if (sent === "sent") onReached?.();
      else if (sent === "retry") {
        retrying++;
        this.#retryLater(adminId, render, 1, onReached);
      }
    }
    return retrying;
  }

  /** One admin message: sent, worth sending again later, or given up on (blocked, never started). */
  async #sendTo(adminId: number, render: AdminMessageRender): Promise<"sent" | "retry" | "failed"> {
    const { api } = this.#options;
    const { t, locale } = await this.translator(adminId);
    const { text, keyboard, alert } = render(t, locale);
    try {
      const sent = await api.sendMessage(
        adminId,
        text,
        keyboard === undefined ? {} : { reply_markup: keyboard },
      );
      if (alert !== undefined) {
        await this.#options.alerts
          .remember(alert.intentId, adminId, { messageId: sent.message_id, body: alert.body })
          .catch((err: unknown) =>
            this.#options.logger.warn({ err, adminId }, "could not remember an alert message"),
          );
      }
      return "sent";
    } catch (error) {
      // An admin who never opened the bot cannot be messaged; the others still are.
      this.#options.logger.warn({ adminId, error }, "could not notify an admin");
      return isPassingTelegramFailure(error) ? "retry" : "failed";
    }
  }

  /** An admin's language (their /language, else English) and its translation. */
  async translator(adminId: number): Promise<{ t: Translate; locale: string }> {
    const { i18n, settings } = this.#options;
    const locale = (await settings.preferredLanguage(adminId)) ?? DEFAULT_LOCALE;
    const t: Translate = (key: string, variables?: TranslationVariables) =>
      i18n.t(locale, key, variables);
    return { t, locale };
  }

  /** Schedules re-send number `attempt` to one admin, after a pause that doubles each time. */
  #retryLater(
    adminId: number,
    render: AdminMessageRender,
    attempt: number,
    onReached?: () => void,
  ): void {
    const policy = this.#options.retry ?? ADMIN_MESSAGE_RETRY;
    if (attempt > policy.retries || this.#closed) return;
    const delay = backoffDelay(policy, attempt);
    const timer = setTimeout(() => {
      this.#retryTimers.delete(timer);
      this.track(
        this.#sendTo(adminId, render).then((sent) => {
          if (sent === "sent") onReached?.();
          else if (sent === "retry") this.#retryLater(adminId, render, attempt + 1, onReached);
        }),
      );
    }, delay);
    // A pending re-send never keeps the process alive by itself.
    timer.unref();
    this.#retryTimers.add(timer);
  }

  track(work: Promise<unknown>): void {
    const tracked = work
      .catch((error: unknown) => this.#options.logger.error({ error }, "admin notification failed"))
      .finally(() => this.#pending.delete(tracked));
    this.#pending.add(tracked);
  }
}
