/**
 * A person who pressed Confirm always learns the final outcome. When an unknown outcome is
 * settled (an admin's Delivered / Not delivered, or the service's own answer arriving late),
 * its requester is told in the chat they asked in (their private chat, or the group where a
 * group administrator asked), in their language and in the buyer's words: never the service's
 * own words, nothing of the operator's setup. Then, if nothing holds purchases any more, those
 * who met the hold are told that purchases are open again.
 */
import type { Api } from "grammy";
import type { PurchaseIntent } from "../ledger/types.js";
import type { PurchaseDesk, Settlement } from "../purchases/types.js";
import type { Translate } from "./context.js";
import { DEFAULT_LOCALE } from "./i18n.js";
import { settledNoticeText } from "./purchase-views.js";
import { tellIfReopened } from "./reopened.js";
import type { BotServices } from "./services.js";

/** Listens to the desk's settlements; returns a function that stops listening. */
export function tellSettlements(desk: PurchaseDesk, api: Api, services: BotServices): () => void {
  return desk.events.on("settled", (intent, settlement) => {
    services.background.track(afterSettlement(api, services, intent, settlement));
  });
}

async function afterSettlement(
  api: Api,
  services: BotServices,
  intent: PurchaseIntent,
  settlement: Settlement,
): Promise<void> {
  if (!alreadyKnows(intent, settlement)) {
    try {
      await tellRequester(api, services, intent, settlement);
    } catch (err) {
      services.logger.warn(
        { err, intentId: intent.id },
        "could not tell the requester how an unknown outcome was settled",
      );
    }
  }
  await tellIfReopened(api, services);
}

/**
 * Whether the requester learns it otherwise: a giveaway's recipients are the admins' own (they
 * read the settlement in the admins' messages), and an admin who settled their own gift in
 * their private chat has just read it there.
 */
function alreadyKnows(intent: PurchaseIntent, settlement: Settlement): boolean {
  if (intent.batchId !== undefined) return true;
  // Proved while their Confirm was being answered: its outcome there says so.
  if (settlement.by === "telegram" && settlement.atConfirm) return true;
  return (
    settlement.by === "admin" &&
    settlement.adminId === intent.requester.userId &&
    intent.requester.chatType === "private"
  );
}

async function tellRequester(
  api: Api,
  services: BotServices,
  intent: PurchaseIntent,
  settlement: Settlement,
): Promise<void> {
  const { userId, chatId } = intent.requester;
  const locale = (await services.settings.preferredLanguage(userId)) ?? DEFAULT_LOCALE;
  const t: Translate = (key, variables) => services.i18n.t(locale, key, variables);
  await api.sendMessage(
    chatId,
    settledNoticeText(
      t,
      locale,
      intent,
      settlement,
      services.explorerUrl,
      services.costsShownIn(intent.requester) ? "shown" : "hidden",
    ),
  );
  services.logger.info(
    { intentId: intent.id, chatId, settledBy: settlement.by },
    "requester told how an unknown outcome was settled",
  );
}
