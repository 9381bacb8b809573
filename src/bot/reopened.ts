/**
 * Telling the people who met a pause (src/bot/pause-waiters.ts) that purchases are open again:
 * after /resume, and once the last unknown outcome is settled, by an admin or by the service's
 * late answer. Each is told in their language, and told that a summary they kept can be
 * confirmed only when they have one that still can.
 */
import type { Api } from "grammy";
import type { PauseWaiter } from "./pause-waiters.js";
import type { BotServices } from "./services.js";

/** Tells everyone who met a pause, once, in the background. */
export function tellReopened(api: Api, services: BotServices): void {
  services.pauseWaiters.tellAll(
    async (waiter) => {
      const key = (await keepsSummary(services, waiter))
        ? "purchases-reopened-summary"
        : "purchases-reopened";
      await api.sendMessage(waiter.chatId, services.i18n.t(waiter.locale, key));
    },
    (error) =>
      services.logger.warn({ err: error }, "could not tell a buyer that purchases reopened"),
  );
}

/**
 * Once nothing holds purchases any more (no pause, nothing unconfirmed), tells everyone who met
 * a pause. Resolves to whether purchases are open.
 */
export async function tellIfReopened(api: Api, services: BotServices): Promise<boolean> {
  const { paused, unconfirmed } = await services.records.status();
  if (paused || unconfirmed > 0) return false;
  tellReopened(api, services);
  return true;
}

/** Whether the person kept a summary in that chat that can still be confirmed. */
async function keepsSummary(services: BotServices, waiter: PauseWaiter): Promise<boolean> {
  for (const summary of await services.summaries.list(waiter.chatId, waiter.userId)) {
    const intent = await services.records.getIntent(summary.intentId);
    if (intent !== undefined && services.records.refusalOf(intent) === undefined) return true;
  }
  return false;
}
