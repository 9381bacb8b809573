/**
 * The service's reads the desk shares among people: recipient checks and the wallet balance,
 * each cached briefly and shared while on its way (./shared-reads.ts), recipient checks charged
 * to the person who causes them (./check-allowance.ts).
 */
import { parseUsername } from "../gifts/username.js";
import type { Logger } from "../shared/logger.js";
import type { GiftServiceClient } from "../service/types.js";
import { CheckAllowance } from "./check-allowance.js";
import { knownBalance, toBalanceRead, toRecipientCheck } from "./decisions.js";
import { GiftServiceCallCancelledError } from "../service/errors.js";
import { SharedReads } from "./shared-reads.js";
import type {
  BalanceRead,
  BalanceReading,
  RecipientCheck,
  RecipientCheckRequest,
} from "./types.js";

/** What the reads take from the desk's dependencies (see PurchaseDeskDeps for each). */
export interface ServiceReadsDeps {
  client: GiftServiceClient;
  recipientCacheMs?: number;
  balanceCacheMs?: number;
  checksPerUserMinute?: number;
  checksExemptAdmins?: boolean;
  checkWindowMs?: number;
}

/**
 * The service's shared, briefly cached reads: recipient checks and the wallet balance.
 *
 * Recipient checks are the one thing a person can cause at will, so they are charged to a
 * person (see check-allowance.ts). A check is charged to the person whose check starts a
 * request, and queued as theirs (`owner`), replacing their older check still queued (`replace`:
 * one queued check per person, docs/service-contract.md §6). Others asking for the same name
 * meanwhile share that request for nothing; should its owner's newer check supersede it
 * before it is sent, they ask again, as owners of their own request.
 */
export class ServiceReads {
  readonly recipients: SharedReads<string, RecipientCheck>;
  readonly balances: SharedReads<"wallet", BalanceRead>;
  readonly allowance: CheckAllowance | undefined;
  readonly #exemptAdmins: boolean;

  constructor(
    deps: ServiceReadsDeps,
    clock: () => number,
    logger: Logger,
    onBalance: (reading: BalanceReading) => void,
  ) {
    const { client } = deps;
    this.allowance =
      deps.checksPerUserMinute === undefined
        ? undefined
        : new CheckAllowance({
            perMinute: deps.checksPerUserMinute,
            clock,
            ...(deps.checkWindowMs !== undefined ? { windowMs: deps.checkWindowMs } : {}),
          });
    this.#exemptAdmins = deps.checksExemptAdmins ?? true;
    // The client promises typed outcomes; should it throw anyway, a read is merely unavailable.
    this.recipients = new SharedReads<string, RecipientCheck>(
      (username, onQueued, owner) =>
        client
          .getUserInfo(username, {
            onQueued,
            ...(owner === undefined ? {} : { owner, replace: true }),
          })
          .then(
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
      (_key, onQueued, _owner, bulk) => {
        const at = clock();
        return client.getWalletBalance({ onQueued, ...(bulk ? { bulk } : {}) }).then(
          (outcome) => {
            const read = toBalanceRead(outcome);
            const reading = knownBalance({ value: read, at });
            if (reading !== undefined) onBalance(reading);
            return read;
          },
          (err: unknown): BalanceRead => {
            // A giveaway's read is stopped with the purchases at shutdown: nothing unexpected.
            if (err instanceof GiftServiceCallCancelledError && bulk) {
              logger.debug({ err }, "a giveaway's balance read was stopped");
            } else {
              logger.error({ err }, "balance read failed unexpectedly");
            }
            return { kind: "unavailable" };
          },
        );
      },
      { ttlMs: deps.balanceCacheMs ?? 15_000, clock, cacheable: (read) => read.kind === "ok" },
    );
  }

  /**
   * Parses the username, then checks it; one cache entry per name (case-insensitive). With a
   * `userId`, a check that would reach the service is charged to that person first.
   */
  async recipient(
    input: string,
    options: RecipientCheckRequest & { fresh?: boolean } = {},
  ): Promise<RecipientCheck> {
    const username = parseUsername(input);
    if (username === undefined) return { kind: "invalid_username" };
    const { userId } = options;
    // At most twice: a second time only when a read this caller merely joined was superseded.
    for (let attempt = 0; ; attempt++) {
      const charged = { started: false };
      const check = await this.recipients.read(username.toLowerCase(), {
        ...(options.onQueued !== undefined ? { onQueued: options.onQueued } : {}),
        ...(options.fresh === true ? { fresh: true } : {}),
        ...(userId !== undefined ? { owner: userId } : {}),
        admit: () => {
          charged.started = true;
          return this.#charge(options);
        },
      });
      if (check.kind !== "superseded" || charged.started || attempt > 0) return check;
    }
  }

  /** Charges a check about to be sent to its person; their refusal when over the allowance. */
  #charge(options: RecipientCheckRequest): RecipientCheck | undefined {
    const { userId } = options;
    if (this.allowance === undefined || userId === undefined) return undefined;
    if (options.isAdmin === true && this.#exemptAdmins) return undefined;
    const refusal = this.allowance.charge(userId);
    if (refusal === undefined) return undefined;
    return { kind: "throttled", retryAfterSeconds: Math.ceil(refusal.retryAfterMs / 1000) };
  }

  /** The wallet's balance; `bulk` for a giveaway's read (see SharedReadOptions). */
  balance(
    options: { onQueued?: (waitMs: number) => void; fresh?: boolean; bulk?: boolean } = {},
  ): Promise<BalanceRead> {
    return this.balances.read("wallet", options);
  }
}
