/**
 * The money path's invariants over thousands of random schedules (fast-check): people pressing
 * Confirm (some twice, some buying again after a refusal) while the database refuses random
 * writes and the service answers each request at random (delivered, refused, 503, a dropped
 * connection, a malformed or an `unconfirmed` body).
 *
 * The parts are real: the ledger on a real SQLite database (its driver answering with promises), the real client over HTTP to the
 * sandbox on 127.0.0.1. The database's refusals are raised inside SQLite itself: a temporary
 * trigger on every insert and update of `purchase_intents` calls a function of the connection
 * that throws a real `SqliteError` (BUSY, LOCKED, FULL, IOERR or READONLY) when the schedule
 * says so, so the statement and its transaction roll back as they would. Faults stop when the
 * schedule ends; then the desk shuts down and a new desk (a restarted process) recovers.
 *
 * Invariants checked after every run:
 * - at most one purchase request per intent, and per person's wish (a person may buy again
 *   only after being told nothing was bought);
 * - every press is answered (no press's promise rejects), and each intent whose request went
 *   out, or whose queued promise was closed, was told to its person exactly once;
 * - nothing is left `queued` or `sending` once the faults have stopped and the restart has run.
 */
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PurchaseIntent, PurchaseLedger } from "../../src/ledger/types.js";
import { createPurchaseDesk } from "../../src/purchases/desk.js";
import type { ConfirmResult, PurchaseDesk } from "../../src/purchases/types.js";
import { createGiftServiceClient } from "../../src/service/client.js";
import type { GiftServiceClient } from "../../src/service/types.js";
import { openLedger } from "../../src/storage/ledger/ledger.js";
import { SqliteDatabase } from "../../src/storage/sqlite/driver.js";
import { openDatabase } from "../../src/storage/sqlite/open.js";
import { type Sandbox, startSandbox } from "../../tools/sandbox/server.js";
import type { Fault } from "../../tools/sandbox/types.js";
import { username } from "../helpers/username.js";
import { CANARY, NOON } from "../helpers/desk.js";

const STARS = "/buy-stars/";
const CODES = [
  "SQLITE_BUSY",
  "SQLITE_LOCKED",
  "SQLITE_FULL",
  "SQLITE_IOERR",
  "SQLITE_READONLY",
] as const;
type Code = (typeof CODES)[number];

/** How the service answers one purchase request. */
const ANSWERS: Record<string, Fault> = {
  delivered: { type: "delay", ms: 0 },
  refused: {
    type: "status",
    status: 400,
    body: { ok: false, error: "RECIPIENT_NOT_FOUND", message: "no such user" },
  },
  unavailable: { type: "status", status: 503 },
  dropped: { type: "drop" },
  droppedAfterPaying: { type: "drop", executed: true },
  malformed: { type: "malformed", executed: true },
  unconfirmed: { type: "unconfirmed", executed: true },
};

interface Person {
  /** How many times the person presses Confirm on the summary. */
  presses: number;
  /** setImmediate turns before the first press (interleaves the people). */
  startAfter: number;
  /** Whether they start a new summary for the same gift when told nothing was bought. */
  buysAgain: boolean;
}

interface Schedule {
  people: Person[];
  /** The service's answer to each purchase request, in the order they arrive. */
  answers: (keyof typeof ANSWERS)[];
  /** Each write's fate in turn until the schedule ends: a refusal, or undefined (it passes). */
  writes: (Code | undefined)[];
}

const person: fc.Arbitrary<Person> = fc.record({
  presses: fc.integer({ min: 1, max: 2 }),
  startAfter: fc.integer({ min: 0, max: 3 }),
  buysAgain: fc.boolean(),
});

const schedule: fc.Arbitrary<Schedule> = fc.record({
  people: fc.array(person, { minLength: 1, maxLength: 3 }),
  // Mostly delivered: an unknown outcome freezes purchases and ends the interesting part.
  answers: fc.array(
    fc.oneof(
      { weight: 4, arbitrary: fc.constant("delivered" as const) },
      {
        weight: 3,
        arbitrary: fc.constantFrom(...Object.keys(ANSWERS)),
      },
    ),
    { maxLength: 6 },
  ),
  writes: fc
    .array(
      // Runs of writes that pass, or that the database refuses (a lock that lasts a while).
      fc.tuple(fc.option(fc.constantFrom(...CODES), { freq: 2 }), fc.integer({ min: 1, max: 8 })),
      { maxLength: 8 },
    )
    .map((runs) =>
      runs.flatMap(([code, length]) => Array<Code | undefined>(length).fill(code ?? undefined)),
    ),
});

/** Results that tell a person what became of their gift (not "already being handled"). */
const TOLD: ReadonlySet<ConfirmResult["kind"]> = new Set([
  "succeeded",
  "rejected",
  "unconfirmed",
  "not_sent",
  "closed",
  "recipient_has_premium",
]);

/** Told that nothing was bought and nothing waits: the person may well try again. */
function nothingBought(result: ConfirmResult): boolean {
  if (result.kind === "closed" || result.kind === "not_sent") return true;
  return result.kind === "refused" && result.refusal.reason === "storage";
}

let sandbox: Sandbox;
let client: GiftServiceClient;

beforeAll(async () => {
  sandbox = await startSandbox({ quota: false });
  client = createGiftServiceClient({
    baseUrl: sandbox.url,
    credentials: CANARY,
    quota: { limit: 100_000, windowMs: 60_000 },
    timeouts: { headersMs: 2_000, bodyMs: 2_000 },
    // A 503 holds the client's requests for the wait it asks; here every run would wait it out.
    maxRetryWaitMs: 1,
  });
});

afterAll(async () => {
  await client.close();
  await sandbox.close();
});

/** A fresh database whose every intent write may be refused, per the schedule's `writes`. */
function faultyDatabase(writes: readonly (Code | undefined)[]) {
  const db = openDatabase(":memory:");
  let next = 0;
  let on = false;
  db.function("schedule_fault", () => {
    if (!on) return 0;
    const code = writes[next++];
    if (code !== undefined) throw new Database.SqliteError(`${code} (scheduled)`, code);
    return 0;
  });
  db.exec(`CREATE TEMP TRIGGER schedule_fault_insert BEFORE INSERT ON main.purchase_intents
           BEGIN SELECT schedule_fault(); END`);
  db.exec(`CREATE TEMP TRIGGER schedule_fault_update BEFORE UPDATE ON main.purchase_intents
           BEGIN SELECT schedule_fault(); END`);
  return {
    db,
    start: () => (on = true),
    /** Whether the schedule has run out (every later write passes). */
    ended: () => next >= writes.length,
    stop: () => (on = false),
  };
}

function deskOn(ledger: PurchaseLedger, clock: { now: number }): PurchaseDesk {
  // The pauses between tries move the test's clock instead of waiting: a refusal that lasts
  // walks a queued promise towards its expiry, as real time would.
  const sleep = () => {
    clock.now += 1_000;
    return Promise.resolve();
  };
  return createPurchaseDesk({
    ledger,
    client,
    storageRetry: { sleep },
    outcomeWriteRetry: { sleep },
    unrecordedRetry: { firstDelayMs: 1, maxDelayMs: 2 },
  });
}

async function turns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
}

async function runSchedule(s: Schedule): Promise<void> {
  sandbox.reset();
  for (const answer of s.answers) sandbox.injectFault(ANSWERS[answer] as Fault, { path: STARS });
  const faults = faultyDatabase(s.writes);
  const clock = { now: NOON };
  const database = new SqliteDatabase(faults.db);
  const ledger = openLedger(database, { clock: () => clock.now, draftTtlMs: 600_000 });
  const desk = deskOn(ledger, clock);

  const wishOf = new Map<string, number>();
  const told = new Map<string, number>();
  const tell = (result: ConfirmResult): void => {
    if (!TOLD.has(result.kind) || !("intent" in result)) return;
    told.set(result.intent.id, (told.get(result.intent.id) ?? 0) + 1);
  };
  const draftFor = async (wish: number): Promise<PurchaseIntent> => {
    const intent = await ledger.createDraft({
      kind: "stars",
      recipient: username(`wish_gift_${wish}`),
      quantity: 50,
      paymentMethod: "ton",
      requester: { userId: wish + 1, chatId: wish + 1, chatType: "private" },
      balanceBefore: { ton: "100", usdt: "1000" },
    });
    wishOf.set(intent.id, wish);
    return intent;
  };
  const drafts: PurchaseIntent[] = [];
  for (let wish = 0; wish < s.people.length; wish++) drafts.push(await draftFor(wish));

  faults.start();
  const pressing = s.people.map(async (p, wish) => {
    await turns(p.startAfter);
    const first = drafts[wish] as PurchaseIntent;
    const presses = Array.from({ length: p.presses }, () => desk.confirm(first.id, wish + 1));
    const results = await Promise.all(presses);
    results.forEach(tell);
    // Told nothing was bought: the person may start again, once, with a new summary.
    if (p.buysAgain && results.some(nothingBought)) {
      let again: PurchaseIntent | undefined;
      try {
        again = await draftFor(wish);
      } catch {
        return; // the new summary itself could not be written: nothing to press
      }
      tell(await desk.confirm(again.id, wish + 1));
    }
  });
  await Promise.all(pressing);

  // The faults stop; the process shuts down (held outcomes tried once more) and restarts.
  faults.stop();
  await desk.settled();
  await desk.close();
  const restarted = deskOn(openLedger(database, { clock: () => clock.now }), clock);
  await restarted.recoverInterrupted();
  const resolved = await restarted.resolveQueued({ mayBuy: () => true, isAdmin: () => false });
  for (const { result } of resolved) tell(result);
  await restarted.settled();
  await restarted.close();

  const requests = sandbox.purchaseRequests().map((r) => r.form?.username ?? "?");
  const perRecipient = new Map<string, number>();
  for (const name of requests) perRecipient.set(name, (perRecipient.get(name) ?? 0) + 1);
  const all = faults.db.prepare("SELECT * FROM purchase_intents").all() as {
    id: string;
    status: string;
    sent_at: number | null;
    queued_at: number | null;
  }[];
  faults.db.close();

  // At most one request per wish (so per intent: each wish has its own recipient).
  for (const [name, count] of perRecipient) expect(count, name).toBe(1);
  // Nothing left in flight or waiting.
  expect(all.filter((row) => row.status === "queued" || row.status === "sending")).toEqual([]);
  for (const row of all) {
    const wasSent = row.sent_at !== null;
    const wasQueued = row.queued_at !== null;
    const times = told.get(row.id) ?? 0;
    // A request went out, or a queued promise was closed: its person heard exactly once.
    if (wasSent || (wasQueued && row.status !== "draft")) expect(times, row.id).toBe(1);
    else expect(times, row.id).toBe(0);
  }
}

describe("the money path over random database and service faults", () => {
  it("keeps its invariants over 2,000 random schedules", async () => {
    await fc.assert(fc.asyncProperty(schedule, runSchedule), {
      numRuns: Number(process.env.FAULT_SCHEDULE_RUNS ?? 2_000),
    });
  }, 240_000);
});
