/**
 * The admins' side of a settled unknown outcome (the desk's `settled` and `lateContradiction`
 * events): every alert and /pending message of the intent is edited into its settled state
 * with its buttons gone (./settled-alerts.ts), the service's late answer that settled one is
 * announced, and a late answer that contradicts an admin's settlement is an alarm to every
 * admin at once, with the evidence.
 */
import type { Api } from "grammy";
import type { PurchaseIntent } from "../../ledger/types.js";
import type { DefiniteAnswer, Settlement } from "../../purchases/types.js";
import type { Logger } from "../../shared/logger.js";
import type { Translate } from "../context.js";
import type { KnownPeople, NameLookup } from "../people.js";
import { requesterLine } from "../admin-views.js";
import { giftName } from "../purchase-views.js";
import { provedNewsText } from "../stars-views.js";
import type { AlertMessage, SettledAlerts } from "./settled-alerts.js";
import {
  contradictionText,
  lateSettledText,
  settledAlertText,
  settledAs,
} from "./settlement-views.js";

/** One admin message, rendered in that admin's language (the notifier's Render). */
type Render = (t: Translate, locale: string) => { text: string };

export interface SettlementNoticeParts {
  api: Api;
  alerts: SettledAlerts;
  /** The admins now (a reload may change them). */
  admins: () => readonly number[];
  /** An admin's words (their /language, else their Telegram language, else English). */
  translate: (adminId: number) => Promise<Translate>;
  /** Sends one message to every admin, each in their language (tracked by the notifier). */
  tell: (render: Render) => void;
  /** Work the notifier's `idle()` waits for. */
  track: (work: Promise<unknown>) => void;
  names: Pick<KnownPeople, "render"> | undefined;
  explorerUrl: string | undefined;
  logger: Logger;
}

export class SettlementNotices {
  readonly #parts: SettlementNoticeParts;

  constructor(parts: SettlementNoticeParts) {
    this.#parts = parts;
  }

  /** An unknown outcome was settled: its messages change state, and a late answer is news. */
  settled(intent: PurchaseIntent, settlement: Settlement): void {
    const { track, tell, explorerUrl } = this.#parts;
    track(
      (async () => {
        const names = await this.#names(intent, settlement);
        await this.#settleMessages(intent, settlement, names);
        if (settlement.by === "service") {
          tell((t) => ({
            text: lateSettledText(t, intent, settlement.answer, explorerUrl, names),
          }));
        }
        if (settlement.by === "telegram") {
          const { proof } = settlement;
          tell((t, locale) => ({
            text: provedNewsText(t, locale, intent, giftName(t, intent), proof, [
              t("admin-intent-id", { id: intent.id }),
              requesterLine(t, intent, names),
            ]),
          }));
        }
      })(),
    );
  }

  /** A late answer contradicts an admin's settlement: every admin is told at once. */
  lateContradiction(intent: PurchaseIntent, answer: DefiniteAnswer): void {
    const { track, tell, explorerUrl } = this.#parts;
    track(
      (async () => {
        const names = await this.#names(intent, undefined);
        tell((t, locale) => ({
          text: contradictionText(t, locale, intent, answer, explorerUrl, names),
        }));
      })(),
    );
  }

  /** Each admin's messages of the intent, edited into the settled state (buttons gone). */
  async #settleMessages(
    intent: PurchaseIntent,
    settlement: Settlement,
    names: NameLookup,
  ): Promise<void> {
    const { alerts, admins, translate } = this.#parts;
    for (const adminId of admins()) {
      const messages = await alerts.take(intent.id, adminId);
      if (messages.length === 0) continue;
      const t = await translate(adminId);
      for (const message of messages) {
        const text = settledAlertText(t, intent, settledAs(settlement), message.body, names);
        await this.#edit(adminId, message, text);
      }
    }
  }

  async #edit(chatId: number, message: AlertMessage, text: string): Promise<void> {
    try {
      // No reply_markup: the buttons go.
      await this.#parts.api.editMessageText(chatId, message.messageId, text);
    } catch (err) {
      // Deleted, too old to edit: the press of its buttons still answers "already settled".
      this.#parts.logger.warn({ err, chatId }, "could not mark an alert settled");
    }
  }

  /** Names of the requester, and of the admin who settled it (or had settled it earlier). */
  async #names(intent: PurchaseIntent, settlement: Settlement | undefined): Promise<NameLookup> {
    const ids = [intent.requester.userId];
    if (settlement?.by === "admin") ids.push(settlement.adminId);
    if (intent.resolvedBy !== undefined) ids.push(intent.resolvedBy);
    const found = await this.#parts.names?.render(
      (names) => new Map(ids.map((id) => [id, names(id)])),
    );
    return (id) => found?.get(id);
  }
}
