/**
 * The Gift Purchase Service client (docs/service-contract.md). It turns every call into a
 * typed outcome (never an exception for what the service or network does), sends each purchase
 * exactly once, retries only reads and only as the service asks, keeps the whole process inside
 * the service's shared quota, and never lets a secret out in a log line, outcome or error.
 *
 * A call goes: input checks (validation.ts) → request building (requests.ts) → its turn in the
 * quota and one exchange (sender.ts, quota.ts, transport.ts, body-limit.ts) → classification
 * (classify-read.ts with read-retries.ts, or classify-purchase.ts with purchase.ts). A purchase
 * takes its turn ahead, before the ledger's claim (reserved-slots.ts): its request then leaves
 * right after the claim.
 */
import { type Logger, silentLogger } from "../shared/logger.js";
import { classifyBalanceAnswer } from "./balance.js";
import { classifyUserInfoAnswer } from "./classify-read.js";
import { LatestChecks } from "./latest-checks.js";
import { type GiftServiceClientOptions, resolveSettings } from "./options.js";
import { sendPurchaseOnce } from "./purchase.js";
import { QueueSupersededError, QuotaScheduler } from "./quota.js";
import { readWithRetries } from "./read-retries.js";
import {
  premiumPurchaseRequest,
  type ServiceRequest,
  starsPurchaseRequest,
  userInfoRequest,
  walletBalanceRequest,
} from "./requests.js";
import { QuotaSender } from "./sender.js";
import { createAgent } from "./transport.js";
import { ReservedSlots } from "./reserved-slots.js";
import type {
  GiftServiceClientWithQuota,
  Invalid,
  PurchaseCallOptions,
  PurchaseOutcome,
  UserInfoOutcome,
} from "./types.js";
import { checkAmount, checkDuration, checkPaymentMethod, checkUsername } from "./validation.js";

/**
 * The client's error classes, exported here so the desk imports everything from one module.
 * `GiftServiceCallCancelledError.sent === false` means nothing was sent (always so for a
 * purchase); see errors.ts.
 */
export { GiftServiceCallCancelledError, GiftServiceConfigError } from "./errors.js";
export {
  CLIENT_DEFAULTS,
  type GiftServiceClientOptions,
  type GiftServiceCredentials,
} from "./options.js";
export { CredentialHolder } from "./credential-source.js";

/** The one way requests leave: through the quota, with the secrets scrubbed from answers. */
function createSender(
  settings: ReturnType<typeof resolveSettings>,
  parts: {
    agent: ReturnType<typeof createAgent>;
    scheduler: QuotaScheduler;
    logger: Logger;
    onExchange: GiftServiceClientOptions["onExchange"];
  },
): QuotaSender {
  const { credentials } = settings;
  return new QuotaSender({
    baseUrl: settings.baseUrl,
    agent: parts.agent,
    limits: settings.limits,
    scheduler: parts.scheduler,
    scrubber: () => credentials.scrubber(),
    logger: parts.logger,
    ...(parts.onExchange ? { onExchange: parts.onExchange } : {}),
  });
}

/** Builds the client. Throws GiftServiceConfigError (without secret values) on bad options. */
export function createGiftServiceClient(
  options: GiftServiceClientOptions,
): GiftServiceClientWithQuota {
  const settings = resolveSettings(options);
  // Read as each request is sent (after its wait in the quota): rotated credentials apply to
  // every request not yet sent; answers are scrubbed of every secret ever held.
  const { credentials } = settings;
  const logger = (options.logger ?? silentLogger).child({ component: "gift-service" });
  const scheduler = new QuotaScheduler(settings.quota);
  const agent = createAgent(settings.timeouts);
  const sender = createSender(settings, {
    agent,
    scheduler,
    logger,
    onExchange: options.onExchange,
  });
  const readSettings = {
    readRetries: settings.readRetries,
    maxRetryWaitSeconds: settings.maxRetryWaitSeconds,
    maxBodyBytes: settings.limits.maxBodyBytes,
    logger,
  };
  const latestChecks = new LatestChecks();
  const slots = new ReservedSlots(scheduler);
  const purchase = purchaseSender(sender, slots, {
    maxBodyBytes: settings.limits.maxBodyBytes,
    logger,
  });
  let closing: Promise<void> | undefined;

  return {
    async getUserInfo(username, callOptions = {}) {
      const invalid = checkUsername(username);
      if (invalid) return invalid;
      const request = userInfoRequest(username);
      const { owner, replace } = callOptions;
      const ticket = replace && owner !== undefined ? latestChecks.begin(owner) : undefined;
      try {
        return await readWithRetries(
          sender,
          request,
          callOptions,
          (answer) => classifyUserInfoAnswer(username, answer),
          readSettings,
          { isSuperseded: () => ticket !== undefined && latestChecks.isSuperseded(ticket) },
        );
      } catch (error) {
        return supersededOutcome(error);
      } finally {
        if (ticket) latestChecks.end(ticket);
      }
    },

    async getWalletBalance(callOptions = {}) {
      const request = walletBalanceRequest(credentials, callOptions.bulk ? "bulk" : "shared_read");
      return readWithRetries(sender, request, callOptions, classifyBalanceAnswer, readSettings);
    },

    reservePurchase: (reserveOptions) => slots.reserve(reserveOptions),

    async buyStars(input, callOptions = {}) {
      const invalid =
        checkUsername(input.username) ??
        checkAmount(input.amount) ??
        checkPaymentMethod(input.paymentMethod);
      return purchase(invalid, callOptions, () => starsPurchaseRequest(input, credentials));
    },

    async buyPremium(input, callOptions = {}) {
      const invalid =
        checkUsername(input.username) ??
        checkDuration(input.duration) ??
        checkPaymentMethod(input.paymentMethod);
      return purchase(invalid, callOptions, () => premiumPurchaseRequest(input, credentials));
    },

    estimateWait: (priority) => scheduler.estimateWait(priority),

    stopPurchases: () => scheduler.stopPurchases(),

    quotaSnapshot: (top) => scheduler.snapshot(top),

    close() {
      // Idempotent: closing twice (a shutdown path and a test hook) must not throw.
      closing ??= (async () => {
        scheduler.close();
        await agent.close();
      })();
      return closing;
    },
  };
}

/**
 * A purchase's one request: refused by the client's own checks (its slot given back), or sent
 * once, in its reserved slot at once when it has one, else after its turn in the quota.
 */
function purchaseSender(
  sender: QuotaSender,
  slots: ReservedSlots,
  settings: { maxBodyBytes: number; logger: Logger },
) {
  return async (
    invalid: Invalid | undefined,
    options: PurchaseCallOptions,
    request: () => ServiceRequest,
  ): Promise<PurchaseOutcome> => {
    const slot = slots.take(options.slot, invalid);
    if ("kind" in slot) return slot;
    return sendPurchaseOnce(sender, request(), options, settings, slot.grant);
  };
}

/** A queued check replaced by its owner's newer one ends as an outcome, not an exception. */
function supersededOutcome(error: unknown): UserInfoOutcome {
  if (error instanceof QueueSupersededError) return { kind: "superseded" };
  throw error;
}
