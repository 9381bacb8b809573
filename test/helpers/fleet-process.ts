/**
 * One bot process of a fleet on one database, inside the test's process
 * (test/purchases/fleet-schedules.test.ts): its own Storage on the database (its own connection
 * or pool), the lease keeper, the purchase desk and a service client reaching the sandbox
 * through a relay of its own (test/helpers/slow-relay.ts). It starts as the app starts
 * (src/app/app.ts): on standby until it takes the sender lease, the claims fenced with it, a
 * wait for a predecessor that did not let go, then what that one left recovered and the queued
 * confirmations resolved, and only then presses taken. Every purchase asks the keeper's
 * `mayLeave` as its last step, as the app's do.
 *
 * What the real process would meet, a test makes happen:
 * - **a pause** (SIGSTOP, or the machine suspended): every call the process makes to its
 *   database or to the service waits at its gate, before it is made and before its answer is
 *   taken, so nothing of the process moves; its clocks stand still meanwhile (the keeper's
 *   timers still fire, and find the time they last saw). From SIGSTOP both clocks jump on at the
 *   resume; from a suspend the monotonic clock does not (the wall clock does). A pause starts
 *   now, or at a point: right before a start recovers what the holder before it left, right
 *   after a claim wins (before the request), right after a purchase request is written, or
 *   right before its outcome is written;
 * - **a crash**: the same, never resumed;
 * - **a purchase waiting in the client for its quota slot** (or behind a 429 hold), before its
 *   claim, while the process goes on, renewing its lease;
 * - **failed renewals**: the next renewals refused by the database;
 * - **a wall clock set off** (NTP, a wrong clock): both the keeper's wall clock and the ledger's.
 *
 * A process that loses its lease stops as the app does (no presses taken, those in flight
 * finished, the store closed) but without cancelling the purchases it already claimed: at a
 * real SIGCONT the purchase's continuation and the timer that notices the loss are due
 * together, so only `mayLeave` stands between that purchase and the service. A clean stop
 * (`stop`) is the app's: purchases waiting for the quota cancelled, the lease released.
 */
import { LeaseNotHeldError } from "../../src/ledger/errors.js";
import type { LeaseTiming } from "../../src/run/lease-keeper.js";
import { LeaseKeeper } from "../../src/run/lease-keeper.js";
import type { PurchaseIntent, PurchaseLedger, SenderLease } from "../../src/ledger/types.js";
import { createPurchaseDesk } from "../../src/purchases/desk.js";
import type { ConfirmResult, PurchaseDesk } from "../../src/purchases/types.js";
import { createGiftServiceClient } from "../../src/service/client.js";
import type { GiftServiceClient } from "../../src/service/types.js";
import { silentLogger } from "../../src/shared/logger.js";
import type { Storage } from "../../src/storage/types.js";
import { CANARY } from "./desk.js";
import type { FleetDatabase } from "./fleet-database.js";
import { startSlowRelay, type SlowRelay } from "./slow-relay.js";
import { username } from "./username.js";

/** Where a pause catches the process. */
export type PauseAt = "now" | "beforeRecovery" | "afterClaim" | "afterSend" | "beforeOutcome";
/**
 * SIGSTOP, a suspended machine, a crash (never resumed), or only its purchases waiting in the
 * client for their quota slot (or behind a 429 hold) while the process goes on.
 */
export type PauseHow = "stop" | "suspend" | "crash" | "wait";

export type ProcessState = "standby" | "starting" | "running" | "stopping" | "gone";

/** Who hears what the process tells (recovered and queued outcomes) and when it changes. */
export interface FleetProcessListener {
  /** Its state changed, it paused or resumed. */
  changed(): void;
  /** It crashed, or stopped after losing its lease: its slot starts another. */
  exited(process: FleetProcess): void;
  /** What a start told a person: a recovered purchase (unknown outcome), a queued one's end. */
  told(intent: PurchaseIntent, result: ConfirmResult): void;
  /** What should not happen: an error thrown where the app would crash. */
  failed(error: unknown): void;
  /** A pause armed on it reached its point. */
  engaged(process: FleetProcess): void;
  /** A line for the run's report. */
  noted(process: FleetProcess, what: string): void;
}

export interface FleetProcessOptions {
  name: string;
  database: FleetDatabase;
  serviceUrl: string;
  timing: LeaseTiming;
  /** How far the process's wall clock is off. */
  skewMs: number;
  /** How long its requests take to reach the service. */
  latencyMs: number;
  listener: FleetProcessListener;
}

/** An admin's id for settlements. */
const ADMIN = 1_000;

/** Lets calls through, or holds them until it opens (FIFO). */
class Gate {
  #closed: Promise<void> | undefined;
  #open: () => void = () => undefined;

  close(): void {
    this.#closed ??= new Promise((resolve) => (this.#open = resolve));
  }

  open(): void {
    this.#closed = undefined;
    this.#open();
  }

  pass(): Promise<void> {
    return this.#closed ?? Promise.resolve();
  }
}

/** The process's monotonic and wall clocks, which stand still while it is paused. */
class ProcessClock {
  skewMs: number;
  #suspendedMs = 0;
  #frozen: { monotonic: number; wall: number; since: number; suspend: boolean } | undefined;

  constructor(skewMs: number) {
    this.skewMs = skewMs;
  }

  readonly monotonic = (): number =>
    this.#frozen?.monotonic ?? performance.now() - this.#suspendedMs;

  readonly wall = (): number => this.#frozen?.wall ?? Date.now() + this.skewMs;

  freeze(suspend: boolean): void {
    const since = performance.now();
    this.#frozen = { monotonic: this.monotonic(), wall: this.wall(), since, suspend };
  }

  thaw(): void {
    const frozen = this.#frozen;
    this.#frozen = undefined;
    // A suspended machine's monotonic clock did not count the time it slept.
    if (frozen?.suspend === true) this.#suspendedMs += performance.now() - frozen.since;
  }
}

/** Ledger members that are not calls to the database (and must stay synchronous). */
const NOT_CALLS: ReadonlySet<PropertyKey> = new Set([
  "now",
  "fenceWith",
  "setLimits",
  "isTransientWriteError",
  "limits",
  "draftTtlMs",
]);

export class FleetProcess {
  readonly name: string;
  state: ProcessState = "standby";
  /** Increases with each process that starts running: the newest runner takes the presses. */
  runningSince = 0;
  /** Purchase requests it has written so far (they left, whatever becomes of the process). */
  purchasesWritten = 0;
  crashed = false;
  readonly #gate = new Gate();
  readonly #clock: ProcessClock;
  readonly #listener: FleetProcessListener;
  readonly #timing: LeaseTiming;
  readonly #storage: Storage;
  readonly #ledger: PurchaseLedger;
  readonly #client: GiftServiceClient;
  readonly #relay: SlowRelay;
  readonly keeper: LeaseKeeper;
  readonly #desk: PurchaseDesk;
  /** Presses, settlements and the start: what a stop waits for. */
  readonly #work = new Set<Promise<unknown>>();
  readonly #stopping = new AbortController();
  #armed: { at: Exclude<PauseAt, "now">; how: PauseHow } | undefined;
  #paused: Exclude<PauseHow, "wait"> | undefined;
  /** Purchases wait here for their quota slot (before their claim) while `holding`. */
  readonly #purchaseGate = new Gate();
  #holding = false;
  #failRenewals = 0;
  #shutdown: Promise<void> | undefined;

  static async open(options: FleetProcessOptions): Promise<FleetProcess> {
    const storage = await options.database.open();
    const relay = await startSlowRelay(options.serviceUrl, options.latencyMs);
    return new FleetProcess(options, storage, relay);
  }

  private constructor(options: FleetProcessOptions, storage: Storage, relay: SlowRelay) {
    this.name = options.name;
    this.#listener = options.listener;
    this.#timing = options.timing;
    this.#storage = storage;
    this.#relay = relay;
    this.#clock = new ProcessClock(options.skewMs);
    relay.onPurchaseWritten = () => {
      this.purchasesWritten++;
      this.#reached("afterSend");
      this.#listener.changed();
    };
    this.#ledger = this.#gatedLedger(storage.openLedger({ clock: this.#clock.wall }));
    this.#client = this.#gatedClient(
      createGiftServiceClient({
        baseUrl: relay.url,
        credentials: CANARY,
        quota: { limit: 100_000, windowMs: 60_000 },
        timeouts: { headersMs: 5_000, bodyMs: 5_000 },
        maxRetryWaitMs: 1,
      }),
    );
    this.keeper = new LeaseKeeper({
      lease: this.#gatedLease(storage.senderLease),
      timing: options.timing,
      logger: silentLogger,
      onLost: () => void this.#afterLoss(),
      monotonic: this.#clock.monotonic,
      wallClock: this.#clock.wall,
    });
    this.#desk = createPurchaseDesk({
      ledger: this.#ledger,
      client: this.#client,
      mayLeave: () => this.keeper.mayLeave(),
    });
  }

  get paused(): boolean {
    return this.#paused !== undefined;
  }

  /** Its purchases wait in the client for their slot (the process itself goes on). */
  get holding(): boolean {
    return this.#holding;
  }

  /** Taking presses: running, neither stopping nor gone (it may be paused, unaware of it). */
  get takesPresses(): boolean {
    return this.state === "running";
  }

  /** Starts as the app does; on standby until it holds the lease. */
  start(): void {
    void this.#track(
      this.#start().catch((error: unknown) => {
        // Its lease gone before it recovered anything: the app's start fails and it exits.
        if (error instanceof LeaseNotHeldError) void this.#afterLoss();
        else if (!this.#stopped()) this.#listener.failed(error);
      }),
    );
  }

  /**
   * A person's press of Confirm: on `summary`, or on a new summary (a draft) for the gift
   * `fresh` names, made first (`onSummary` hears of it at once). One piece of work, so a stop
   * waits for both.
   */
  press(
    summary: PurchaseIntent | { person: number; wish: number; attempt: number },
    onSummary: (intent: PurchaseIntent) => void,
  ): Promise<ConfirmResult> {
    return this.#track(
      (async () => {
        const intent = "id" in summary ? summary : await this.#newSummary(summary);
        onSummary(intent);
        return this.#desk.confirm(intent.id, intent.requester.userId);
      })(),
    );
  }

  /** A person's new summary (a draft) for the gift `fresh` names, not pressed yet. */
  showSummary(gift: { person: number; wish: number; attempt: number }): Promise<PurchaseIntent> {
    return this.#track(this.#newSummary(gift));
  }

  /** Each gift has its own recipient; each summary for it its own quantity. */
  #newSummary(gift: { person: number; wish: number; attempt: number }): Promise<PurchaseIntent> {
    const { person, wish, attempt } = gift;
    return this.#desk.createDraft({
      kind: "stars",
      recipient: username(`fleet_p${person}_w${wish}`),
      quantity: 50 + attempt,
      paymentMethod: "ton",
      requester: { userId: person + 1, chatId: person + 1, chatType: "private" },
    });
  }

  /**
   * An admin settles every unknown outcome, by the evidence: delivered when `delivered` says
   * the service got its request. Resolves with what each person is told.
   */
  settle(
    delivered: (intent: PurchaseIntent) => boolean,
  ): Promise<{ intent: PurchaseIntent; delivered: boolean }[]> {
    return this.#track(
      (async () => {
        const settled: { intent: PurchaseIntent; delivered: boolean }[] = [];
        for (const intent of await this.#ledger.unconfirmed()) {
          // What the admin is shown before deciding (the wallet read afresh).
          await this.#desk.admin.evidence(intent.id);
          const answer = delivered(intent);
          const resolved = await this.#desk.admin.resolve(intent.id, ADMIN, answer);
          if (resolved.ok) settled.push({ intent: resolved.intent, delivered: answer });
        }
        return settled;
      })(),
    );
  }

  pause(at: PauseAt, how: PauseHow): void {
    if (this.#paused !== undefined || this.state === "gone") return;
    if (at === "now") this.#engage(how);
    else this.#armed = { at, how };
  }

  /** Forgets a pause not reached yet. */
  disarm(): void {
    this.#armed = undefined;
  }

  /** Resumes a pause (not a crash), or forgets one not reached yet. */
  resume(): void {
    this.#armed = undefined;
    if (this.#holding) {
      this.#holding = false;
      this.#listener.noted(this, "lets its purchases go");
      this.#purchaseGate.open();
    }
    if (this.#paused === undefined || this.#paused === "crash") return;
    this.#paused = undefined;
    this.#listener.noted(this, "resumed");
    this.#clock.thaw();
    this.#gate.open();
    this.#listener.changed();
  }

  failRenewals(count: number): void {
    this.#failRenewals = count;
  }

  /** Enough renewals are still to fail for the lease to be lost. */
  get failingRenewals(): boolean {
    const { ttlMs, marginMs, renewEveryMs } = this.#timing;
    return this.#failRenewals * renewEveryMs >= ttlMs - marginMs;
  }

  /** The wall clock set `skewMs` off the true time from now on (a step). */
  skew(skewMs: number): void {
    this.#clock.skewMs = skewMs;
  }

  set latencyMs(ms: number) {
    this.#relay.latencyMs = ms;
  }

  /** The app's clean stop (SIGTERM: handled once the process runs again, if it is paused). */
  stop(): Promise<void> {
    this.#shutdown ??= (async () => {
      this.#stopping.abort();
      this.#setState("stopping");
      await this.#gate.pass();
      this.#client.stopPurchases();
      await this.#drained();
      await this.keeper.release();
      await this.#close();
    })();
    return this.#shutdown;
  }

  /** What is left of a crashed process: its connections closed, as the kernel does. */
  async bury(): Promise<void> {
    if (!this.crashed) throw new Error(`${this.name} did not crash`);
    this.#stopping.abort();
    // Its timers stop; its release waits at the closed gate forever.
    void this.keeper.release();
    await this.#client.close();
    await this.#relay.close();
    await this.#storage.close();
  }

  /** A stop began (the start gives up at its next step, as the app's does). */
  #stopped(): boolean {
    return this.#stopping.signal.aborted;
  }

  async #start(): Promise<void> {
    const signal = this.#stopping.signal;
    if ((await this.keeper.acquire(signal)) === undefined || this.#stopped()) return;
    this.#ledger.fenceWith(this.keeper.fence);
    this.#setState("starting");
    await this.keeper.untilPredecessorSilent(signal);
    if (this.#stopped()) return;
    for (const intent of await this.#desk.recoverInterrupted()) {
      this.#listener.told(intent, {
        kind: "unconfirmed",
        intent,
        ambiguity: { kind: "ambiguous", cause: "transport", detail: "interrupted" },
      });
    }
    if (this.#stopped()) return;
    const resolved = await this.#desk.resolveQueued({
      mayBuy: () => true,
      isAdmin: () => false,
    });
    for (const { intent, result } of resolved) this.#listener.told(intent, result);
    if (this.#stopped()) return;
    this.runningSince = nextRunner++;
    this.#setState("running");
  }

  /** The lease lost: the process stops once it runs again, its purchases left to finish. */
  async #afterLoss(): Promise<void> {
    await this.#gate.pass();
    this.#listener.noted(this, "lost its lease");
    this.#shutdown ??= (async () => {
      this.#stopping.abort();
      this.#setState("stopping");
      await this.#drained();
      await this.#close();
      this.#listener.exited(this);
    })();
    await this.#shutdown;
  }

  async #close(): Promise<void> {
    await this.#desk.settled();
    await this.#desk.close();
    await this.#client.close();
    await this.#relay.close();
    await this.#storage.close();
    this.#setState("gone");
  }

  async #drained(): Promise<void> {
    while (this.#work.size > 0) await Promise.allSettled([...this.#work]);
  }

  #track<T>(work: Promise<T>): Promise<T> {
    this.#work.add(work);
    const forget = () => this.#work.delete(work);
    work.then(forget, forget);
    return work;
  }

  #setState(state: ProcessState): void {
    if (this.state === "gone") return;
    this.state = state;
    this.#listener.noted(this, state);
    this.#listener.changed();
  }

  /** An armed pause reached its point. */
  #reached(at: Exclude<PauseAt, "now">): void {
    const armed = this.#armed;
    if (armed?.at !== at) return;
    this.#armed = undefined;
    this.#engage(armed.how);
    this.#listener.engaged(this);
  }

  #engage(how: PauseHow): void {
    if (how === "wait") {
      this.#listener.noted(this, "holds its purchases in the client (the quota)");
      this.#holding = true;
      this.#purchaseGate.close();
      this.#listener.changed();
      return;
    }
    this.#listener.noted(this, how === "crash" ? "crashes" : `paused (${how})`);
    this.#paused = how;
    this.#gate.close();
    this.#clock.freeze(how === "suspend");
    if (how === "crash") {
      this.crashed = true;
      this.state = "gone";
      this.#listener.exited(this);
    }
    this.#listener.changed();
  }

  /** Runs `call` once the gate lets it, and hands its answer on once the gate lets it. */
  async #gated<T>(call: () => T | Promise<T>): Promise<T> {
    await this.#gate.pass();
    const answer = await call();
    await this.#gate.pass();
    return answer;
  }

  #gatedLedger(ledger: PurchaseLedger): PurchaseLedger {
    return new Proxy(ledger, {
      get: (target, property) => {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== "function") return value;
        const method = value as (...args: unknown[]) => unknown;
        if (NOT_CALLS.has(property)) return method.bind(target);
        return async (...args: unknown[]) => {
          if (property === "recordOutcome") this.#reached("beforeOutcome");
          if (property === "recoverInterrupted") this.#reached("beforeRecovery");
          await this.#gate.pass();
          const answer = await method.apply(target, args);
          if (property === "claim" && (answer as { ok: boolean }).ok) this.#reached("afterClaim");
          await this.#gate.pass();
          return answer;
        };
      },
    });
  }

  #gatedLease(lease: SenderLease): SenderLease {
    return {
      acquire: (owner, ttlMs) => this.#gated(() => lease.acquire(owner, ttlMs)),
      takeOver: (owner, from, ttlMs) => this.#gated(() => lease.takeOver(owner, from, ttlMs)),
      renew: (owner, epoch, ttlMs) =>
        this.#gated(() => {
          if (this.#failRenewals > 0) {
            this.#failRenewals--;
            throw new Error("the database refused the renewal (scheduled)");
          }
          return lease.renew(owner, epoch, ttlMs);
        }),
      release: (owner, epoch) => this.#gated(() => lease.release(owner, epoch)),
      holder: () => this.#gated(() => lease.holder()),
    };
  }

  #gatedClient(client: GiftServiceClient): GiftServiceClient {
    return {
      getUserInfo: (name, options) => this.#gated(() => client.getUserInfo(name, options)),
      getWalletBalance: (options) => this.#gated(() => client.getWalletBalance(options)),
      reservePurchase: (options) =>
        this.#gated(async () => {
          await this.#purchaseGate.pass();
          return client.reservePurchase(options);
        }),
      buyStars: (purchase, options) => this.#gated(() => client.buyStars(purchase, options)),
      buyPremium: (purchase, options) => this.#gated(() => client.buyPremium(purchase, options)),
      estimateWait: (priority) => client.estimateWait(priority),
      stopPurchases: () => client.stopPurchases(),
      close: () => client.close(),
    };
  }
}

let nextRunner = 1;
