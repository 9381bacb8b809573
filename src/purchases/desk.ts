/**
 * The purchase desk: joins the service client and the ledger in the order the service
 * requires (check the recipient, read the balance, record the intent, send one request), so
 * that no chat flow can get the order wrong. The ledger's claim decides whether a request may
 * go out; the desk only sends after that claim has committed, and writes the outcome right
 * after. Its pure decisions are in ./decisions.ts, one confirmation's way out (checks, claim,
 * request, outcome) in ./claim-and-send.ts, its balance reads around purchases in
 * ./balance-reads.ts, the admins' evidence in ./evidence.ts; reading the ledger is
 * ./records.ts, not the desk.
 *
 * It keeps its promises: a confirmation that must wait for another purchase is recorded as
 * queued before the person is told (the claim still decides when its turn comes), and an
 * outcome the database refuses is kept unrecorded and written again (./unrecorded.ts) while purchases
 * wait, so a person and the admins always learn what became of a Confirm.
 */
import type { PremiumVia } from "../gifts/catalogue.js";
import type { PurchaseCost } from "../costs/types.js";
import type { PurchaseAccounts } from "../ledger/accounts.js";
import type { PurchaseIntent, PurchaseLedger, SpendingLimits } from "../ledger/types.js";
import { type Logger, silentLogger } from "../shared/logger.js";
import type { WriteRetryPolicy } from "../shared/write-retry.js";
import type { GiftServiceClient, PaymentMethod } from "../service/types.js";
import type { QuotaSnapshot } from "../service/quota.js";
import { balanceReadAt, balanceSnapshot, isSent } from "./decisions.js";
import { AdminOperations } from "./admin-operations.js";
import { CostMeter } from "./cost-meter.js";
import { DeskEventHub } from "./desk-events.js";
import type { OnChainEvidence } from "./on-chain.js";
import { OutcomeRecorder } from "./outcome-recorder.js";
import { PurchaseTurns } from "./turns.js";
import { RefusedWrites } from "./refused-writes.js";
import { BREAKER_PAUSE, ClaimAndSend, type LaneOptions } from "./claim-and-send.js";
import { ServiceReads } from "./service-reads.js";
import { PurchaseBalanceReads } from "./balance-reads.js";
import { UnrecordedPause } from "./unrecorded-pause.js";
import { starsDraft, type TelegramWay, telegramWayFor } from "./telegram-way.js";
import type { StarBalanceRead, TelegramStars } from "../stars/types.js";
import { UNRECORDED_RETRY, type UnrecordedRetry } from "./unrecorded.js";
import type {
  BalanceRead,
  ConfirmPressOptions,
  ConfirmOptions,
  ConfirmRefusal,
  ConfirmResult,
  DraftRequest,
  FairShareStatus,
  PremiumWay,
  PurchaseDesk,
  QueuedResolution,
  RecipientCheck,
  RecipientCheckRequest,
  PurchaseAdmin,
  ResolveQueuedOptions,
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
  /**
   * An `is_premium` read longer ago than this (or one that left it unknown) is read again right
   * before a premium purchase is claimed; default 60 s.
   */
  premiumRecheckAfterMs?: number;
  /** On-chain evidence for reconciliation, when TON_API_ENDPOINT is configured. */
  onChain?: OnChainEvidence;
  /** How a refused outcome write is retried at once (default OUTCOME_WRITE_RETRY; tests). */
  outcomeWriteRetry?: Partial<WriteRetryPolicy>;
  /** How an outcome still refused after that is written in the background (tests). */
  unrecordedRetry?: UnrecordedRetry;
  /**
   * How a refused claim, queue or close write is tried again (default STORAGE_WRITE_RETRY;
   * tests pass a `sleep` that changes the fault between tries).
   */
  storageRetry?: Partial<WriteRetryPolicy>;
  /**
   * Whether a request now would take no one's turn in the service's quota (`quotaIsIdle` in
   * src/app). The desk reads the balance after a purchase only then; default: never, so only
   * the reads people make anyway serve as the balance after.
   */
  quotaIdle?: () => boolean;
  /**
   * Recipient checks one person may cause per minute (CHECKS_PER_USER_MINUTE); checks are
   * not limited per person without it.
   */
  checksPerUserMinute?: number;
  /** CHECKS_EXEMPT_ADMINS: admins' checks are not charged (default true). */
  checksExemptAdmins?: boolean;
  /** The allowance's window, default a minute (the bench shortens it with the quota's). */
  checkWindowMs?: number;
  /** The client's scheduler, read-only, for the admins' status. */
  quotaSnapshot?: () => QuotaSnapshot;
  /**
   * The accounts beside the ledger: with them, each delivered purchase's cost is measured
   * (./cost-meter.ts) and every good balance read is kept for the daily report.
   */
  accounts?: PurchaseAccounts;
  /**
   * Asked by the service client as the very last step before a purchase's request is written
   * (after its wait for the quota): false withholds it, and it is recorded as not sent. The
   * app answers whether this process still certainly holds the sender lease; default: always.
   */
  mayLeave?: () => boolean;
  /**
   * The bot's own Stars (src/stars): Premium gifted through Telegram, when PREMIUM_VIA is not
   * `service`. Absent: every purchase goes through the service.
   */
  stars?: TelegramStars;
  /** PREMIUM_VIA (default `service`): how Premium is paid, per recipient. */
  premiumVia?: PremiumVia;
}

/** Builds the desk; the bot's only door to buying. */
export function createPurchaseDesk(deps: PurchaseDeskDeps): PurchaseDesk {
  return new Desk(deps);
}

class Desk implements PurchaseDesk {
  readonly #ledger: PurchaseLedger;
  readonly #clock: () => number;
  readonly #logger: Logger;
  readonly #reads: ServiceReads;
  readonly #quotaSnapshot: (() => QuotaSnapshot) | undefined;
  readonly events: DeskEventHub;
  /** Outcomes written, or kept unrecorded while the database refuses them. */
  readonly #outcomes: OutcomeRecorder;
  /** The desk's own balance reads around purchases (./balance-reads.ts). */
  readonly #balanceReads: PurchaseBalanceReads;
  /** Each confirmation's slot of the quota, then its turn in the lane (./turns.ts). */
  readonly #turns: PurchaseTurns;
  readonly #costs: CostMeter | undefined;
  /** The money path's writes, retried when the database refuses them. */
  readonly #writes: RefusedWrites;
  /** The breaker's pause when the database refused it: purchases stay closed meanwhile. */
  readonly #unrecordedPause: UnrecordedPause;
  /** One confirmation's way out: checks, claim, request, outcome (./claim-and-send.ts). */
  readonly #path: ClaimAndSend;
  /** What admins do with purchases: evidence, settling, the pause (./admin-operations.ts). */
  readonly admin: PurchaseAdmin;
  /** Premium through Telegram, from the bot's Stars (PREMIUM_VIA; ./telegram-way.ts). */
  readonly #telegram: TelegramWay | undefined;

  constructor(deps: PurchaseDeskDeps) {
    this.#ledger = deps.ledger;
    this.#clock = deps.clock ?? (() => deps.ledger.now());
    this.#logger = deps.logger ?? silentLogger;
    this.#quotaSnapshot = deps.quotaSnapshot;
    this.events = new DeskEventHub(this.#logger);
    this.#outcomes = new OutcomeRecorder({
      ledger: deps.ledger,
      logger: this.#logger,
      clock: this.#clock,
      retry: deps.outcomeWriteRetry,
      unrecordedRetry: deps.unrecordedRetry,
      onUnconfirmed: (intent, ambiguity) =>
        this.events.emit("unconfirmed", intent.id, intent, ambiguity),
      onUnrecorded: (intent, answer) =>
        this.events.emit("outcomeUnrecorded", intent.id, intent, answer),
      onRefused: (err) => this.#writes.report("outcome", err),
    });
    this.#reads = new ServiceReads(deps, this.#clock, this.#logger, (reading) =>
      this.events.emit("balanceRead", undefined, reading),
    );
    this.#costs = this.#costMeter(deps);
    this.#writes = new RefusedWrites({
      ledger: deps.ledger,
      retry: deps.storageRetry,
      logger: this.#logger,
      clock: this.#clock,
      onFailure: (failure) => this.events.emit("storageFailure", undefined, failure),
    });
    this.#telegram = telegramWayFor(deps, this.#clock, this.#logger, this.events);
    this.#unrecordedPause = new UnrecordedPause({
      retry: deps.unrecordedRetry ?? UNRECORDED_RETRY,
      logger: this.#logger,
      isTransient: deps.ledger.isTransientWriteError,
    });
    this.#path = new ClaimAndSend({
      ledger: deps.ledger,
      client: deps.client,
      clock: this.#clock,
      logger: this.#logger,
      reads: this.#reads,
      outcomes: this.#outcomes,
      writes: this.#writes,
      unrecordedPause: this.#unrecordedPause,
      costs: this.#costs,
      events: this.events,
      recheckAfterMs: deps.premiumRecheckAfterMs ?? 60_000,
      mayLeave: deps.mayLeave,
      telegram: this.#telegram,
    });
    this.#turns = new PurchaseTurns({
      client: deps.client,
      ledger: deps.ledger,
      path: this.#path,
      writes: this.#writes,
      clock: this.#clock,
      told: (result) => this.#told(result),
      giftsStopped: () => this.#telegram?.stopped ?? true,
    });
    this.#balanceReads = new PurchaseBalanceReads({
      reads: this.#reads,
      events: this.events,
      costs: this.#costs,
      quotaIdle: deps.quotaIdle ?? (() => false),
      othersOnTheirWay: () => this.#turns.othersOnTheirWay,
    });
    this.admin = new AdminOperations({
      ledger: deps.ledger,
      clock: this.#clock,
      logger: this.#logger,
      onChain: deps.onChain,
      reads: this.#reads,
      unrecordedPause: this.#unrecordedPause,
      events: this.events,
      telegram: this.#telegram,
    });
  }

  /**
   * With the accounts, the meter of each delivered purchase's cost: one more listener of the
   * balance reads, so it takes its readings from the desk's one read after a purchase (or the
   * reads people make anyway) and never reads the wallet itself.
   */
  #costMeter(deps: PurchaseDeskDeps): CostMeter | undefined {
    if (deps.accounts === undefined) return undefined;
    const meter = new CostMeter({
      ledger: deps.ledger,
      accounts: deps.accounts,
      onChain: deps.onChain,
      clock: this.#clock,
      logger: this.#logger,
    });
    this.events.on("balanceRead", (reading) => meter.observe(reading));
    return meter;
  }

  checkRecipient(username: string, options: RecipientCheckRequest = {}): Promise<RecipientCheck> {
    return this.#reads.recipient(username, options);
  }

  fairShare(): FairShareStatus {
    return {
      quota: this.#quotaSnapshot?.(),
      throttledChecks: this.#reads.allowance?.throttled() ?? [],
      checksPerUserMinute: this.#reads.allowance?.perMinute,
    };
  }

  readBalance(options: ConfirmOptions = {}): Promise<BalanceRead> {
    return this.#reads.balance(options);
  }

  premiumWay = (id: number | undefined): PremiumWay =>
    this.#telegram?.way(id) ?? { via: "service" };
  readStarBalance = async (): Promise<StarBalanceRead | undefined> => this.#telegram?.balance();

  async createDraft(request: DraftRequest, options: ConfirmOptions = {}): Promise<PurchaseIntent> {
    if (request.paidVia === "telegram") return starsDraft(this.#telegram, request);
    const read = await this.#reads.balance(options);
    const balanceBefore = balanceSnapshot(read);
    const balanceBeforeAt = balanceReadAt(balanceBefore, this.#reads.balances.peek("wallet"));
    return this.#ledger.createDraft({ ...request, balanceBefore, balanceBeforeAt }, this.#clock());
  }

  async changePaymentMethod(id: string, userId: number, method: PaymentMethod) {
    return this.#ledger.changePaymentMethod(id, userId, method, this.#clock());
  }

  async cancel(id: string, userId: number): Promise<boolean> {
    return this.#ledger.cancel(id, userId, this.#clock());
  }

  async confirm(
    id: string,
    userId: number,
    options: ConfirmPressOptions = {},
  ): Promise<ConfirmResult> {
    const before = await this.#ledger.get(id);
    const result: ConfirmResult =
      before === undefined
        ? { kind: "refused", refusal: { reason: "not_found" } }
        : await this.#confirmIntent(id, userId, options);
    this.events.emit("confirmed", id, result, before?.kind);
    return result;
  }

  /**
   * What closes purchases in this process's memory before the ledger knows it: outcomes not
   * yet written (on hold), or the breaker's pause still being written.
   */
  async #closedInMemory(): Promise<ConfirmRefusal | undefined> {
    if (this.#outcomes.unrecordedCount > 0) return this.#path.onHold();
    return this.#unrecordedPause.active ? BREAKER_PAUSE : undefined;
  }

  /** `confirm` of an intent that exists, without its onConfirmed event. */
  async #confirmIntent(
    id: string,
    userId: number,
    options: ConfirmPressOptions,
  ): Promise<ConfirmResult> {
    const closed = await this.#closedInMemory();
    if (closed !== undefined) return { kind: "refused", refusal: closed };
    const result = await this.#turns.confirm(id, userId, options);
    // Done, so `othersOnTheirWay` now means another confirmation is on its way.
    if (isSent(result)) this.#balanceReads.afterPurchase([result]);
    return result;
  }

  async sendBatchItem(intent: PurchaseIntent): Promise<ConfirmResult> {
    const userId = intent.requester.userId;
    const closed = await this.#closedInMemory();
    let result: ConfirmResult;
    if (closed !== undefined) {
      result = { kind: "refused", refusal: closed };
    } else {
      // No queued promise is written: nobody waits on this press but the batch, which is
      // itself the record of what is left to send. People's confirmations go first.
      result = await this.#turns.takeBehindPeople(intent.id, userId, { isAdmin: true }, () =>
        this.#balanceReads.beforeBatchItem(),
      );
      if (result.kind === "succeeded") await this.#balanceReads.afterBatchItem(result.intent.id);
    }
    this.events.emit("confirmed", intent.id, result, intent.kind);
    return result;
  }

  async resolveQueued(options: ResolveQueuedOptions): Promise<QueuedResolution[]> {
    const resolved: QueuedResolution[] = [];
    for (const intent of await this.#ledger.queued()) {
      const userId = intent.requester.userId;
      const send: LaneOptions = {
        isAdmin: options.isAdmin(userId),
        atStart: true,
        queued: true,
        mayBuy: () => options.mayBuy(intent),
      };
      const result = await this.#turns.take(intent.id, userId, send, {});
      this.events.emit("confirmed", intent.id, result, intent.kind);
      resolved.push({ intent, result });
    }
    const sent = resolved.map(({ result }) => result).filter(isSent);
    if (sent.length > 0) this.#balanceReads.afterPurchase(sent);
    return resolved;
  }

  unrecordedCount(): number {
    return this.#outcomes.unrecordedCount;
  }

  async close(): Promise<void> {
    this.#unrecordedPause.drop();
    await this.#outcomes.close();
  }

  pauseByBreaker(detail: unknown): Promise<void> {
    return this.#unrecordedPause.writeNow(
      () => this.#ledger.pauseByBreaker(detail, this.#clock()),
      (err) => {
        this.#logger.error(
          { err },
          "the breaker's pause could not be written; kept unrecorded in memory",
        );
        this.#writes.report("pause", err);
      },
    );
  }

  setLimits(limits: SpendingLimits): void {
    this.#ledger.setLimits(limits);
  }

  async measuredCost(id: string, waitMs: number): Promise<PurchaseCost | undefined> {
    await this.#costs?.settled(id, waitMs);
    return (await this.#ledger.get(id))?.cost;
  }

  costMeasuring(id: string): boolean {
    return this.#costs?.measuring(id) ?? false;
  }

  async settled(options: { costsWithinMs?: number } = {}): Promise<boolean> {
    await this.#balanceReads.idle();
    return (await this.#costs?.idle(options.costsWithinMs)) ?? true;
  }

  async recoverInterrupted(): Promise<PurchaseIntent[]> {
    const interrupted = await this.#ledger.recoverInterrupted(this.#clock());
    // A gift through Telegram its books prove is settled now, not unknown (telegram-way.ts).
    const recovered = (await this.#telegram?.unproved(interrupted)) ?? interrupted;
    for (const intent of recovered) {
      this.events.emit("unconfirmed", intent.id, intent, {
        kind: "ambiguous",
        cause: "transport",
        detail: intent.outcomeDetail ?? "interrupted while the request was in flight",
      });
    }
    return recovered;
  }

  async expireDrafts(): Promise<number> {
    return this.#ledger.expireDrafts(this.#clock());
  }

  /**
   * Tells the purchase-sent listeners about a confirmation whose request went out. Called
   * inside the lane, before the next confirmation's claim: a listener that pauses purchases
   * (the breaker) does so before anything else can be sent.
   */
  async #told(result: ConfirmResult): Promise<ConfirmResult> {
    if (isSent(result)) await this.events.emitAndWait("sent", result.intent.id, result);
    return result;
  }
}
