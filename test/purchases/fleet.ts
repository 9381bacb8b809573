/**
 * The fleet the fleet property drives (./fleet-schedules.test.ts): two slots, each running one
 * bot process at a time (test/helpers/fleet-process.ts) on one database, people pressing
 * Confirm, an admin settling unknown outcomes by the evidence, backups and a restore. A slot
 * whose process crashed or stopped after losing its lease starts another (a supervisor's
 * restart); a clean stop starts the next one at once (a rolling deploy).
 *
 * The steps of a schedule run one after another; what they start (presses, stops, starts) goes
 * on in the background, as it would. The database's clock is the real one, so a lease expires
 * by real time: the waits here are for events (a process taking over, a press answered), each
 * bounded.
 */
import type { PurchaseIntent } from "../../src/ledger/types.js";
import type { LeaseTiming } from "../../src/run/lease-keeper.js";
import type { ConfirmResult } from "../../src/purchases/types.js";
import type { RecordedRequest, Sandbox } from "../../tools/sandbox/types.js";
import {
  type FleetBackup,
  type FleetDatabase,
  restoreFleetDatabase,
} from "../helpers/fleet-database.js";
import {
  FleetProcess,
  type FleetProcessListener,
  type PauseAt,
  type PauseHow,
} from "../helpers/fleet-process.js";

/** A process by its role when the step runs: the newest holder, or the other slot's process. */
export type Target = "holder" | "standby";

export type Step =
  /**
   * A person presses Confirm: on their summary, on a new one for the same gift once told
   * nothing was bought, or on one for their next gift once this one is over. The next step
   * waits until the press is answered or its process paused, or only until its request was
   * written (`sent`), or not at all (`started`).
   */
  | { kind: "press"; person: number; until?: "sent" | "started" }
  /** A person is shown a summary (as for a press) and does not press it yet. */
  | { kind: "summary"; person: number }
  /** A person presses Confirm again on each of their summaries (the old messages' buttons). */
  | { kind: "pressOld"; person: number }
  /** `next`: whichever process takes the lease next (the first to reach the point). */
  | { kind: "pause"; target: Target | "next"; at: PauseAt; how: PauseHow }
  /**
   * The holder runs again, or every other process (`standby`), or every one (a crashed one
   * never does).
   */
  | { kind: "resume"; target?: Target }
  /**
   * When the holder is going (paused, crashed, stopping, or its renewals failing), waits until
   * another process has taken over and runs unpaused.
   */
  | { kind: "takeover" }
  | { kind: "failRenewals"; target: Target; count: number }
  /** A process's wall clock set off the true time (the processes after it on its machine too). */
  | { kind: "skew"; target: Target; ms: number }
  /** How long a process's requests take to reach the service from now on (and its machine's). */
  | { kind: "latency"; target: Target; ms: number }
  /** A clean stop (SIGTERM); the slot's next process starts at once. */
  | { kind: "stop"; target: Target }
  /** An admin settles every unknown outcome by the evidence. */
  | { kind: "settle" }
  | { kind: "backup" }
  /** Every process stopped, the latest backup restored with the restore's step, both restarted. */
  | { kind: "restore" }
  /** Time passes (leases run by the database's real clock). */
  | { kind: "wait"; ms: number };

/** What a person last heard about one of their purchases. */
type News = "bought" | "unknown" | "refused" | "nothing" | "gone";

function newsOf(result: ConfirmResult): News | undefined {
  switch (result.kind) {
    case "succeeded":
      return "bought";
    case "unconfirmed":
      return "unknown";
    case "rejected":
    case "recipient_has_premium":
      return "refused";
    case "not_sent":
    case "closed":
      return "nothing";
    case "refused": {
      const reason = result.refusal.reason;
      if (reason === "storage") return "nothing";
      // The summary is gone (expired, or a restore lost it): nothing was bought with it.
      return reason === "expired" || reason === "not_found" ? "gone" : undefined;
    }
  }
}

/**
 * One person and their wishes, one after another: each a gift of Stars to a recipient of its
 * own, bought with one summary, or another once told nothing was bought with the last.
 */
interface Person {
  index: number;
  wish: number;
  /** Summaries started for this wish (each one's quantity tells its request apart). */
  attempts: number;
  current: PurchaseIntent | undefined;
  /** Every summary they were shown, oldest first. */
  summaries: PurchaseIntent[];
  /** Presses not answered yet. */
  busy: number;
}

/** A press, until answered (or its process crashed under it). */
interface Press {
  done: boolean;
  process: FleetProcess | undefined;
  /** Its process's purchase requests written before it. */
  writtenBefore: number;
}

interface Slot {
  skewMs: number;
  latencyMs: number;
  current: FleetProcess | undefined;
  started: number;
}

export interface FleetSettings {
  database: FleetDatabase;
  sandbox: Sandbox;
  timing: LeaseTiming;
  people: number;
  slots: [{ skewMs: number; latencyMs: number }, { skewMs: number; latencyMs: number }];
}

/** The purchase request's intent key: its recipient and quantity. */
export function requestKey(request: RecordedRequest): string {
  return `${request.form?.username ?? "?"}:${request.form?.amount ?? "?"}`;
}

export function intentKey(intent: PurchaseIntent): string {
  return `${intent.recipient}:${intent.quantity}`;
}

export class Fleet implements FleetProcessListener {
  readonly processes: FleetProcess[] = [];
  readonly people: Person[];
  /** What each intent's person heard, in order. */
  readonly news = new Map<string, News[]>();
  /** Intent ids by {@link intentKey}, as the people's summaries were made. */
  readonly intents = new Map<string, string>();
  /** Purchase requests (index ranges) a restored database never saw: its backup was older. */
  readonly unseen: [number, number][] = [];
  readonly failures: unknown[] = [];
  /** What happened, for a failing run's report. */
  readonly #trace: { at: number; line: string }[] = [];
  readonly #settings: FleetSettings;
  readonly #slots: [Slot, Slot];
  readonly #presses: Press[] = [];
  readonly #background = new Set<Promise<unknown>>();
  readonly #waiters = new Set<() => void>();
  readonly #startedAt = Date.now();
  #backup: { backup: FleetBackup; requestsBefore: number } | undefined;
  /** A pause for whichever process takes the lease next, until one reaches its point. */
  #nextPause: { at: PauseAt; how: PauseHow } | undefined;
  /** Set while everything stops (a restore, the end): no slot starts another process. */
  #quiet = false;

  constructor(settings: FleetSettings) {
    this.#settings = settings;
    this.#slots = settings.slots.map((slot) => ({ ...slot, current: undefined, started: 0 })) as [
      Slot,
      Slot,
    ];
    this.people = Array.from({ length: settings.people }, (_, index) => ({
      index,
      wish: 0,
      attempts: 0,
      current: undefined,
      summaries: [],
      busy: 0,
    }));
  }

  /** Both slots' first processes: the first holds the lease, the second waits on standby. */
  async start(): Promise<void> {
    await this.#startIn(0);
    await this.#waitFor(() => this.#holder() !== undefined, this.#takeoverMs(), "a first holder");
    await this.#startIn(1);
  }

  async run(step: Step): Promise<void> {
    this.#note(`step ${JSON.stringify(step)}`);
    switch (step.kind) {
      case "press":
        return this.#press(step.person, "press", step.until);
      case "summary":
        return this.#press(step.person, "summary");
      case "pressOld":
        for (const old of [...(this.people[step.person]?.summaries ?? [])]) {
          await this.#press(step.person, old);
        }
        return;
      case "pause":
        return this.#pause(step.target, step.at, step.how);
      case "resume": {
        const holder = this.#holder();
        for (const process of this.processes) {
          const isHolder = process === holder;
          if (step.target === undefined || (step.target === "holder") === isHolder) {
            process.resume();
          }
        }
        return;
      }
      case "takeover":
        return this.#takeover();
      case "failRenewals":
        return this.#target(step.target)?.failRenewals(step.count);
      case "skew":
      case "latency":
        return this.#setMachine(step.kind, step.target, step.ms);
      case "stop":
        return this.#stop(step.target);
      case "settle":
        return this.#settle();
      case "backup":
        return this.#takeBackup();
      case "restore":
        return this.#restore();
      case "wait":
        return new Promise((resolve) => setTimeout(resolve, step.ms));
    }
  }

  /**
   * The end of a run: everything resumed and answered, every process stopped, then one last
   * process started, which recovers what any process left and resolves what was queued.
   */
  async finish(): Promise<void> {
    await this.#stopAll();
    this.#quiet = false;
    const last = await this.#startIn(0, { replaceOnExit: false });
    await this.#waitFor(() => last.takesPresses, 4 * this.#takeoverMs(), "the last start");
    await this.#stopAll();
  }

  /** Whatever happened, nothing is left running or open. */
  async close(): Promise<void> {
    try {
      await this.#stopAll();
    } catch (error) {
      this.failures.push(error);
    }
  }

  // FleetProcessListener

  changed(): void {
    for (const check of [...this.#waiters]) check();
  }

  exited(process: FleetProcess): void {
    this.#note(`${process.name} ${process.crashed ? "crashed" : "exited after losing its lease"}`);
    const slot = this.#slots.find((s) => s.current === process);
    if (slot === undefined || this.#quiet) return;
    this.#inBackground(this.#startIn(this.#slots.indexOf(slot) as 0 | 1));
  }

  told(intent: PurchaseIntent, result: ConfirmResult): void {
    this.#hear(intent.id, newsOf(result), `${intentKey(intent)} told at a start: ${result.kind}`);
  }

  engaged(process: FleetProcess): void {
    if (this.#nextPause === undefined) return;
    this.#nextPause = undefined;
    for (const other of this.processes) if (other !== process) other.disarm();
  }

  noted(process: FleetProcess, what: string): void {
    this.#note(`${process.name} ${what}`);
  }

  failed(error: unknown): void {
    this.#note(`failure: ${String(error)}`);
    this.failures.push(error);
  }

  // Steps

  /**
   * A person's press of Confirm (on the summary {@link nextSummary} says, made first if new),
   * or only a new summary shown, or a press on an old summary of theirs again.
   */
  async #press(
    index: number,
    what: "press" | "summary" | PurchaseIntent,
    until?: "sent" | "started",
  ): Promise<void> {
    const person = this.people[index];
    if (person === undefined) return;
    const old = typeof what === "string" ? undefined : what;
    const next = this.#nextSummary(person);
    // Someone waiting for an answer does not start another summary meanwhile.
    if (old === undefined && next !== "same" && person.busy > 0) return;
    if (what === "summary" && next === "same") return;
    if (old === undefined && next === "nextGift") {
      person.wish++;
      person.attempts = 0;
    }
    const press: Press = { done: false, process: undefined, writtenBefore: 0 };
    this.#presses.push(press);
    person.busy++;
    const shown = (intent: PurchaseIntent): void => {
      person.current = intent;
      person.summaries.push(intent);
      this.intents.set(intentKey(intent), intent.id);
    };
    const pressing = (async () => {
      const process = await this.#holderWhenThere();
      if (process === undefined) return;
      press.process = process;
      press.writtenBefore = process.purchasesWritten;
      const current = person.current;
      const gift = { person: index, wish: person.wish, attempt: person.attempts + 1 };
      if (what === "summary") {
        person.attempts++;
        shown(await process.showSummary(gift));
        return;
      }
      let summary: PurchaseIntent | typeof gift = gift;
      if (old !== undefined) summary = old;
      else if (next === "same" && current !== undefined) summary = current;
      else person.attempts++;
      let pressed = "id" in summary ? summary : undefined;
      const result = await process.press(summary, (intent) => {
        if (pressed === undefined) shown(intent);
        pressed = intent;
      });
      const key = pressed === undefined ? "?" : intentKey(pressed);
      this.#hear(pressed?.id ?? "", newsOf(result), `${process.name}: ${key}: ${describe(result)}`);
    })();
    pressing
      .catch((error: unknown) => this.failed(error))
      .finally(() => {
        press.done = true;
        person.busy--;
        this.changed();
      });
    if (until === "started") return;
    // Answered (or its request written), or caught by a pause or a crash on its way; bounded:
    // it may wait its turn.
    await this.#waitFor(() => {
      const process = press.process;
      if (press.done) return true;
      if (process === undefined) return false;
      if (until === "sent" && process.purchasesWritten > press.writtenBefore) return true;
      return process.paused || process.holding || process.crashed;
    }, this.#takeoverMs());
  }

  #pause(target: Target | "next", at: PauseAt, how: PauseHow): void {
    if (target !== "next") return this.#target(target)?.pause(at, how);
    this.#nextPause = { at, how };
    const holder = this.#holder();
    for (const process of this.processes) if (process !== holder) process.pause(at, how);
  }

  #setMachine(what: "skew" | "latency", target: Target, ms: number): void {
    const process = this.#target(target);
    const slot = this.#slots.find((s) => s.current === process);
    if (process === undefined || slot === undefined) return;
    if (what === "skew") {
      slot.skewMs = ms;
      process.skew(ms);
    } else {
      slot.latencyMs = ms;
      process.latencyMs = ms;
    }
  }

  async #takeover(): Promise<void> {
    const going = this.#holder();
    if (going !== undefined && !going.paused && !going.failingRenewals) return;
    await this.#waitFor(() => {
      const holder = this.#holder();
      return holder !== undefined && holder !== going && !holder.paused;
    }, this.#takeoverMs());
  }

  #stop(target: Target): void {
    const process = this.#target(target);
    if (process === undefined) return;
    const slot = this.#slots.find((s) => s.current === process);
    this.#inBackground(process.stop());
    if (slot !== undefined && !this.#quiet) {
      this.#inBackground(this.#startIn(this.#slots.indexOf(slot) as 0 | 1));
    }
  }

  async #settle(): Promise<void> {
    const admin = this.#runners().find((p) => !p.paused);
    if (admin === undefined) return;
    const requests = this.#settings.sandbox;
    const settling = admin
      .settle((intent) =>
        requests.purchaseRequests().some((request) => requestKey(request) === intentKey(intent)),
      )
      .then((settled) => {
        for (const { intent, delivered } of settled) {
          this.#hear(
            intent.id,
            delivered ? "bought" : "nothing",
            `settled ${intentKey(intent)}: ${delivered ? "delivered" : "not delivered"}`,
          );
        }
      });
    let done = false;
    this.#inBackground(settling.finally(() => ((done = true), this.changed())));
    // Bounded: the admin's process may be paused by a press meanwhile (then it ends later).
    await this.#waitFor(() => done, this.#takeoverMs());
  }

  async #takeBackup(): Promise<void> {
    const requestsBefore = this.#settings.sandbox.purchaseRequests().length;
    this.#backup = { backup: await this.#settings.database.backup(), requestsBefore };
  }

  async #restore(): Promise<void> {
    const backup = this.#backup;
    if (backup === undefined) return;
    await this.#stopAll();
    this.unseen.push([backup.requestsBefore, this.#settings.sandbox.purchaseRequests().length]);
    const marks = await restoreFleetDatabase(this.#settings.database, backup.backup);
    for (const intent of marks.unknown) this.#hear(intent.id, "unknown", "restored: unknown");
    this.#quiet = false;
    await this.start();
  }

  // Processes

  async #startIn(index: 0 | 1, options: { replaceOnExit?: boolean } = {}): Promise<FleetProcess> {
    const slot = this.#slots[index];
    const process = await FleetProcess.open({
      name: `p${index}.${++slot.started}`,
      database: this.#settings.database,
      serviceUrl: this.#settings.sandbox.url,
      timing: this.#settings.timing,
      skewMs: slot.skewMs,
      latencyMs: slot.latencyMs,
      listener: this,
    });
    this.processes.push(process);
    if (this.#nextPause !== undefined) process.pause(this.#nextPause.at, this.#nextPause.how);
    if (options.replaceOnExit !== false) slot.current = process;
    this.#note(`${process.name} started`);
    process.start();
    this.changed();
    return process;
  }

  /** Everything resumed and answered, then every process stopped (a crashed one buried). */
  async #stopAll(): Promise<void> {
    this.#quiet = true;
    this.#nextPause = undefined;
    for (const process of this.processes) process.resume();
    await this.#settled();
    const unanswered = this.#presses.filter((p) => !p.done && p.process?.crashed !== true);
    if (unanswered.length > 0)
      this.failed(new Error(`${unanswered.length} press(es) never answered`));
    for (const process of this.processes) {
      if (process.crashed) await process.bury();
      else await process.stop();
    }
    this.processes.splice(0);
  }

  /** Waits for what runs in the background: starts, stops, presses (bounded). */
  async #settled(): Promise<void> {
    const quiet = () =>
      this.#background.size === 0 &&
      this.#presses.every((p) => p.done || p.process?.crashed === true);
    if (!(await this.#waitFor(quiet, 8 * this.#takeoverMs()))) {
      this.failed(new Error("the fleet did not settle"));
    }
  }

  #inBackground(work: Promise<unknown>): void {
    const tracked = work.catch((error: unknown) => this.failed(error));
    this.#background.add(tracked);
    void tracked.finally(() => {
      this.#background.delete(tracked);
      this.changed();
    });
  }

  /** Processes taking presses, newest first. */
  #runners(): FleetProcess[] {
    return this.processes
      .filter((p) => p.takesPresses)
      .sort((a, b) => b.runningSince - a.runningSince);
  }

  /** Where updates go: the newest process that took over (it may be paused, unaware). */
  #holder(): FleetProcess | undefined {
    return this.#runners()[0];
  }

  /** The holder once there is one (a press waits for a process to take it), bounded. */
  async #holderWhenThere(): Promise<FleetProcess | undefined> {
    let holder: FleetProcess | undefined;
    const there = await this.#waitFor(() => {
      holder = this.#holder();
      return holder !== undefined;
    }, this.#takeoverMs());
    return there ? holder : undefined;
  }

  #target(target: Target): FleetProcess | undefined {
    const holder = this.#holder();
    if (target === "holder") return holder;
    return this.#slots
      .map((slot) => slot.current)
      .find((p) => p !== undefined && p !== holder && p.state !== "gone");
  }

  /** Bounds a wait for a takeover: an expiry, a poll, a predecessor's wait, a recovery. */
  #takeoverMs(): number {
    const { ttlMs, marginMs, pollMs } = this.#settings.timing;
    return 4 * (2 * ttlMs + marginMs + pollMs) + 1_000;
  }

  #waitFor(condition: () => boolean, capMs: number, what?: string): Promise<boolean> {
    if (condition()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const check = (): void => {
        if (condition()) finish(true);
      };
      const finish = (met: boolean): void => {
        clearTimeout(timer);
        this.#waiters.delete(check);
        if (!met && what !== undefined) this.failed(new Error(`no ${what} within ${capMs} ms`));
        resolve(met);
      };
      const timer = setTimeout(() => finish(false), capMs);
      this.#waiters.add(check);
    });
  }

  // People

  /**
   * What the person presses: the summary they have ("same": not told yet, or the outcome is
   * unknown), a new one for the same gift (told nothing was bought with theirs), or one for
   * their next gift (this one is over: bought, or refused by the service).
   */
  #nextSummary(person: Person): "same" | "again" | "nextGift" {
    const current = person.current;
    if (current === undefined) return "again";
    const heard = this.news.get(current.id) ?? [];
    const final = heard.filter((news) => news !== "gone").at(-1);
    if (final === "bought" || final === "refused") return "nextGift";
    if (final === "nothing" || (final === undefined && heard.includes("gone"))) return "again";
    return "same";
  }

  #hear(id: string, news: News | undefined, what: string): void {
    this.#note(what);
    if (news === undefined) return;
    this.news.set(id, [...(this.news.get(id) ?? []), news]);
  }

  #note(line: string): void {
    this.#trace.push({ at: Date.now(), line });
  }

  /** What happened, with when the service got each purchase request, for a failing run. */
  report(): string {
    const got = this.#settings.sandbox
      .purchaseRequests()
      .map((request) => ({ at: request.at, line: `the service got ${requestKey(request)}` }));
    return [...this.#trace, ...got]
      .sort((a, b) => a.at - b.at)
      .map(({ at, line }) => `${String(at - this.#startedAt).padStart(5)} ms  ${line}`)
      .join("\n");
  }
}

function describe(result: ConfirmResult): string {
  if (result.kind === "refused") return `refused (${result.refusal.reason})`;
  return result.kind;
}
