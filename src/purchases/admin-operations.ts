/**
 * What admins do with purchases, apart from buying: gather the evidence of an unknown outcome,
 * settle it (delivered or not), and pause or resume purchases. The desk keeps the purchase
 * work; these are its admins' door.
 */
import { IllegalTransitionError, IntentNotFoundError } from "../ledger/errors.js";
import type { PurchaseIntent, PurchaseLedger } from "../ledger/types.js";
import type { Logger } from "../shared/logger.js";
import { gatherEvidence } from "./evidence.js";
import type { DeskEventHub } from "./desk-events.js";
import type { UnrecordedPause } from "./unrecorded-pause.js";
import type { OnChainEvidence } from "./on-chain.js";
import type { ServiceReads } from "./service-reads.js";
import { starsEvidence } from "./stars-evidence.js";
import type { TelegramWay } from "./telegram-way.js";
import type { PurchaseAdmin, ReconciliationEvidence, ResolveResult } from "./types.js";

interface AdminParts {
  ledger: PurchaseLedger;
  clock: () => number;
  logger: Logger;
  onChain: OnChainEvidence | undefined;
  reads: ServiceReads;
  /** The breaker's pause while unrecorded: an admin's resume drops it too. */
  unrecordedPause: UnrecordedPause;
  /** Told of each settlement, so the requester and the other admins learn it. */
  events: DeskEventHub;
  /** Premium through Telegram: its evidence is Telegram's books, not the wallet. */
  telegram: TelegramWay | undefined;
}

export class AdminOperations implements PurchaseAdmin {
  readonly #parts: AdminParts;

  constructor(parts: AdminParts) {
    this.#parts = parts;
  }

  async evidence(id: string): Promise<ReconciliationEvidence | undefined> {
    const { ledger, clock, logger, onChain, reads, telegram } = this.#parts;
    const intent = await ledger.get(id);
    if (intent?.paidVia === "telegram") return this.#telegramEvidence(intent, telegram);
    return gatherEvidence(id, {
      ledger,
      clock,
      logger,
      onChain,
      balanceNow: () => reads.balance({ fresh: true }),
      premiumNow: (username) =>
        reads
          .recipient(username, { fresh: true })
          .then((check) => (check.kind === "ok" ? check.isPremium : undefined)),
    });
  }

  /**
   * A gift through Telegram: its books are searched again (a gift Telegram logged since is
   * proved, and settled, now), and the evidence is what was looked at and the Star balance.
   */
  async #telegramEvidence(
    intent: PurchaseIntent,
    telegram: TelegramWay | undefined,
  ): Promise<ReconciliationEvidence> {
    await telegram?.settleIfProved(intent);
    const now = (await this.#parts.ledger.get(intent.id)) ?? intent;
    return starsEvidence(now, await telegram?.starsNow());
  }

  async resolve(id: string, adminId: number, delivered: boolean): Promise<ResolveResult> {
    const { ledger, clock } = this.#parts;
    try {
      const resolved = await ledger.resolve(id, adminId, delivered, clock());
      this.#parts.events.emit("settled", id, resolved.intent, { by: "admin", adminId, delivered });
      return { ok: true, ...resolved };
    } catch (err) {
      if (err instanceof IntentNotFoundError) return { ok: false, reason: "not_found" };
      if (err instanceof IllegalTransitionError) return { ok: false, reason: "not_unconfirmed" };
      throw err;
    }
  }

  async pause(adminId: number): Promise<void> {
    await this.#parts.ledger.setPaused(true, adminId, this.#parts.clock());
  }

  async resume(adminId: number): Promise<void> {
    await this.#parts.ledger.setPaused(false, adminId, this.#parts.clock());
    this.#parts.unrecordedPause.drop();
  }
}
