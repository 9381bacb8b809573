/**
 * Sends giveaway batches (src/ledger/giveaways.ts), one recipient at a time, through the
 * desk's purchase lane: each recipient is a draft claimed and sent exactly as an admin's own
 * Confirm would be (limits, the pause, the freeze and the breaker all apply), and the batch
 * asks for its next turn only once the last one is over, so a buyer's Confirm that came
 * meanwhile goes first. Each recipient's slot of the service's quota comes after every other
 * request's and never from the window's last slots (the desk asks for it as `bulk`,
 * src/purchases/turns.ts): a giveaway spends the quota only when nobody else needs it, and a
 * person arriving finds a slot free.
 *
 * Anything that would stop a person's purchase stops the batch (an unknown outcome, purchases
 * paused or on hold, a daily limit, the database): its status says why, and Resume goes on
 * from the next recipient once that is settled; a restore from a backup stops a batch for good
 * (src/ledger/restore.ts). A restart goes on with running batches (the
 * app sends {@link GiveawayRunner.runningBatches} again after recovering interrupted purchases, on the
 * lease holder only): a recipient whose request was out at a crash is an unknown outcome by
 * then, which stops the batch instead of being sent again.
 */
import type {
  BatchCounts,
  BatchStopReason,
  GiveawayBatch,
  GiveawayBatches,
  NewBatch,
} from "../ledger/giveaways.js";
import type { PurchaseIntent } from "../ledger/types.js";
import type { Logger } from "../shared/logger.js";
import { Listeners } from "./listeners.js";
import type { ConfirmResult, PurchaseDesk } from "./types.js";

/** What the runner tells the bot: every step of a batch, and where it ended or stopped. */
export interface GiveawayProgress {
  batch: GiveawayBatch;
  counts: BatchCounts;
  /** The recipient just sent and what came of it (absent for a change of the batch alone). */
  last?: { intent: PurchaseIntent; result: ConfirmResult };
}

export interface GiveawayRunnerParts {
  batches: GiveawayBatches;
  desk: Pick<PurchaseDesk, "sendBatchItem">;
  clock: () => number;
  logger: Logger;
}

/** An earlier giveaway of the same gift to the same recipients, and what it delivered. */
export interface EarlierGiveaway {
  batch: GiveawayBatch;
  delivered: number;
}

/** How far back a giveaway is named as the same as a new one: 7 days. */
const SAME_GIVEAWAY_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/** Usernames as a set; Telegram's usernames ignore case. */
function recipientSet(names: readonly string[]): Set<string> {
  return new Set(names.map((name) => name.toLowerCase()));
}

/** What Resume found ("restored": stopped for good by a restore from a backup). */
export type ResumeResult = "resumed" | "not_stopped" | "not_found" | "restored";

export class GiveawayRunner {
  /** After each recipient, and when a batch is paused, cancelled, stopped or resumed. */
  readonly progress: Listeners<[GiveawayProgress]>;
  /** Once a batch has nothing left to send. */
  readonly finished: Listeners<[GiveawayProgress]>;
  readonly #parts: GiveawayRunnerParts;
  readonly #loops = new Map<string, Promise<void>>();
  /** Batches whose running loop must go round once more when it ends (see #run). */
  readonly #again = new Set<string>();
  #stopping = false;

  constructor(parts: GiveawayRunnerParts) {
    this.#parts = parts;
    this.progress = new Listeners(parts.logger, "giveaway progress listener failed");
    this.finished = new Listeners(parts.logger, "giveaway finished listener failed");
  }

  /**
   * Writes the batch (one draft per recipient), running; nothing is sent before {@link send}
   * (the bot first posts the message its progress is shown on). A crash in between leaves it
   * running: the next start sends it.
   */
  async create(batch: NewBatch): Promise<GiveawayBatch> {
    return this.#parts.batches.createBatch(batch, this.#parts.clock());
  }

  /** Starts sending a running batch (no second loop if it is being sent already). */
  send(batchId: string): void {
    this.#run(batchId);
  }

  /** Where the batch's progress is shown (kept, so a restart edits the same message). */
  async attachMessage(batchId: string, messageId: number): Promise<void> {
    await this.#parts.batches.setBatchMessage(batchId, messageId, this.#parts.clock());
  }

  /**
   * The batches left running by an earlier process, for the start to go on with ({@link send})
   * once interrupted purchases are recovered.
   */
  async runningBatches(): Promise<GiveawayBatch[]> {
    return this.#parts.batches.runningBatches();
  }

  /** Pauses a running batch after the recipient being sent; false when it was not running. */
  async pause(batchId: string): Promise<boolean> {
    return this.#moveAndTell(batchId, ["running"], "paused");
  }

  /** Cancels what has not been sent; false when the batch had ended already. */
  async cancel(batchId: string): Promise<boolean> {
    const { batches, clock } = this.#parts;
    const moved = await batches.moveBatch(
      batchId,
      ["running", "paused", "stopped"],
      "cancelled",
      clock(),
    );
    if (!moved) return false;
    await batches.cancelBatchDrafts(batchId, clock());
    await this.#loops.get(batchId);
    await this.#tell(batchId, this.finished);
    return true;
  }

  /**
   * Goes on from the next recipient of a paused or stopped batch; never one a restore stopped
   * (src/ledger/restore.ts): only a new giveaway sends its recipients.
   */
  async resume(batchId: string): Promise<ResumeResult> {
    const batch = await this.#parts.batches.getBatch(batchId);
    if (batch === undefined) return "not_found";
    if (batch.stopReason === "restored") return "restored";
    if (!(await this.#moveAndTell(batchId, ["paused", "stopped"], "running"))) {
      return "not_stopped";
    }
    this.#run(batchId);
    return "resumed";
  }

  /**
   * The newest batch of the last {@link SAME_GIVEAWAY_WINDOW_MS} that gave the same gift to
   * the same recipients (their set, whatever the order or the letters' case), with what it
   * delivered; undefined when none did. The admin is asked to confirm a second giveaway.
   */
  async earlierLike(giveaway: {
    kind: GiveawayBatch["kind"];
    quantity: number;
    recipients: readonly string[];
  }): Promise<EarlierGiveaway | undefined> {
    const { batches, clock } = this.#parts;
    const wanted = recipientSet(giveaway.recipients);
    const since = clock() - SAME_GIVEAWAY_WINDOW_MS;
    for (const batch of await batches.batchesLike(giveaway.kind, giveaway.quantity, since)) {
      const sent = recipientSet((await batches.batchIntents(batch.id)).map((i) => i.recipient));
      if (sent.size === wanted.size && [...sent].every((name) => wanted.has(name))) {
        return { batch, delivered: (await batches.batchCounts(batch.id)).delivered };
      }
    }
    return undefined;
  }

  /** The batch and its counts now. */
  async state(batchId: string): Promise<GiveawayProgress | undefined> {
    const batch = await this.#parts.batches.getBatch(batchId);
    if (batch === undefined) return undefined;
    return { batch, counts: await this.#parts.batches.batchCounts(batchId) };
  }

  /** Every intent of the batch, in the admin's order. */
  async intents(batchId: string): Promise<PurchaseIntent[]> {
    return this.#parts.batches.batchIntents(batchId);
  }

  /**
   * At a stop: no batch starts another recipient; resolves once the ones being sent are over.
   * The batches stay running in the ledger, for the next start to go on with.
   */
  async stop(): Promise<void> {
    this.#stopping = true;
    await Promise.all(this.#loops.values());
  }

  /** Resolves once every batch being sent now has stopped or ended (tests). */
  async idle(): Promise<void> {
    while (this.#loops.size > 0) await Promise.all(this.#loops.values());
  }

  async #moveAndTell(
    batchId: string,
    from: GiveawayBatch["status"][],
    to: GiveawayBatch["status"],
    reason?: BatchStopReason,
  ): Promise<boolean> {
    const moved = await this.#parts.batches.moveBatch(
      batchId,
      from,
      to,
      this.#parts.clock(),
      reason,
    );
    if (moved) await this.#tell(batchId, this.progress);
    return moved;
  }

  async #tell(
    batchId: string,
    to: Listeners<[GiveawayProgress]>,
    last?: GiveawayProgress["last"],
  ): Promise<void> {
    const state = await this.state(batchId);
    if (state !== undefined) to.emit(batchId, last === undefined ? state : { ...state, last });
  }

  /**
   * Starts the batch's loop unless one runs: never two at once. A loop that runs may have read
   * the batch paused just before a Resume and be ending: it is asked to go round once more.
   */
  #run(batchId: string): void {
    if (this.#stopping) return;
    if (this.#loops.has(batchId)) {
      this.#again.add(batchId);
      return;
    }
    const loop = this.#sendAll(batchId)
      .catch((error: unknown) => {
        this.#parts.logger.error({ err: error, batchId }, "giveaway batch stopped by an error");
        return this.#moveAndTell(batchId, ["running"], "stopped", "storage").catch(() => false);
      })
      .then(() => undefined)
      .finally(() => {
        this.#loops.delete(batchId);
        if (this.#again.delete(batchId)) this.#run(batchId);
      });
    this.#loops.set(batchId, loop);
  }

  async #sendAll(batchId: string): Promise<void> {
    const { batches, desk, clock } = this.#parts;
    let lastSent: string | undefined;
    while (!this.#stopping) {
      const batch = await batches.getBatch(batchId);
      if (batch?.status !== "running") return;
      const next = await batches.nextBatchDraft(batchId, clock());
      if (next === undefined) {
        if (await batches.moveBatch(batchId, ["running"], "finished", clock())) {
          await this.#tell(batchId, this.finished);
        }
        return;
      }
      // A recipient whose turn left it unsent (a refusal of that one draft only) must not be
      // tried again in a loop: the service would be asked over and over.
      if (next.id === lastSent) {
        await this.#moveAndTell(batchId, ["running"], "stopped", "storage");
        return;
      }
      lastSent = next.id;
      const result = await desk.sendBatchItem(next);
      // Stopped while it waited for its slot: nothing was claimed, the next start sends it.
      if (result.kind === "refused" && result.refusal.reason === "stopping") return;
      const stop = stopReasonOf(result);
      if (stop !== undefined) {
        await this.#moveAndTell(batchId, ["running"], "stopped", stop);
        return;
      }
      await this.#tell(batchId, this.progress, { intent: next, result });
    }
  }
}

/** Why a recipient's result stops its batch, or undefined when the batch goes on. */
function stopReasonOf(result: ConfirmResult): BatchStopReason | undefined {
  if (result.kind === "unconfirmed") return "unknown_outcome";
  if (result.kind !== "refused") return undefined;
  switch (result.refusal.reason) {
    case "frozen":
      return "on_hold";
    case "paused":
      return "purchases_paused";
    case "limit":
      return "limit";
    case "storage":
    case "busy":
      return "storage";
    case "recipient_unverified":
    case "recipient_premium_unknown":
      return "service_unreachable";
    default:
      // Refusals of this one draft (already done, cancelled, expired...): the next goes on.
      return undefined;
  }
}
