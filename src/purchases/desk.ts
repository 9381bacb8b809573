/**
 * The purchase desk: joins the service client and the ledger in the order the spec requires
 * (check the recipient, read the balance, record the intent, send one request), so that no
 * chat flow can get the order wrong. The ledger's claim decides whether a request may go out;
 * the desk only sends after that claim has committed, and writes the outcome right after.
 */
import { IllegalTransitionError, IntentNotFoundError } from "../ledger/errors.js";
import type { PurchaseLedger, RecordedOutcome } from "../ledger/types.js";
import type { BalanceSnapshot, PurchaseIntent } from "../ledger/types.js";
import { type Logger, silentLogger } from "../logger.js";
import { GiftServiceCallCancelledError } from "../service/errors.js";
import type {
  Ambiguous,
  GiftServiceClient,
  PaymentMethod,
  PremiumDuration,
  PurchaseOutcome,
} from "../service/types.js";
import type { OnChainEvidence } from "./on-chain.js";
import { parseUsername } from "../gifts/username.js";
import { PurchaseLane } from "./purchase-lane.js";
import { SharedReads } from "./shared-reads.js";
import type {
  BalanceRead,
  ConfirmResult,
  PurchaseDesk,
  RecipientCheck,
  ReconciliationEvidence,
  PurchaseSentListener,
  SentResult,
  UnconfirmedListener,
} from "./types.js";

export interface PurchaseDeskDeps {
  ledger: PurchaseLedger;
  client: GiftServiceClient;
  /** Defaults to the ledger's clock, so the desk and the ledger agree on "now". */
  clock?: () => number;
  logger?: Logger;
  /** How long a recipient check is reused; default 60 s. */
  recipientCacheMs?: number;
  /** How long a balance read is reused; default 15 s. */
  balanceCacheMs?: number;
  /** A premium summary older than this re-checks `is_premium` at confirmation; default 60 s. */
  premiumRecheckAfterMs?: number;
  /** On-chain evidence for reconciliation, when TON_API_ENDPOINT is configured. */
  onChain?: OnChainEvidence;
}

/** Builds the desk; the bot's only door to buying. */
export function createPurchaseDesk(deps: PurchaseDeskDeps): PurchaseDesk {
  const { ledger, client } = deps;
  const clock = deps.clock ?? (() => ledger.now());
  const logger = deps.logger ?? silentLogger;
  const recheckAfterMs = deps.premiumRecheckAfterMs ?? 60_000;
  const listeners = new Set<UnconfirmedListener>();
  const sentListeners = new Set<PurchaseSentListener>();
  // The ledger lets one purchase be in flight at a time; in this process, confirmations wait
  // their turn here instead of being refused as "busy".
  const lane = new PurchaseLane();

  // The client promises typed outcomes; should it throw anyway, a read is merely unavailable.
  const recipients = new SharedReads<string, RecipientCheck>(
    (username, onQueued) =>
      client.getUserInfo(username, { onQueued }).then(
        (outcome) => toRecipientCheck(username, outcome),
        (err: unknown): RecipientCheck => {
          logger.error({ err }, "recipient check failed unexpectedly");
          return { kind: "unavailable" };
        },
      ),
    {
      ttlMs: deps.recipientCacheMs ?? 60_000,
      clock,
      cacheable: (check) => check.kind === "ok" || check.kind === "not_found",
    },
  );
  const balances = new SharedReads<"wallet", BalanceRead>(
    (_key, onQueued) =>
      client.getWalletBalance({ onQueued }).then(toBalanceRead, (err: unknown): BalanceRead => {
        logger.error({ err }, "balance read failed unexpectedly");
        return { kind: "unavailable" };
      }),
    { ttlMs: deps.balanceCacheMs ?? 15_000, clock, cacheable: (read) => read.kind === "ok" },
  );

  function checkRecipient(
    input: string,
    options: { onQueued?: (waitMs: number) => void; fresh?: boolean } = {},
  ): Promise<RecipientCheck> {
    const username = parseUsername(input);
    if (username === undefined) return Promise.resolve({ kind: "invalid_username" });
    // Usernames are case-insensitive on Telegram: one cache entry per name.
    return recipients.read(username.toLowerCase(), options);
  }

  function notifyUnconfirmed(intent: PurchaseIntent, ambiguity: Ambiguous): void {
    for (const listener of listeners) {
      try {
        const result: unknown = listener(intent, ambiguity);
        if (result instanceof Promise) {
          result.catch((err: unknown) =>
            logger.error({ err, intentId: intent.id }, "unconfirmed listener failed"),
          );
        }
      } catch (err) {
        logger.error({ err, intentId: intent.id }, "unconfirmed listener failed");
      }
    }
  }

  function notifySent(result: SentResult): void {
    for (const listener of sentListeners) {
      try {
        listener(result);
      } catch (err) {
        logger.error({ err, intentId: result.intent.id }, "purchase-sent listener failed");
      }
    }
  }

  /**
   * Sends the intent's one request. `not_sent` when the client cancelled it before it left
   * (the shutdown stops purchases still waiting for the quota): nothing went out.
   */
  async function send(
    intent: PurchaseIntent,
    onQueued?: (waitMs: number) => void,
  ): Promise<PurchaseOutcome | { kind: "not_sent"; detail: string }> {
    try {
      if (intent.kind === "stars") {
        return await client.buyStars(
          {
            username: intent.recipient,
            amount: intent.quantity,
            paymentMethod: intent.paymentMethod,
          },
          { onQueued },
        );
      }
      return await client.buyPremium(
        {
          username: intent.recipient,
          // The ledger only records 3, 6 or 12; the client checks again before sending.
          duration: intent.quantity as PremiumDuration,
          paymentMethod: intent.paymentMethod,
        },
        { onQueued },
      );
    } catch (err) {
      if (err instanceof GiftServiceCallCancelledError && !err.sent) {
        // Cancelled while queued (purchases stopped, or the client closed, at shutdown):
        // nothing went out.
        return {
          kind: "not_sent",
          detail:
            err.reason === "aborted"
              ? "not sent: cancelled before sending"
              : "not sent: cancelled at shutdown",
        };
      }
      // The client promises never to throw; if it does, the request may have gone out.
      return {
        kind: "ambiguous",
        cause: "transport",
        detail: `the client failed unexpectedly (${err instanceof Error ? err.name : "non-error"})`,
      };
    }
  }

  /** The newest good balance this desk holds, with when its read started; no request made. */
  function knownBalance(): { balance: BalanceSnapshot; at: number } | undefined {
    const known = balances.peek("wallet");
    if (known?.value.kind !== "ok" || !known.value.balance.recognised) return undefined;
    const { ton, usdt } = known.value.balance;
    return { balance: { ton, usdt }, at: known.at };
  }

  /**
   * Just before a claimed intent's request goes out, replaces its "balance before" (read for
   * the draft, up to the draft's lifetime ago) with a newer read the desk already holds, so a
   * purchase sent in between is not mistaken for this one's spending. Evidence only: a failure
   * to write it is logged and the purchase goes on, since the claim has already committed.
   */
  function refreshBalanceBefore(intent: PurchaseIntent): void {
    const known = knownBalance();
    if (known === undefined) return;
    try {
      ledger.recordBalanceBefore(intent.id, known.balance, known.at, clock());
    } catch (err) {
      logger.warn({ err, intentId: intent.id }, "could not record the balance before a purchase");
    }
  }

  /**
   * Claims the intent and, only if the claim won, sends its one request and records the
   * outcome. Runs in the purchase lane: one at a time in this process.
   */
  async function claimAndSend(
    id: string,
    userId: number,
    options: { onQueued?: (waitMs: number) => void; isAdmin?: boolean },
  ): Promise<ConfirmResult> {
    const claim = ledger.claim(id, userId, clock(), { isAdmin: options.isAdmin === true });
    if (!claim.ok) {
      const { ok: _ok, ...refusal } = claim;
      return { kind: "refused", refusal };
    }
    // The claim has committed (the ledger answers synchronously): only now may the request go.
    refreshBalanceBefore(claim.intent);
    const outcome = await send(claim.intent, options.onQueued);
    if (outcome.kind === "not_sent" || outcome.kind === "invalid") {
      // The request never left: cancelled while queued, or refused by the client's own checks.
      const reason = outcome.kind === "not_sent" ? "cancelled" : "invalid";
      const detail =
        outcome.kind === "not_sent"
          ? outcome.detail
          : `not sent: refused by the client before sending (invalid ${outcome.field})`;
      const recorded = record(id, claim.intent, reason, () =>
        ledger.recordNotSent(id, detail, clock()),
      );
      if ("kind" in recorded) return recorded;
      // Nothing went out, so nothing was spent: the cached balance still holds.
      return recorded.recorded
        ? { kind: "not_sent", intent: recorded.intent, reason }
        : lateAfterRecovery(recorded.intent);
    }
    const recorded = record(id, claim.intent, outcome.kind, () =>
      ledger.recordOutcome(id, outcome, clock()),
    );
    if ("kind" in recorded) return recorded;
    const intent = recorded.intent;
    if (intent.kind === "premium" && outcome.kind === "success") {
      recipients.forget(intent.recipient.toLowerCase());
    }
    balances.forget("wallet");

    switch (outcome.kind) {
      case "success":
        if (!recorded.recorded) break;
        return { kind: "succeeded", intent, txHash: outcome.value.txHash };
      case "rejected":
        if (!recorded.recorded) break;
        return { kind: "rejected", intent, rejection: outcome };
      case "ambiguous":
        if (recorded.recorded) notifyUnconfirmed(intent, outcome);
        return { kind: "unconfirmed", intent, ambiguity: outcome };
    }
    return lateAfterRecovery(intent);
  }

  /**
   * Writes an outcome and logs it. When the write fails the intent stays `sending`, which
   * holds every new claim until a restart makes it unconfirmed for an admin; the person is
   * told the outcome is unknown, never that they may retry (the request may have gone out).
   */
  function record(
    id: string,
    claimed: PurchaseIntent,
    outcomeKind: string,
    write: () => RecordedOutcome,
  ): RecordedOutcome | ConfirmResult {
    let recorded: RecordedOutcome;
    try {
      recorded = write();
    } catch (err) {
      logger.error(
        { err, intentId: id, outcome: outcomeKind },
        "could not record a purchase outcome",
      );
      return {
        kind: "unconfirmed",
        intent: claimed,
        ambiguity: {
          kind: "ambiguous",
          cause: "transport",
          detail: "the outcome could not be recorded",
        },
      };
    }
    const intent = recorded.intent;
    // Ids, kinds and statuses only: never the request, its headers or the service's body.
    logger[intent.status === "unconfirmed" ? "warn" : "info"](
      { intentId: id, kind: intent.kind, status: intent.status, outcome: outcomeKind },
      "purchase outcome recorded",
    );
    return recorded;
  }

  /** A restart's recovery had already made the intent unconfirmed: it stays so for an admin. */
  function lateAfterRecovery(intent: PurchaseIntent): ConfirmResult {
    return {
      kind: "unconfirmed",
      intent,
      ambiguity: {
        kind: "ambiguous",
        cause: "transport",
        detail: "the outcome arrived after the intent was recovered as interrupted",
      },
    };
  }

  const desk: PurchaseDesk = {
    checkRecipient: (username, options) => checkRecipient(username, options),

    readBalance: (options) => balances.read("wallet", options),

    createDraft(request) {
      // The bot shows the balance it just read through readBalance: when the cache still holds
      // that same figure, its read time is known and kept with the draft.
      const known = knownBalance();
      const balanceBeforeAt =
        request.balanceBeforeAt ??
        (known !== undefined &&
        request.balanceBefore !== undefined &&
        known.balance.ton === request.balanceBefore.ton &&
        known.balance.usdt === request.balanceBefore.usdt
          ? known.at
          : undefined);
      return ledger.createDraft({ ...request, balanceBeforeAt }, clock());
    },

    changePaymentMethod: (id, userId, method: PaymentMethod) =>
      ledger.changePaymentMethod(id, userId, method, clock()),

    cancel: (id, userId) => ledger.cancel(id, userId, clock()),

    async confirm(id, userId, options = {}): Promise<ConfirmResult> {
      const before = ledger.get(id);
      if (before === undefined) return { kind: "refused", refusal: { reason: "not_found" } };
      const now = clock();
      if (
        before.kind === "premium" &&
        before.status === "draft" &&
        before.requester.userId === userId &&
        before.expiresAt > now &&
        now - before.createdAt > recheckAfterMs
      ) {
        // The summary is old: the recipient may have got premium since (spec 4.4: check
        // is_premium before buying). Concurrent confirmations share this one fresh read.
        const check = await checkRecipient(before.recipient, {
          fresh: true,
          onQueued: options.onQueued,
        });
        if (check.kind === "ok" && check.isPremium === true && ledger.cancel(id, userId, clock())) {
          return { kind: "recipient_has_premium", intent: ledger.get(id) ?? before };
        }
        if (check.kind !== "ok") {
          // Without a fresh answer the spec's "check is_premium before buying" is not met:
          // nothing is claimed, and the person may press Confirm again.
          return { kind: "refused", refusal: { reason: "recipient_unverified" } };
        }
      }

      if (lane.busy) options.onQueued?.(Math.max(1_000, client.estimateWait("purchase")));
      const result = await lane.run(() => claimAndSend(id, userId, options));
      if (isSent(result)) notifySent(result);
      return result;
    },

    getIntent: (id) => ledger.get(id),

    recent: (query) => ledger.recent(query),

    unconfirmed: () => ledger.unconfirmed(),

    async evidence(id): Promise<ReconciliationEvidence | undefined> {
      const intent = ledger.get(id);
      if (intent === undefined) return undefined;
      const balanceNowAt = clock();
      const [balanceNow, premiumNow, onChainTransfers] = await Promise.all([
        balances
          .read("wallet", { fresh: true })
          .then((read): BalanceSnapshot | undefined =>
            read.kind === "ok" ? { ton: read.balance.ton, usdt: read.balance.usdt } : undefined,
          ),
        intent.kind === "premium"
          ? checkRecipient(intent.recipient, { fresh: true }).then((check) =>
              check.kind === "ok" ? check.isPremium : undefined,
            )
          : Promise.resolve(undefined),
        deps.onChain !== undefined
          ? deps.onChain
              .outgoingTransfersSince(intent.sentAt ?? intent.createdAt)
              .catch((err: unknown) => {
                logger.warn({ err, intentId: id }, "on-chain evidence failed");
                return undefined;
              })
          : Promise.resolve(undefined),
      ]);
      // Purchases out between the "before" read and this one's send may explain part of a drop.
      // Without a known read time the figure is at least as old as the draft.
      const sentSinceBalanceBefore = ledger.sentDuring(
        intent.balanceBeforeAt ?? intent.createdAt,
        intent.sentAt ?? clock(),
        intent.id,
      );
      return {
        intent,
        balanceBefore: intent.balanceBefore,
        balanceBeforeAt: intent.balanceBeforeAt,
        balanceNow,
        balanceNowAt: balanceNow === undefined ? undefined : balanceNowAt,
        sentSinceBalanceBefore,
        recipientHasPremiumNow: premiumNow,
        txHash: intent.txHash,
        onChainTransfers,
      };
    },

    resolve(id, adminId, delivered) {
      try {
        const { intent, unconfirmedLeft } = ledger.resolve(id, adminId, delivered, clock());
        return { ok: true, intent, unconfirmedLeft };
      } catch (err) {
        if (err instanceof IntentNotFoundError) return { ok: false, reason: "not_found" };
        if (err instanceof IllegalTransitionError) return { ok: false, reason: "not_unconfirmed" };
        throw err;
      }
    },

    pause: (adminId) => ledger.setPaused(true, adminId, clock()),

    resume: (adminId) => ledger.setPaused(false, adminId, clock()),

    status: () => ({ paused: ledger.pauseState().paused, unconfirmed: ledger.unconfirmedCount() }),

    limits: () => ({ ...ledger.limits }),

    usageToday: (userId) => ledger.usage(userId, clock()),

    onUnconfirmed(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    onPurchaseSent(listener) {
      sentListeners.add(listener);
      return () => sentListeners.delete(listener);
    },

    recoverInterrupted() {
      const recovered = ledger.recoverInterrupted(clock());
      for (const intent of recovered) {
        notifyUnconfirmed(intent, {
          kind: "ambiguous",
          cause: "transport",
          detail: intent.outcomeDetail ?? "interrupted while the request was in flight",
        });
      }
      return recovered;
    },

    expireDrafts: () => ledger.expireDrafts(clock()),

    dailyTotals: (days) => ledger.dailyTotals(days, clock()),
  };
  return desk;
}

/** Whether a confirmation sent its request (whatever came of it). */
function isSent(result: ConfirmResult): result is SentResult {
  return result.kind === "succeeded" || result.kind === "rejected" || result.kind === "unconfirmed";
}

function toRecipientCheck(
  asked: string,
  outcome: Awaited<ReturnType<GiftServiceClient["getUserInfo"]>>,
): RecipientCheck {
  switch (outcome.kind) {
    case "success": {
      if (!outcome.value.found) return { kind: "not_found" };
      // The service's spelling when it is a valid name, else the (valid) name asked about.
      const username = parseUsername(outcome.value.username ?? "") ?? parseUsername(asked);
      if (username === undefined) return { kind: "invalid_username" };
      return { kind: "ok", username, isPremium: outcome.value.isPremium };
    }
    case "rejected":
      return { kind: "refused", detail: outcome.detail };
    case "rate_limited":
      return { kind: "rate_limited", retryAfterSeconds: outcome.retryAfterSeconds };
    case "unavailable":
      return { kind: "unavailable" };
    case "invalid":
      return { kind: "invalid_username" };
    case "superseded":
      // Only a check sent with an owner and `replace` ends so; the desk sends neither yet.
      return { kind: "unavailable" };
  }
}

function toBalanceRead(
  outcome: Awaited<ReturnType<GiftServiceClient["getWalletBalance"]>>,
): BalanceRead {
  switch (outcome.kind) {
    case "success":
      return { kind: "ok", balance: outcome.value };
    case "rate_limited":
      return { kind: "rate_limited", retryAfterSeconds: outcome.retryAfterSeconds };
    default:
      return { kind: "unavailable" };
  }
}
