/**
 * What a start tells about what an earlier run, or a restore, left. Intents a previous process
 * left `sending` become unconfirmed (the desk's `recoverInterrupted`). The person who pressed
 * Confirm saw "Sending…" and nothing after: they must learn that the outcome is unknown and that
 * they must not try again. Their summary message is edited into that outcome when the bot still
 * knows it; otherwise they get a new message. After a restore, the admins learn what it stopped.
 */
import type { Api } from "grammy";
import type { Translate } from "../bot/context.js";
import { DEFAULT_LOCALE } from "../bot/i18n.js";
import type { BotServices } from "../bot/services.js";
import { outcomeText } from "../bot/purchase-views.js";
import type { PurchaseIntent } from "../ledger/types.js";
import type { Logger } from "../shared/logger.js";
import type { QueuedResolution } from "../purchases/types.js";
import type { GiftBot } from "../bot/index.js";
import { RESTORE_NOTICE } from "../ledger/restore.js";
import type { RestoreNotice } from "../ledger/types.js";
import type { KeyValueStores } from "../storage/types.js";

/**
 * Tells each recovered intent's requester, in their saved language, that the outcome is
 * unknown. Never throws: a person who blocked the bot must not stop the bot from starting.
 */
export async function tellRequestersOutcomeUnknown(
  api: Api,
  services: BotServices,
  intents: readonly PurchaseIntent[],
  logger: Logger,
): Promise<void> {
  await tellRequesters(
    api,
    services,
    intents.map((intent) => ({
      intent,
      result: {
        kind: "unconfirmed",
        intent,
        ambiguity: {
          kind: "ambiguous",
          cause: "transport",
          detail: "interrupted while the request was in flight",
        },
      },
    })),
    logger,
    "requester told the outcome is unknown",
  );
}

/**
 * Tells each person whose confirmation was queued when the last process stopped what became
 * of it at this start (sent and its outcome, or closed unsent), on the summary they pressed.
 */
export async function tellQueuedOutcomes(
  api: Api,
  services: BotServices,
  resolved: readonly QueuedResolution[],
  logger: Logger,
): Promise<void> {
  await tellRequesters(api, services, resolved, logger, "requester told a queued outcome");
}

/**
 * Edits each person's summary message into the outcome (the edit also removes its buttons),
 * or sends the outcome as a new message when the summary is unknown or cannot be edited.
 */
async function tellRequesters(
  api: Api,
  services: BotServices,
  items: readonly QueuedResolution[],
  logger: Logger,
  told: string,
): Promise<void> {
  for (const { intent, result } of items) {
    const { userId, chatId } = intent.requester;
    const locale = (await services.settings.preferredLanguage(userId)) ?? DEFAULT_LOCALE;
    const t: Translate = (key, variables) => services.i18n.t(locale, key, variables);
    const costs = services.costsShownIn(intent.requester) ? "shown" : "hidden";
    const text = outcomeText(t, locale, result, services.explorerUrl, costs);
    const summary = (await services.summaries.list(chatId, userId)).find(
      (s) => s.intentId === intent.id,
    );
    try {
      if (summary === undefined) {
        await api.sendMessage(chatId, text);
      } else {
        await api.editMessageText(chatId, summary.messageId, text).catch(async () => {
          await api.sendMessage(chatId, text);
        });
        await services.summaries.remove(chatId, userId, intent.id);
      }
      logger.info({ intentId: intent.id, chatId, outcome: result.kind }, told);
    } catch (error) {
      logger.warn(
        { intentId: intent.id, chatId, err: error },
        "could not tell the requester the outcome",
      );
    }
  }
}

/**
 * At the first start after a restore from a backup (src/ledger/restore.ts): the admins are told
 * what it stopped, from the notice the restore kept in the database, which is forgotten once an
 * admin has it (an admin not reached by then gets it at the next start).
 */
export async function tellRestore(
  stores: KeyValueStores,
  giftBot: Pick<GiftBot, "announceRestore">,
  logger: Logger,
): Promise<void> {
  const store = stores<RestoreNotice>(RESTORE_NOTICE.namespace);
  const notice = await store.read(RESTORE_NOTICE.key);
  if (notice === undefined) return;
  logger.warn(
    { batches: notice.stoppedBatches.map((batch) => batch.id), summaries: notice.expiredSummaries },
    "the database was restored from a backup: the admins are told what it stopped",
  );
  await giftBot.announceRestore(notice, () => {
    void (async () => store.delete(RESTORE_NOTICE.key))().catch((err: unknown) =>
      logger.warn({ err }, "could not forget the restore's notice once told"),
    );
  });
}
