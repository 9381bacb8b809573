/**
 * What `/healthz` reports. Health checks must not spend the service's 30-requests-a-minute
 * quota, so the service side is judged from the outcomes of the calls the bot makes anyway.
 */
import type { GiftServiceClient, ReadOutcome, Superseded } from "../service/types.js";

type Health = "up" | "down" | "unknown";

export interface HealthReport {
  /**
   * `down` only when the bot itself cannot work (its database); `degraded` when the service is
   * unreachable, which restarting the bot would not mend, so a liveness probe must not act on it.
   */
  status: "up" | "degraded" | "down";
  database: Health;
  service: Health;
  /** When the service last answered (ms since the epoch), if it has. */
  serviceLastAnsweredAt: number | undefined;
}

export interface ServiceMonitor {
  client: GiftServiceClient;
  state(): { health: Health; lastAnsweredAt: number | undefined };
}

/**
 * Wraps a client so every outcome updates the service's health: an answer of any kind (even a
 * refusal) means the service is up; a timeout or transport failure means it is down.
 */
export function monitorService(
  client: GiftServiceClient,
  now = Date.now,
  onRead?: (outcome: ReadOutcome<unknown>) => void,
): ServiceMonitor {
  let health: Health = "unknown";
  let lastAnsweredAt: number | undefined;
  const observe = <T extends { kind: string; cause?: string }>(outcome: T): T => {
    if (outcome.kind === "invalid") return outcome;
    const unreachable =
      (outcome.kind === "unavailable" || outcome.kind === "ambiguous") &&
      (outcome.cause === "timeout" || outcome.cause === "transport");
    health = unreachable ? "down" : "up";
    if (!unreachable) lastAnsweredAt = now();
    return outcome;
  };
  // Reads also go to `onRead` (the read-outage alert); a throwing listener must not fail a read.
  // A check superseded in the queue was never sent: it says nothing about the service.
  const read = <T extends ReadOutcome<unknown> | Superseded>(outcome: T): T => {
    if (outcome.kind === "superseded") return outcome;
    try {
      onRead?.(outcome);
    } catch {
      // The listener logs its own failures.
    }
    return observe(outcome);
  };
  const monitored: GiftServiceClient = {
    getUserInfo: (username, options) => client.getUserInfo(username, options).then(read),
    getWalletBalance: (options) => client.getWalletBalance(options).then(read),
    reservePurchase: (options) => client.reservePurchase(options),
    buyStars: (purchase, options) => client.buyStars(purchase, options).then(observe),
    buyPremium: (purchase, options) => client.buyPremium(purchase, options).then(observe),
    estimateWait: (priority) => client.estimateWait(priority),
    stopPurchases: () => client.stopPurchases(),
    close: () => client.close(),
  };
  return { client: monitored, state: () => ({ health, lastAnsweredAt }) };
}

/** Builds the report from a database probe and the service monitor. */
export async function healthReport(
  databaseUp: () => Promise<boolean>,
  service: ServiceMonitor,
): Promise<HealthReport> {
  let database: Health;
  try {
    database = (await databaseUp()) ? "up" : "down";
  } catch {
    database = "down";
  }
  const { health, lastAnsweredAt } = service.state();
  return {
    status: database !== "up" ? "down" : health === "down" ? "degraded" : "up",
    database,
    service: health,
    serviceLastAnsweredAt: lastAnsweredAt,
  };
}
