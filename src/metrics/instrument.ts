/**
 * Where the metrics are fed from, each at a seam a room already has, so no room calls a metric
 * itself: the desk's `onConfirmed` event, the client's balance reads, grammY's `handleUpdate` and
 * its API transformer. Nothing here imports prom-client: `BotMetrics` is only an interface.
 */
import type { Bot, Context, Transformer } from "grammy";
import type { PurchaseDesk } from "../purchases/types.js";
import type { GiftServiceClient } from "../service/types.js";
import type { BotMetrics } from "./metrics.js";

/**
 * Counts every Confirm press by the gift's kind and what it came to, from the desk's
 * `onConfirmed` event. Returns a function that stops counting.
 */
export function countPurchases(desk: PurchaseDesk, metrics: BotMetrics): () => void {
  return desk.events.on("confirmed", (result, giftKind) =>
    metrics.purchase(giftKind ?? "unknown", result.kind),
  );
}

/** The client, remembering the wallet balance each successful read returns. */
export function instrumentClient<T extends GiftServiceClient>(client: T, metrics: BotMetrics): T {
  return {
    ...client,
    getWalletBalance: async (options) => {
      const outcome = await client.getWalletBalance(options);
      if (outcome.kind === "success") {
        metrics.walletBalance("ton", outcome.value.ton);
        metrics.walletBalance("usdt", outcome.value.usdt);
      }
      return outcome;
    },
  };
}

/** The update's type: its one field besides `update_id` (message, callback_query...). */
function updateType(update: object): string {
  return Object.keys(update).find((key) => key !== "update_id") ?? "unknown";
}

/**
 * Times every update through `bot.handleUpdate`, the one method the runner and the webhook
 * callback both call, so an update is measured whatever feeds it, errors included.
 */
export function measureUpdates<C extends Context>(bot: Bot<C>, metrics: BotMetrics): void {
  const handleUpdate = bot.handleUpdate.bind(bot);
  bot.handleUpdate = async (...args: Parameters<Bot<C>["handleUpdate"]>) => {
    const started = performance.now();
    let failed = false;
    try {
      return await handleUpdate(...args);
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      metrics.update(updateType(args[0]), (performance.now() - started) / 1000, failed);
    }
  };
}

/** Counts failed Telegram API calls by method and code (`network` when no answer came). */
export function telegramErrorCounter(metrics: BotMetrics): Transformer {
  return async (prev, method, payload, signal) => {
    try {
      // Telegram's refusals come back as `ok: false` answers here; grammY throws them later.
      const result = await prev(method, payload, signal);
      if (!result.ok) metrics.telegramError(method, String(result.error_code));
      return result;
    } catch (error) {
      // A throw here is the network's (grammY raises GrammyError after the transformers).
      if (!signal?.aborted) metrics.telegramError(method, "network");
      throw error;
    }
  };
}
