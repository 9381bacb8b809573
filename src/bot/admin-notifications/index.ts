/**
 * Messages to every admin that do not answer anyone's update: a purchase that ended
 * unconfirmed (with the evidence and the resolve buttons, once per intent), and a wallet
 * balance that fell below LOW_BALANCE_TON / LOW_BALANCE_USDT (once per crossing: a balance
 * that stays low is not announced again on every read, one that recovers and falls again is).
 * The balance is checked on every read the desk makes anyway, its "balance after purchase"
 * included: the check never sends a request of its own.
 *
 * What was already announced lives in the kv store, so a restart neither repeats nor forgets
 * it. The work runs in the background of the update that caused it (a person's outcome must
 * not wait for admin messages); `idle()` lets tests and shutdown wait for it.
 *
 * A message Telegram did not take for a passing reason (unreachable, 5xx, 429 beyond the
 * outer retries) is sent again to that admin with a bounded, growing pause while the process
 * runs (./messenger.ts): an admin must learn of anything that blocks purchases without waiting
 * for a restart.
 */
import type { KnownPeople, NameLookup } from "../people.js";
import type { I18n } from "@grammyjs/i18n";
import type { Api, Context } from "grammy";
import type { BalanceSnapshot, PurchaseIntent } from "../../ledger/types.js";
import type { Logger } from "../../shared/logger.js";
import type { PurchaseRecords } from "../../purchases/records.js";
import type { PurchaseDesk, StorageFailure } from "../../purchases/types.js";
import type { PurchaseOutcome } from "../../service/types.js";
import type { KeyValue, KeyValueStores } from "../../storage/types.js";
import { evidenceBody, evidenceText } from "../admin-views.js";
import { resolveKeyboard, resumeKeyboard } from "../keyboards/admin.js";
import type { BreakerOpening } from "../../purchases/breaker.js";
import type { ReadHealthEvent } from "../../purchases/read-health.js";
import {
  breakerOpenedText,
  readHealthText,
  reloadRefusedText,
  unrecordedText,
} from "./breaker-views.js";
import { quoteServiceText } from "../../service/quote.js";
import type { UserSettingsStore } from "../i18n.js";
import { LowBalanceWatch, type LowState } from "./low-balance.js";
import { SettledAlerts } from "./settled-alerts.js";
import { SettlementNotices } from "./settlements.js";
import { AdminMessenger, type AdminMessageRender, type AdminMessageRetry } from "./messenger.js";

export type { AdminMessageRender, AdminMessageRetry } from "./messenger.js";

/**
 * LOW_BALANCE_TON / LOW_BALANCE_USDT as decimal strings, LOW_BALANCE_STARS (the bot's own
 * Telegram Stars) in whole Stars; unset means no alert.
 */
export interface BalanceAlerts {
  lowBalanceTon?: string | undefined;
  lowBalanceUsdt?: string | undefined;
  lowBalanceStars?: number | undefined;
}

export interface AdminNotifierOptions {
  /** The bot's API: admin messages answer no update, so they go out through it. */
  api: Api;
  admins: readonly number[];
  desk: PurchaseDesk;
  records: PurchaseRecords;
  /** Where what was already announced is remembered. */
  stores: KeyValueStores;
  i18n: I18n<Context>;
  settings: UserSettingsStore;
  alerts?: BalanceAlerts | undefined;
  /** The paying wallet's address, named in the breaker's "top up the wallet" advice. */
  walletAddress?: string | undefined;
  /** TON_EXPLORER_URL for transaction links; undefined shows bare hashes. */
  explorerUrl?: string | undefined;
  logger: Logger;
  /** Names of the people the bot has seen, shown next to the requester's id. */
  names?: Pick<KnownPeople, "render"> | undefined;
  /** How undelivered admin messages are retried; default {@link ADMIN_MESSAGE_RETRY}. */
  retry?: AdminMessageRetry | undefined;
}

/** How soon the same kind of storage failure is told again: 30 minutes. */
const STORAGE_ALERT_REPEAT_MS = 30 * 60_000;

export class AdminNotifier {
  #options: AdminNotifierOptions;
  /** Which unconfirmed purchases were announced (`unconfirmed:<id>`). */
  readonly #store: KeyValue<true>;
  /** The thresholds' watch: a warning each time the balance crosses one downwards. */
  readonly #lowBalance: LowBalanceWatch;
  /** Intents whose announcement is being sent now (the kv store remembers the sent ones). */
  readonly #announcing = new Set<string>();
  /** Set while listening to the desk's balance reads (only with thresholds and admins). */
  #stopBalanceReads: (() => void) | undefined;
  #listening = false;
  /** When each kind of storage failure was last told (see {@link storageFailure}). */
  readonly #storageAlerts = new Map<string, number>();
  /** The messages with settle buttons, edited once their outcome is settled. */
  readonly #alerts: SettledAlerts;
  /** What admins are told of settlements and late answers (./settlements.ts). */
  readonly #settlements: SettlementNotices;
  /** Sends each message to every admin and re-sends what did not arrive (./messenger.ts). */
  readonly #messenger: AdminMessenger;

  constructor(options: AdminNotifierOptions) {
    this.#options = options;
    this.#store = options.stores<true>("admin-notifications");
    this.#alerts = new SettledAlerts(options.stores);
    this.#messenger = new AdminMessenger({
      ...{ api: options.api, i18n: options.i18n, settings: options.settings },
      admins: () => this.#options.admins,
      alerts: this.#alerts,
      logger: options.logger,
      retry: options.retry,
    });
    this.#lowBalance = new LowBalanceWatch({
      store: options.stores<LowState | true>("admin-notifications"),
      alerts: () => this.#options.alerts,
      logger: options.logger,
      warn: (render) => this.#messenger.tell(render),
      track: (work) => this.#messenger.track(work),
    });
    this.#settlements = new SettlementNotices({
      api: options.api,
      alerts: this.#alerts,
      admins: () => this.#options.admins,
      translate: async (adminId) => (await this.#messenger.translator(adminId)).t,
      tell: (render) => this.#messenger.tell(render),
      track: (work) => this.#messenger.track(work),
      names: options.names,
      explorerUrl: options.explorerUrl,
      logger: options.logger,
    });
  }

  /**
   * A message showing `intentId`'s evidence with the settle buttons (a /pending listing), so
   * its settlement edits it too. `body`: its evidence without title and hint (evidenceBody).
   */
  async rememberAlert(
    intentId: string,
    chatId: number,
    messageId: number,
    body: string,
  ): Promise<void> {
    await this.#alerts.remember(intentId, chatId, { messageId, body });
  }

  /** Whether the settlement of `intentId` will edit this message (it was remembered). */
  async showsAlert(intentId: string, chatId: number, messageId: number): Promise<boolean> {
    return this.#alerts.shows(intentId, chatId, messageId);
  }

  /**
   * Compares a balance just read with the thresholds and tells the admins about each one
   * newly crossed downwards. Safe to call on every read.
   */
  checkBalance(balance: BalanceSnapshot): void {
    this.#lowBalance.check(balance);
  }

  /**
   * Listens to the desk: every intent that ends unconfirmed is announced (also those
   * `desk.recoverInterrupted()` recovers at start), every outcome the database refused is
   * announced at once, and every balance the desk reads (its balance after a purchase
   * included) is checked against the thresholds, when there are thresholds and admins to tell.
   * createBot calls it once; returns a function that stops listening.
   */
  listen(): () => void {
    const { desk } = this.#options;
    const stopUnconfirmed = desk.events.on("unconfirmed", (intent) => this.unconfirmed(intent));
    const stopUnrecorded = desk.events.on("outcomeUnrecorded", (intent, answer) =>
      this.unrecorded(intent, answer),
    );
    const stopStorage = desk.events.on("storageFailure", (failure) => this.storageFailure(failure));
    const stopSettled = desk.events.on("settled", (intent, settlement) =>
      this.#settlements.settled(intent, settlement),
    );
    const stopContradiction = desk.events.on("lateContradiction", (intent, answer) =>
      this.#settlements.lateContradiction(intent, answer),
    );
    // The bot's own Stars: every read the desk makes is checked against LOW_BALANCE_STARS.
    const stopStars = desk.events.on("starBalanceRead", (stars) => {
      if (this.#options.admins.length > 0) this.#lowBalance.checkStars(stars);
    });
    this.#listening = true;
    this.#followBalanceReads();
    return () => {
      stopUnconfirmed();
      stopUnrecorded();
      stopStorage();
      stopSettled();
      stopContradiction();
      stopStars();
      this.#listening = false;
      this.#followBalanceReads();
    };
  }

  /**
   * Listens to the desk's balance reads exactly while there are thresholds and admins: with
   * nobody listening the desk reads nothing after a purchase. Again after a settings reload.
   */
  #followBalanceReads(): void {
    const wanted = this.#listening && this.hasBalanceAlerts && this.#options.admins.length > 0;
    if (wanted && this.#stopBalanceReads === undefined) {
      this.#stopBalanceReads = this.#options.desk.events.on("balanceRead", (reading) =>
        this.checkBalance(reading.balance),
      );
    } else if (!wanted && this.#stopBalanceReads !== undefined) {
      this.#stopBalanceReads();
      this.#stopBalanceReads = undefined;
    }
  }

  /** Whether any balance threshold is configured (else balances are not even looked at). */
  get hasBalanceAlerts(): boolean {
    const alerts = this.#options.alerts;
    return alerts?.lowBalanceTon !== undefined || alerts?.lowBalanceUsdt !== undefined;
  }

  /**
   * Announces an unconfirmed intent to every admin, at most once per intent. It counts as
   * announced only once an admin was reached, so a crash or an unreachable Telegram before
   * that leaves it for {@link announcePending} at the next start.
   */
  unconfirmed(intent: PurchaseIntent): void {
    // Nobody to tell: no evidence is gathered (it costs service requests).
    if (this.#options.admins.length === 0) return;
    // Checked and marked in one synchronous step: no second listener call can slip in between.
    if (this.#announcing.has(intent.id)) return;
    this.#announcing.add(intent.id);
    this.#messenger.track(this.#announce(intent));
  }

  /** {@link unconfirmed}'s work: unless an earlier run already told the admins, tells them. */
  async #announce(intent: PurchaseIntent): Promise<void> {
    const key = `unconfirmed:${intent.id}`;
    if ((await this.#store.read(key)) !== undefined) {
      this.#announcing.delete(intent.id);
      return;
    }
    let marked = false as boolean;
    const onReached = (): void => {
      if (marked) return;
      marked = true;
      // Still "announcing" until the mark is kept, so no second call can announce it again.
      void (async () => this.#store.write(key, true))()
        .catch((err: unknown) =>
          this.#options.logger.warn({ err, intentId: intent.id }, "could not mark an alert sent"),
        )
        .finally(() => this.#announcing.delete(intent.id));
    };
    const retrying = await this.#sendUnconfirmed(intent, onReached);
    // Nobody reached and nobody to retry: leave it for announcePending at the next start.
    if (!marked && retrying === 0) this.#announcing.delete(intent.id);
  }

  /**
   * Tells every admin at once that a purchase's outcome could not be written (the database
   * refused it after the request went out), with what is known: the intent and the service's
   * answer. Purchases are on hold until it is written; it then comes as an unconfirmed intent
   * with the resolve buttons, through {@link unconfirmed}.
   */
  unrecorded(intent: PurchaseIntent, answer: PurchaseOutcome): void {
    this.#messenger.tell((t) => ({
      text: unrecordedText(t, intent, answer, this.#options.explorerUrl),
    }));
  }

  /**
   * The database refused a write of the money path past its retries (see the desk's
   * `storageFailure` event). Told once per kind of refusal (its SQLite code, passing or not) every
   * {@link STORAGE_ALERT_REPEAT_MS}: a locked or read-only file refuses every write, and one
   * message says so as well as fifty.
   */
  storageFailure(failure: StorageFailure): void {
    const key = `${failure.code}:${String(failure.transient)}`;
    const now = Date.now();
    const last = this.#storageAlerts.get(key);
    if (last !== undefined && now - last < STORAGE_ALERT_REPEAT_MS) return;
    this.#storageAlerts.set(key, now);
    const id = failure.transient ? "admin-storage-transient" : "admin-storage-permanent";
    this.#messenger.tell((t) => ({
      text: t(id, { operation: failure.operation, code: failure.code }),
    }));
  }

  /** Scheduled backups have started failing (told once until one works again). */
  backupFailing(dir: string, error: unknown): void {
    const reason = error instanceof Error ? error.message : String(error);
    this.#messenger.tell((t) => ({
      text: t("admin-backup-failing", { dir, reason: quoteServiceText(reason) }),
    }));
  }

  /**
   * At start: announces every unconfirmed intent no admin has been told about yet (an earlier
   * run died, or Telegram was unreachable).
   */
  async announcePending(): Promise<void> {
    for (const intent of await this.#options.records.unconfirmed()) this.unconfirmed(intent);
  }

  /**
   * One message to every admin, each in their language (`render`), re-sent as any admin
   * message is; `onReached` runs each time an admin has it.
   */
  tell(render: AdminMessageRender, onReached?: () => void): void {
    this.#messenger.tell(render, onReached);
  }

  /** New LOW_BALANCE_* thresholds (settings reloaded while running). */
  setAlerts(alerts: BalanceAlerts): void {
    this.#options = { ...this.#options, alerts };
    this.#followBalanceReads();
  }

  /**
   * The purchase breaker opened: every admin gets one message with the refusals quoted, the
   * likely fix and a Resume button.
   */
  breakerOpened(opening: BreakerOpening): void {
    this.#messenger.tell((t, locale) => ({
      text: breakerOpenedText(t, locale, opening, this.#options.walletAddress),
      keyboard: resumeKeyboard(t),
    }));
  }

  /** The service's reads have failed for a sustained time, or work again. */
  readHealth(event: ReadHealthEvent, now: number): void {
    this.#messenger.tell((t) => ({ text: readHealthText(t, event, now) }));
  }

  /** A settings reload refused these variables (names only). */
  reloadRefused(variables: readonly string[]): void {
    this.#messenger.tell((t) => ({ text: reloadRefusedText(t, variables) }));
  }

  /**
   * Stops re-sending (the app's stop, after {@link idle}): a message still waiting for a re-send
   * is dropped; an unconfirmed intent no admin has yet is announced at the next start.
   */
  close(): void {
    this.#messenger.close();
  }

  /**
   * Resolves when every message started so far has been sent (or has failed), after the
   * desk's balance reads after purchases, whose answers may start one.
   */
  async idle(): Promise<void> {
    await this.#options.desk.settled();
    await this.#messenger.idle();
  }

  /** Sends the evidence to every admin; resolves to how many admins a re-send is pending for. */
  async #sendUnconfirmed(intent: PurchaseIntent, onReached: () => void): Promise<number> {
    const evidence = await this.#options.desk.admin.evidence(intent.id).catch(() => undefined);
    const fresh = evidence?.intent ?? intent;
    // Read before the texts are built: the store answers later, never while they are.
    const requester = fresh.requester.userId;
    const requesterName = await this.#options.names?.render((names) => names(requester));
    const names: NameLookup = (userId) => (userId === requester ? requesterName : undefined);
    const explorer = this.#options.explorerUrl;
    return this.#messenger.toAdmins((t, locale) => {
      // Already settled by the time the evidence arrived: no buttons to press in vain.
      const open = fresh.status === "unconfirmed";
      return {
        text: evidenceText(t, locale, fresh, evidence, "notification", explorer, names),
        keyboard: open ? resolveKeyboard(t, fresh.id) : undefined,
        alert: open
          ? { intentId: fresh.id, body: evidenceBody(t, locale, fresh, evidence, explorer, names) }
          : undefined,
      };
    }, onReached);
  }
}
