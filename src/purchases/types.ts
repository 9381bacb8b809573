/**
 * The purchase desk: the one door through which the bot buys anything. It joins the service
 * client and the ledger so that the bot never talks HTTP or SQL, and so that the order the
 * service requires (check the recipient, read the balance, record the intent, send one request)
 * cannot be got wrong by a chat flow.
 */
import type { BalanceReading, PurchaseCost } from "../costs/types.js";
import type {
  BalanceSnapshot,
  ClaimRefusal,
  IntentKind,
  NewIntent,
  PauseSource,
  PurchaseIntent,
  SpendingLimits,
} from "../ledger/types.js";
import type { Username } from "../gifts/username.js";
import type {
  Ambiguous,
  PaymentMethod,
  PurchaseOutcome,
  PurchaseResult,
  Rejected,
  Success,
  WalletBalance,
} from "../service/types.js";
import type { QuotaSnapshot } from "../service/quota.js";
import type { StarBalanceRead, StarTransactionSeen } from "../stars/types.js";
import type { ThrottledPerson } from "./check-allowance.js";

/** The recipient check, as the chat flows need it. */
export type RecipientCheck =
  | { kind: "ok"; username: Username; isPremium: boolean | undefined }
  | { kind: "invalid_username" }
  | { kind: "not_found" }
  | { kind: "refused"; detail: string | undefined }
  | { kind: "rate_limited"; retryAfterSeconds: number }
  | { kind: "unavailable" }
  /** Over the person's checks per minute (CHECKS_PER_USER_MINUTE): nothing was sent or queued. */
  | { kind: "throttled"; retryAfterSeconds: number }
  /** A newer check of the same person took this one's place in the queue: it was never sent. */
  | { kind: "superseded" };

export type BalanceRead =
  | { kind: "ok"; balance: WalletBalance }
  | { kind: "rate_limited"; retryAfterSeconds: number }
  | { kind: "unavailable" };

/**
 * What the bot asks the desk to record for a summary: the ledger's new intent with a parsed
 * recipient; the desk adds the balance before.
 */
export type DraftRequest = Omit<NewIntent, "recipient" | "balanceBefore" | "balanceBeforeAt"> & {
  recipient: Username;
};

/**
 * Why a confirmation sent nothing: the ledger's refusal, or a premium recipient whose
 * `is_premium` could not be checked again at confirmation.
 */
export type ConfirmRefusal =
  | ClaimRefusal
  | { reason: "recipient_unverified" }
  /** The service's answer left `is_premium` unknown, also when asked again. */
  | { reason: "recipient_premium_unknown" }
  /** The person who queued the confirmation may no longer buy there (checked at its turn). */
  | { reason: "no_access" }
  /**
   * The bot's own database refused the write that would claim, queue or close the intent
   * (locked by another connection past every retry, full, read-only). Nothing was sent.
   */
  | { reason: "storage" }
  /**
   * The bot is stopping (a restart, a deploy) while the confirmation waited for its slot of the
   * service's quota: nothing was claimed or sent, and it can be pressed again after the start.
   */
  | { reason: "stopping" }
  /**
   * Premium through Telegram: the bot's Star balance, read right before the claim, is less
   * than Telegram's price; nothing was sent. Passes once an admin tops the balance up.
   */
  | { reason: "not_enough_stars"; stars: number; needed: number }
  /** Premium through Telegram: the bot's Star balance could not be read; nothing was sent. */
  | { reason: "stars_unavailable" };

/**
 * How a Premium gift will be paid, as the flows ask before the summary (PREMIUM_VIA):
 * through Telegram from the bot's Stars (for a recipient named by id), through the service from
 * the wallet, or `unnamed`: only Telegram may pay and the bot does not know the recipient's id.
 */
export type PremiumWay =
  { via: "telegram"; recipientUserId: number } | { via: "service" } | { via: "unnamed" };

/**
 * The proof that a gift through Telegram whose answer was lost was made (src/stars/proof.ts):
 * the bot's Star transaction, and the balances read around it. Kept in the ledger.
 */
export interface StarProof {
  transaction: StarTransactionSeen;
  /** The Star balance read right before the gift, and when the proof was found. */
  starsBefore: number | undefined;
  starsAfter: number | undefined;
  /** How much of the transactions' list was read (every entry, offset 0 up). */
  read: number;
}

/** What a person's press of "Confirm" came to. */
export type ConfirmResult =
  | {
      kind: "succeeded";
      intent: PurchaseIntent;
      txHash: string | undefined;
      /**
       * Through Telegram, its answer lost: the bot's Star transactions proved the gift was
       * made, and it was settled as delivered at once.
       */
      proof?: StarProof;
    }
  | { kind: "rejected"; intent: PurchaseIntent; rejection: Rejected }
  | { kind: "unconfirmed"; intent: PurchaseIntent; ambiguity: Ambiguous }
  /**
   * The claim won but the request never left, so nothing was spent; the intent is recorded
   * as rejected with a "not sent: ..." detail. `invalid`: the client's own checks refused it.
   * `cancelled`: no longer made (a claimed purchase never waits for the quota now), kept for
   * the outcomes older versions recorded ("not sent: cancelled at shutdown").
   */
  | { kind: "not_sent"; intent: PurchaseIntent; reason: "cancelled" | "invalid" }
  /** The claim was refused (or, for premium, the recipient could not be re-checked): nothing was sent. */
  | { kind: "refused"; refusal: ConfirmRefusal }
  /**
   * A confirmation recorded as queued that was closed unsent when its turn came (or at the
   * start after a crash): its claim, or a check before it, refused. Nothing was spent.
   */
  | { kind: "closed"; intent: PurchaseIntent; refusal: ConfirmRefusal }
  /** Premium only: the recheck at confirmation found the recipient already premium; nothing was sent. */
  | { kind: "recipient_has_premium"; intent: PurchaseIntent };

export interface ConfirmOptions {
  /** Told when the request must wait for the service's quota, with the expected wait. */
  onQueued?: (waitMs: number) => void;
}

/** Whose recipient check this is: the per-person allowance and the fair queue need it. */
export interface RecipientCheckRequest extends ConfirmOptions {
  /**
   * The person asking (a Telegram user id). A check that reaches the service is charged to
   * them and queued as theirs, replacing their older check still queued (one per person).
   * A cached answer, or a read of the same name already on its way, is shared for nothing.
   */
  userId?: number;
  /** An admin asking: exempt from the per-person allowance when CHECKS_EXEMPT_ADMINS is on. */
  isAdmin?: boolean;
}

/** What admins see of the fair share: how full the quota's queue is and who is slowed down. */
export interface FairShareStatus {
  /** The client's scheduler, read-only; undefined when the client has no snapshot. */
  quota: QuotaSnapshot | undefined;
  /** People over their recipient checks per minute, by id, soonest free first. */
  throttledChecks: ThrottledPerson[];
  /** CHECKS_PER_USER_MINUTE; undefined when checks are not limited per person. */
  checksPerUserMinute: number | undefined;
}

/** How a confirmation is claimed, and who hears about its steps. */
export interface ConfirmPressOptions extends ConfirmOptions {
  /** Admins' own purchases may skip the per-person limits (LIMITS_EXEMPT_ADMINS). */
  isAdmin?: boolean;
  /**
   * Called once the claim has won and committed, just before the request goes out; never for
   * a refused claim. A chat says "sending" here, so it never says so for a purchase the claim
   * refuses.
   */
  onClaimed?: () => void;
  /**
   * Asked right before the claim of a confirmation that waited in the queue: whether its
   * person may still buy in its chat (an admin's /deny, or a group administrator's demotion,
   * may have come while it waited). Not asked for a press claimed at once.
   */
  mayBuy?: () => boolean | Promise<boolean>;
}

/**
 * A write of the money path the database refused (see the desk's `storageFailure` event): the
 * admins are told, since purchases cannot go on while it lasts. `transient`: it may pass by
 * itself (locked, full, an I/O error) and is being retried; otherwise (read-only, damaged)
 * only an operator can mend it.
 */
export interface StorageFailure {
  operation: "claim" | "queue" | "close" | "outcome" | "pause";
  code: string;
  transient: boolean;
}

/** Evidence for an admin reconciling an unconfirmed intent. */
export interface ReconciliationEvidence {
  intent: PurchaseIntent;
  /** The newest balance known before the request went out (see {@link balanceBeforeAt}). */
  balanceBefore: BalanceSnapshot | undefined;
  /**
   * When {@link balanceBefore} was read (ms since the epoch), so an admin sees how old the
   * "before" figure is. Undefined when unknown: it was read at or before the draft was made.
   */
  balanceBeforeAt?: number | undefined;
  balanceNow: BalanceSnapshot | undefined;
  /** When {@link balanceNow} was read (undefined when the read failed). */
  balanceNowAt?: number | undefined;
  /**
   * Other purchases whose request was out between the "before" read (or, without its time, the
   * draft's creation) and this intent's send, oldest first, rejected ones left out. A drop
   * from `balanceBefore` to `balanceNow` includes their spending too.
   */
  sentSinceBalanceBefore?: PurchaseIntent[];
  /** Premium only: whether the recipient has premium now (undefined when unknown). */
  recipientHasPremiumNow: boolean | undefined;
  txHash: string | undefined;
  /** Outgoing on-chain transfers since the intent was sent, when TON_API_ENDPOINT is set. */
  onChainTransfers: OnChainTransfer[] | undefined;
  /**
   * A gift through Telegram: the bot's Star balance now, and what the last search of its Star
   * transactions looked at (kept in the ledger); the wallet is not read for it.
   */
  stars?: StarsEvidence;
}

/** What an admin reads of a gift through Telegram whose outcome is unknown. */
export interface StarsEvidence {
  /** Telegram's price of the gift. */
  price: number;
  starsNow: number | undefined;
  /** The balance read right before the gift, when this process still knew it. */
  starsBefore: number | undefined;
  /** The last search: entries read, matches found, other gifts that explain matches. */
  search:
    | { read: number; complete: boolean; matches: number; otherGifts: number; at: number }
    | { unavailable: string; at: number }
    | undefined;
}

export interface OnChainTransfer {
  hash: string;
  at: number;
  destination: string | undefined;
  amountNano: string | undefined;
  comment: string | undefined;
  /**
   * For a jetton transfer (op 0x0f8a7ea5, e.g. USDT): the jetton amount in its smallest unit
   * (micro-USDT); the message's own TON value is then only the forwarding fee.
   */
  jettonAmount?: string | undefined;
}

export type ResolveResult =
  | { ok: true; intent: PurchaseIntent; unconfirmedLeft: number }
  | { ok: false; reason: "not_found" | "not_unconfirmed" };

/** Whether purchases can be claimed at all right now. */
export interface DeskStatus {
  paused: boolean;
  /** Who paused purchases (an admin, or the breaker after the service's refusals), if paused. */
  pausedBy: PauseSource | undefined;
  /** Unconfirmed intents waiting for an admin: while > 0, purchases are frozen. */
  unconfirmed: number;
}

export type { BalanceReading } from "../costs/types.js";

/** The confirmations whose request went out. */
export type SentResult = Extract<ConfirmResult, { kind: "succeeded" | "rejected" | "unconfirmed" }>;

export interface ResolveQueuedOptions {
  /** Whether the person may still buy in the intent's chat (the access rules of the bot). */
  mayBuy(intent: PurchaseIntent): boolean | Promise<boolean>;
  /** Whether the person is an admin (for the limits' `adminsExempt`). */
  isAdmin(userId: number): boolean;
}

/** What became of one queued confirmation at start. */
export interface QueuedResolution {
  intent: PurchaseIntent;
  result: ConfirmResult;
}

/**
 * What the desk tells the rest of the bot, by event name: `desk.events.on(name, listener)`
 * returns a function that stops listening.
 */
export interface DeskEventMap {
  /**
   * An intent ended unconfirmed (also each one recovered at start), so admins can be told at
   * once.
   */
  unconfirmed: [intent: PurchaseIntent, ambiguity: Ambiguous];
  /**
   * A confirmation whose request went out, whatever its outcome. Awaited inside the purchase
   * lane: the next claim waits for these listeners (the breaker pauses before it).
   */
  sent: [result: SentResult];
  /**
   * Every press of Confirm, whatever it came to, and each queued confirmation resolved at start,
   * with the gift's kind when the intent exists (the metrics count purchases from it).
   */
  confirmed: [result: ConfirmResult, giftKind: IntentKind | undefined];
  /**
   * An outcome that could not be written after its request went out, with what is known: the
   * ledger still says `sending` until the write lands.
   */
  outcomeUnrecorded: [intent: PurchaseIntent, answer: PurchaseOutcome];
  /** A write of the money path the database refused: told at every failure. */
  storageFailure: [failure: StorageFailure];
  /**
   * An unconfirmed intent got its outcome: an admin settled it (delivered or not), or the
   * service's definite answer arrived after a recovery had made it unconfirmed. The requester
   * and the admins must learn it; purchases reopen when nothing else holds them.
   */
  settled: [intent: PurchaseIntent, settlement: Settlement];
  /**
   * An answer that arrived after an admin had settled the intent the other way (settled not
   * delivered, and the service delivered it; settled delivered, and the service refused it):
   * the settlement stands in the ledger, and the admins must be told at once.
   */
  lateContradiction: [intent: PurchaseIntent, answer: DefiniteAnswer];
  /**
   * Every good balance read the desk makes (the summaries', /balance's, the evidence's, and
   * its own read after a purchase). Listeners must not read the balance themselves.
   */
  balanceRead: [reading: BalanceReading];
  /** Every good read of the bot's own Telegram Star balance (whole Stars). */
  starBalanceRead: [stars: number];
}

/** The service's own definite answer to a purchase: it delivered it, or refused it. */
export type DefiniteAnswer = Success<PurchaseResult> | Rejected;

/**
 * Who settled an unknown outcome: an admin, the service's own answer arriving late, or (a gift
 * through Telegram) the bot's Star transactions, which proved it was made (`atConfirm`: found
 * while its Confirm was still being answered, so its person reads it there).
 */
export type Settlement =
  | { by: "admin"; adminId: number; delivered: boolean }
  | { by: "service"; answer: DefiniteAnswer }
  | { by: "telegram"; proof: StarProof; atConfirm: boolean };

export type DeskEventName = keyof DeskEventMap;
export type DeskListener<K extends DeskEventName> = (...args: DeskEventMap[K]) => unknown;

/** The listening half of the desk's events, as its users see it. */
export interface DeskEvents {
  on<K extends DeskEventName>(event: K, listener: DeskListener<K>): () => void;
}

/** What admins do with purchases besides buying (the desk's `admin`). */
export interface PurchaseAdmin {
  /** What an admin needs to settle an unconfirmed intent (reads the balance afresh). */
  evidence(id: string): Promise<ReconciliationEvidence | undefined>;
  /** Settles an unconfirmed intent: delivered or not. Purchases reopen when none is left. */
  resolve(id: string, adminId: number, delivered: boolean): Promise<ResolveResult>;
  /** The kill switch: no purchase is sent until {@link resume}. */
  pause(adminId: number): Promise<void>;
  /** Lifts the pause, an admin's or the breaker's. */
  resume(adminId: number): Promise<void>;
}

/** The desk's whole surface, as the bot uses it. Reading goes through PurchaseRecords. */
export interface PurchaseDesk {
  /** What the desk tells: purchases sent, outcomes unknown or unrecorded, balance reads. */
  readonly events: DeskEvents;
  /**
   * Parses (anything a person may type, or a {@link Username}), then checks the recipient with
   * the service (shared, briefly cached reads).
   */
  checkRecipient(username: string, options?: RecipientCheckRequest): Promise<RecipientCheck>;
  /** How full the service's quota queue is, and who is over their checks per minute. */
  fairShare(): FairShareStatus;
  /** The wallet balance (shared, briefly cached reads). */
  readBalance(options?: ConfirmOptions): Promise<BalanceRead>;
  /**
   * How a Premium gift to this recipient will be paid (PREMIUM_VIA): `recipientUserId` is the
   * recipient's Telegram id when the bot knows it (never guessed from a username).
   */
  premiumWay(recipientUserId: number | undefined): PremiumWay;
  /**
   * The bot's own Telegram Star balance (`getMyStarBalance`), when Premium may be paid through
   * Telegram; undefined when PREMIUM_VIA is `service`.
   */
  readStarBalance(): Promise<StarBalanceRead | undefined>;
  /**
   * Records a draft intent for the summary a person is shown, with the wallet balance read
   * now (a shared, briefly cached read) as its "balance before"; no figure when the read
   * failed. `onQueued` is told when that read must wait for the service's quota.
   */
  createDraft(request: DraftRequest, options?: ConfirmOptions): Promise<PurchaseIntent>;
  /** Switches a draft's payment method; only its requester, only while it is a draft. */
  changePaymentMethod(
    id: string,
    userId: number,
    method: PaymentMethod,
  ): Promise<PurchaseIntent | undefined>;
  /** Cancels a draft; only its requester. False when it was not a draft any more. */
  cancel(id: string, userId: number): Promise<boolean>;
  /**
   * Claims the intent in the ledger and, only if the claim won, sends the one purchase
   * request and records its outcome. Concurrent and repeated calls send at most one request.
   */
  confirm(id: string, userId: number, options?: ConfirmPressOptions): Promise<ConfirmResult>;
  /**
   * Sends one draft of a giveaway batch (src/purchases/giveaway-runner.ts) in the purchase
   * lane, as its admin's Confirm would: the same claim, checks and outcome recording. Its turn
   * comes after every confirmation already waiting in the lane.
   */
  sendBatchItem(intent: PurchaseIntent): Promise<ConfirmResult>;
  /** What admins do with purchases: evidence, settling, the pause. */
  readonly admin: PurchaseAdmin;
  /**
   * The purchase breaker pauses purchases, keeping why (JSON) so a restart stays paused. Never
   * throws: a pause the database refuses is kept unrecorded in this process (every confirmation refused
   * as paused by the breaker) and written again in the background until it lands, or until an
   * admin resumes. Resolves once the first write has landed or been refused (then unrecorded), so
   * that what reads the ledger next sees the pause (the store answers later).
   */
  pauseByBreaker(detail: unknown): Promise<void>;
  /** New spending limits from the next claim on (settings reloaded while running). */
  setLimits(limits: SpendingLimits): void;
  /**
   * At start, after {@link recoverInterrupted} and before any update is taken: every
   * confirmation a previous process recorded as queued is sent in its turn if every rule still
   * holds (the claim decides; `mayBuy` says whether the person still may buy there), or closed
   * unsent. Resolves to each one's outcome, in the order they were queued, for the people to
   * be told.
   */
  resolveQueued(options: ResolveQueuedOptions): Promise<QueuedResolution[]>;
  /**
   * Outcomes of requests that went out but could not be recorded yet (the database refused
   * writes): while any is unrecorded, no confirmation is let out and `status()` counts them as
   * unconfirmed. Each is written as unconfirmed as soon as the database accepts it.
   */
  unrecordedCount(): number;
  /** Tries once more to write every unrecorded outcome (shutdown), and stops retrying. */
  close(): Promise<void>;
  /**
   * Resolves when the desk's own reads after purchases (and their listeners) are done, and
   * every cost measurement under way (the chain) has finished, or `costsWithinMs` has passed
   * (a stop); resolves to whether the measurements finished.
   */
  settled(options?: { costsWithinMs?: number }): Promise<boolean>;
  /**
   * A delivered purchase's cost once measured: waits at most `waitMs` for a measurement under
   * way (the desk's own balance read after it, or the chain), never for a later shared read.
   * Undefined when not (yet) recorded.
   */
  measuredCost(id: string, waitMs: number): Promise<PurchaseCost | undefined>;
  /**
   * Whether a measurement of this delivered purchase's cost is under way now (the desk's own
   * balance read after it, or the chain), so {@link measuredCost} may soon have a figure.
   */
  costMeasuring(id: string): boolean;
  /**
   * At start: intents left `sending` by a process that died become unconfirmed (never resent),
   * and the `unconfirmed` listeners are told about each. Call it after registering listeners.
   */
  recoverInterrupted(): Promise<PurchaseIntent[]>;
  /** Marks drafts past their expiry as expired; returns how many (run it now and then). */
  expireDrafts(): Promise<number>;
}
