/**
 * The purchase desk: joins the service client and the ledger in the order the service
 * requires (check the recipient, read the balance, record the intent, send one request), so
 * that no chat flow can get the order wrong. The ledger's claim decides whether a request may
 * go out; the desk only sends after that claim has committed, and writes the outcome right
 * after. Its pure decisions are in ./decisions.ts, the request in ./send.ts, the admins'
 * evidence in ./evidence.ts; reading the ledger is ./records.ts, not the desk.
 */
import { IllegalTransitionError, IntentNotFoundError } from "../ledger/errors.js";
import type {
  PurchaseIntent,
  PurchaseLedger,
  RecordedOutcome,
  SpendingLimits,
} from "../ledger/types.js";
import { parseUsername } from "../gifts/username.js";
import { type Logger, silentLogger } from "../logger.js";
import type { Ambiguous, GiftServiceClient, PaymentMethod } from "../service/types.js";
import {
  balanceReadAt,
  balanceSnapshot,
  confirmResultOf,
  isSent,
  knownBalance,
  lateAfterRecovery,
  needsPremiumRecheck,
  toBalanceRead,
  toRecipientCheck,
  unrecorded,
} from "./decisions.js";
import { gatherEvidence } from "./evidence.js";
import { Listeners } from "./listeners.js";
import type { OnChainEvidence } from "./on-chain.js";
import { PurchaseLane } from "./purchase-lane.js";
import { sendPurchase } from "./send.js";
import { SharedReads } from "./shared-reads.js";
import type {
  BalanceRead,
  ConfirmOptions,
  ConfirmResult,
  DraftRequest,
  PurchaseDesk,
  PurchaseSentListener,
  RecipientCheck,
  ReconciliationEvidence,
  ResolveResult,
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

type OnQueued = ((waitMs: number) => void) | undefined;

/** Builds the desk; the bot's only door to buying. */
export function createPurchaseDesk(deps: PurchaseDeskDeps): PurchaseDesk {
  return new Desk(deps);
}

/** The service's shared, briefly cached reads: recipient checks and the wallet balance. */
class ServiceReads {
  readonly recipients: SharedReads<string, RecipientCheck>;
  readonly balances: SharedReads<"wallet", BalanceRead>;

  constructor(deps: PurchaseDeskDeps, clock: () => number, logger: Logger) {
    const { client } = deps;
    // The client promises typed outcomes; should it throw anyway, a read is merely unavailable.
    this.recipients = new SharedReads<string, RecipientCheck>(
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
    this.balances = new SharedReads<"wallet", BalanceRead>(
      (_key, onQueued) =>
        client.getWalletBalance({ onQueued }).then(toBalanceRead, (err: unknown): BalanceRead => {
          logger.error({ err }, "balance read failed unexpectedly");
          return { kind: "unavailable" };
        }),
      { ttlMs: deps.balanceCacheMs ?? 15_000, clock, cacheable: (read) => read.kind === "ok" },
    );
  }

  /** Parses the username, then checks it; one cache entry per name (case-insensitive). */
  recipient(input: string, options: { onQueued?: OnQueued; fresh?: boolean } = {}) {
    const username = parseUsername(input);
    if (username === undefined)
      return Promise.resolve<RecipientCheck>({ kind: "invalid_username" });
    return this.recipients.read(username.toLowerCase(), options);
  }

  balance(options: { onQueued?: OnQueued; fresh?: boolean } = {}): Promise<BalanceRead> {
    return this.balances.read("wallet", options);
  }
}

class Desk implements PurchaseDesk {
  readonly #ledger: PurchaseLedger;
  readonly #client: GiftServiceClient;
  readonly #clock: () => number;
  readonly #logger: Logger;
  readonly #recheckAfterMs: number;
  readonly #onChain: OnChainEvidence | undefined;
  readonly #reads: ServiceReads;
  readonly #unconfirmed: Listeners<[PurchaseIntent, Ambiguous]>;
  readonly #sent: Listeners<[SentResult]>;
  // The ledger lets one purchase be in flight at a time; in this process, confirmations wait
  // their turn here instead of being refused as "busy".
  readonly #lane = new PurchaseLane();

  constructor(deps: PurchaseDeskDeps) {
    this.#ledger = deps.ledger;
    this.#client = deps.client;
    this.#clock = deps.clock ?? (() => deps.ledger.now());
    this.#logger = deps.logger ?? silentLogger;
    this.#recheckAfterMs = deps.premiumRecheckAfterMs ?? 60_000;
    this.#onChain = deps.onChain;
    this.#reads = new ServiceReads(deps, this.#clock, this.#logger);
    this.#unconfirmed = new Listeners(this.#logger, "unconfirmed listener failed");
    this.#sent = new Listeners(this.#logger, "purchase-sent listener failed");
  }

  checkRecipient(username: string, options: ConfirmOptions = {}): Promise<RecipientCheck> {
    return this.#reads.recipient(username, options);
  }

  readBalance(options: ConfirmOptions = {}): Promise<BalanceRead> {
    return this.#reads.balance(options);
  }

  async createDraft(request: DraftRequest, options: ConfirmOptions = {}): Promise<PurchaseIntent> {
    const read = await this.#reads.balance(options);
    const balanceBefore = balanceSnapshot(read);
    const balanceBeforeAt = balanceReadAt(balanceBefore, this.#reads.balances.peek("wallet"));
    return this.#ledger.createDraft({ ...request, balanceBefore, balanceBeforeAt }, this.#clock());
  }

  changePaymentMethod(id: string, userId: number, method: PaymentMethod) {
    return this.#ledger.changePaymentMethod(id, userId, method, this.#clock());
  }

  cancel(id: string, userId: number): boolean {
    return this.#ledger.cancel(id, userId, this.#clock());
  }

  async confirm(
    id: string,
    userId: number,
    options: ConfirmOptions & { isAdmin?: boolean } = {},
  ): Promise<ConfirmResult> {
    const before = this.#ledger.get(id);
    if (before === undefined) return { kind: "refused", refusal: { reason: "not_found" } };
    if (needsPremiumRecheck(before, userId, this.#clock(), this.#recheckAfterMs)) {
      const refused = await this.#recheckPremium(before, userId, options.onQueued);
      if (refused !== undefined) return refused;
    }
    if (this.#lane.busy) {
      options.onQueued?.(Math.max(1_000, this.#client.estimateWait("purchase")));
    }
    return this.#lane.run(async () => {
      const result = await this.#claimAndSend(id, userId, options);
      // Told inside the lane, before the next confirmation's claim: a listener that pauses
      // purchases (the breaker) does so before anything else can be sent.
      if (isSent(result)) this.#sent.emit(result.intent.id, result);
      return result;
    });
  }

  evidence(id: string): Promise<ReconciliationEvidence | undefined> {
    return gatherEvidence(id, {
      ledger: this.#ledger,
      clock: this.#clock,
      logger: this.#logger,
      onChain: this.#onChain,
      balanceNow: () => this.#reads.balance({ fresh: true }),
      premiumNow: (username) =>
        this.#reads
          .recipient(username, { fresh: true })
          .then((check) => (check.kind === "ok" ? check.isPremium : undefined)),
    });
  }

  resolve(id: string, adminId: number, delivered: boolean): ResolveResult {
    try {
      const resolved = this.#ledger.resolve(id, adminId, delivered, this.#clock());
      return { ok: true, ...resolved };
    } catch (err) {
      if (err instanceof IntentNotFoundError) return { ok: false, reason: "not_found" };
      if (err instanceof IllegalTransitionError) return { ok: false, reason: "not_unconfirmed" };
      throw err;
    }
  }

  pause(adminId: number): void {
    this.#ledger.setPaused(true, adminId, this.#clock());
  }

  resume(adminId: number): void {
    this.#ledger.setPaused(false, adminId, this.#clock());
  }

  pauseByBreaker(detail: unknown): void {
    this.#ledger.pauseByBreaker(detail, this.#clock());
  }

  setLimits(limits: SpendingLimits): void {
    this.#ledger.setLimits(limits);
  }

  onUnconfirmed(listener: UnconfirmedListener): () => void {
    return this.#unconfirmed.add(listener);
  }

  onPurchaseSent(listener: PurchaseSentListener): () => void {
    return this.#sent.add(listener);
  }

  recoverInterrupted(): PurchaseIntent[] {
    const recovered = this.#ledger.recoverInterrupted(this.#clock());
    for (const intent of recovered) {
      this.#unconfirmed.emit(intent.id, intent, {
        kind: "ambiguous",
        cause: "transport",
        detail: intent.outcomeDetail ?? "interrupted while the request was in flight",
      });
    }
    return recovered;
  }

  expireDrafts(): number {
    return this.#ledger.expireDrafts(this.#clock());
  }

  /**
   * The summary is old: the recipient may have got premium since. Concurrent confirmations
   * share this one fresh read. Returns the result when nothing may be bought, else undefined.
   */
  async #recheckPremium(
    before: PurchaseIntent,
    userId: number,
    onQueued: OnQueued,
  ): Promise<ConfirmResult | undefined> {
    const check = await this.#reads.recipient(before.recipient, { fresh: true, onQueued });
    if (
      check.kind === "ok" &&
      check.isPremium === true &&
      this.#ledger.cancel(before.id, userId, this.#clock())
    ) {
      return { kind: "recipient_has_premium", intent: this.#ledger.get(before.id) ?? before };
    }
    // Without a fresh answer `is_premium` was not checked before buying: nothing is claimed,
    // and the person may press Confirm again.
    if (check.kind !== "ok")
      return { kind: "refused", refusal: { reason: "recipient_unverified" } };
    return undefined;
  }

  /**
   * Claims the intent and, only if the claim won, sends its one request and records the
   * outcome. Runs in the purchase lane: one at a time in this process.
   */
  async #claimAndSend(
    id: string,
    userId: number,
    options: { onQueued?: OnQueued; isAdmin?: boolean },
  ): Promise<ConfirmResult> {
    const claim = this.#ledger.claim(id, userId, this.#clock(), {
      isAdmin: options.isAdmin === true,
    });
    if (!claim.ok) {
      const { ok: _ok, ...refusal } = claim;
      return { kind: "refused", refusal };
    }
    // The claim has committed (the ledger answers synchronously): only now may the request go.
    this.#refreshBalanceBefore(claim.intent);
    const outcome = await sendPurchase(this.#client, claim.intent, options.onQueued);
    if (outcome.kind === "not_sent" || outcome.kind === "invalid") {
      // The request never left: cancelled while queued, or refused by the client's own checks.
      // Nothing was spent, so the cached balance still holds.
      const reason = outcome.kind === "not_sent" ? "cancelled" : "invalid";
      const detail =
        outcome.kind === "not_sent"
          ? outcome.detail
          : `not sent: refused by the client before sending (invalid ${outcome.field})`;
      const recorded = this.#record(id, reason, () =>
        this.#ledger.recordNotSent(id, detail, this.#clock()),
      );
      if (recorded === undefined) return unrecorded(claim.intent);
      return recorded.recorded
        ? { kind: "not_sent", intent: recorded.intent, reason }
        : lateAfterRecovery(recorded.intent);
    }
    const recorded = this.#record(id, outcome.kind, () =>
      this.#ledger.recordOutcome(id, outcome, this.#clock()),
    );
    if (recorded === undefined) return unrecorded(claim.intent);
    const { intent } = recorded;
    if (intent.kind === "premium" && outcome.kind === "success") {
      this.#reads.recipients.forget(intent.recipient.toLowerCase());
    }
    this.#reads.balances.forget("wallet");
    if (outcome.kind === "ambiguous" && recorded.recorded) {
      this.#unconfirmed.emit(intent.id, intent, outcome);
    }
    return confirmResultOf(outcome, recorded);
  }

  /**
   * Just before a claimed intent's request goes out, replaces its "balance before" (read for
   * the draft, up to the draft's lifetime ago) with a newer read the desk already holds, so a
   * purchase sent in between is not mistaken for this one's spending. Evidence only: a failure
   * to write it is logged and the purchase goes on, since the claim has already committed.
   */
  #refreshBalanceBefore(intent: PurchaseIntent): void {
    const known = knownBalance(this.#reads.balances.peek("wallet"));
    if (known === undefined) return;
    try {
      this.#ledger.recordBalanceBefore(intent.id, known.balance, known.at, this.#clock());
    } catch (err) {
      this.#logger.warn(
        { err, intentId: intent.id },
        "could not record the balance before a purchase",
      );
    }
  }

  /**
   * Writes an outcome and logs it (ids, kinds and statuses only: never the request, its
   * headers or the service's body). Undefined when the write failed: see {@link unrecorded}.
   */
  #record(
    id: string,
    outcomeKind: string,
    write: () => RecordedOutcome,
  ): RecordedOutcome | undefined {
    let recorded: RecordedOutcome;
    try {
      recorded = write();
    } catch (err) {
      this.#logger.error(
        { err, intentId: id, outcome: outcomeKind },
        "could not record a purchase outcome",
      );
      return undefined;
    }
    const intent = recorded.intent;
    this.#logger[intent.status === "unconfirmed" ? "warn" : "info"](
      { intentId: id, kind: intent.kind, status: intent.status, outcome: outcomeKind },
      "purchase outcome recorded",
    );
    return recorded;
  }
}
