/**
 * The ledger on PostgreSQL under real concurrency: two storages (two pools, as two replicas)
 * with several connections each, claiming, recording outcomes, pausing and settling at once.
 * READ COMMITTED lets statements of different transactions interleave, so these are the tests
 * that the ledger gate (src/storage/ledger/claims.ts) is needed and enough: at most one
 * purchase `sending` at any moment, at most one winning claim per intent, and no claim winning
 * while purchases were paused or frozen from before it began to after it ended.
 */
import fc from "fast-check";
import { describe, expect, it, onTestFinished } from "vitest";
import type { PurchaseIntent, PurchaseLedger } from "../../src/ledger/types.js";
import { openPostgresStorage } from "../../src/storage/postgres/open.js";
import type { Storage } from "../../src/storage/types.js";
import { NOON, starsDraft } from "../helpers/ledger.js";
import { freshMigratedPostgresDatabase } from "../helpers/postgres.js";
import { ambiguous, attempt, success, user } from "./ledger-fixture.js";
import { onPostgres } from "../helpers/store-sql.js";
import { lockHolder, untilBackendWaits } from "./postgres-waits.js";

const ROOMY = {
  limits: { starsPerUserDay: 10_000_000, starsPerBotDay: 10_000_000, starsPerPurchase: 10_000 },
};

interface Replicas {
  ledgers: [PurchaseLedger, PurchaseLedger];
  close: () => Promise<void>;
}

/** Two replicas' ledgers on one fresh database, with `connections` each. */
async function twoReplicas(connections: number): Promise<Replicas> {
  const url = await freshMigratedPostgresDatabase();
  const storages: Storage[] = [];
  const close = async (): Promise<void> => {
    for (const storage of storages) await storage.close();
  };
  onTestFinished(close);
  for (let i = 0; i < 2; i++) {
    storages.push(await openPostgresStorage(url, { maxConnections: connections }));
  }
  const settings = { ...ROOMY, clock: () => NOON };
  const [a, b] = storages.map((storage) => storage.openLedger(settings));
  return { ledgers: [a!, b!], close };
}

/**
 * What the test sees of the purchases in flight: a claim that won is counted in the moment its
 * answer arrives, and counted out before its outcome is written. A second win while one is
 * counted means two intents were `sending` at once in the database.
 */
class FlightLog {
  inFlight: string | undefined;
  overlaps: string[] = [];
  readonly winners = new Map<string, number>();

  won(id: string): void {
    if (this.inFlight !== undefined) this.overlaps.push(`${id} won while ${this.inFlight} was out`);
    this.inFlight = id;
    this.winners.set(id, (this.winners.get(id) ?? 0) + 1);
  }

  /** The intent in flight, counted out (undefined when none). */
  land(): string | undefined {
    const id = this.inFlight;
    this.inFlight = undefined;
    return id;
  }
}

async function drafts(ledger: PurchaseLedger, count: number): Promise<PurchaseIntent[]> {
  const made: PurchaseIntent[] = [];
  for (let i = 0; i < count; i++) {
    made.push(await ledger.createDraft(starsDraft({ quantity: 50 + i, ...user(1 + (i % 5)) })));
  }
  return made;
}

describe("PostgreSQL claims under concurrency", () => {
  it("many claims of many intents through two pools at once: one winner in all, once", async () => {
    const { ledgers } = await twoReplicas(6);
    const intents = await drafts(ledgers[0], 30);
    // Every intent claimed three times by each replica, all at once.
    const claims = intents.flatMap((intent) =>
      [0, 1, 2, 3, 4, 5].map(async (i) => ({
        id: intent.id,
        result: await ledgers[i % 2]!.claim(intent.id, intent.requester.userId),
      })),
    );
    const results = await Promise.all(claims);
    const won = results.filter((r) => r.result.ok);
    expect(won).toHaveLength(1);
    const reasons = new Set(results.flatMap((r) => (r.result.ok ? [] : [r.result.reason])));
    expect([...reasons].sort()).toEqual(["already_processing", "busy"]);
    expect(await ledgers[1].sendingCount()).toBe(1);
  });

  it("claims racing outcomes: never two sending, each intent won at most once", async () => {
    const { ledgers } = await twoReplicas(4);
    const intents = await drafts(ledgers[0], 24);
    const log = new FlightLog();
    /** A replica's worker: claims intents in its own order, landing what it wins. */
    const worker = async (ledger: PurchaseLedger, order: PurchaseIntent[]): Promise<void> => {
      for (const intent of order) {
        const result = await ledger.claim(intent.id, intent.requester.userId);
        if (!result.ok) continue;
        log.won(intent.id);
        // Another worker's claim may run meanwhile: it must find this one still sending.
        await ledger.sendingCount();
        const landed = log.land();
        if (landed !== undefined) await ledger.recordOutcome(landed, success);
      }
    };
    const reversed = [...intents].reverse();
    const rounds = [0, 1, 2].flatMap(() => [
      worker(ledgers[0], intents),
      worker(ledgers[1], reversed),
    ]);
    await Promise.all(rounds);
    expect(log.overlaps).toEqual([]);
    expect([...log.winners.values()].every((n) => n === 1)).toBe(true);
    expect(log.winners.size).toBeGreaterThan(1);
    for (const intent of intents) {
      const sends = (await ledgers[1].history(intent.id)).filter((e) => e.to === "sending");
      expect(sends.length).toBe(log.winners.has(intent.id) ? 1 : 0);
    }
  });
});

/** One step of the property's schedule. */
type Step =
  | { op: "claim"; intent: number; replica: 0 | 1 }
  | { op: "land"; replica: 0 | 1; ambiguous: boolean }
  | { op: "pause"; replica: 0 | 1; paused: boolean }
  | { op: "settle"; replica: 0 | 1 };

const replica = fc.constantFrom<0 | 1>(0, 1);
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ op: fc.constant("claim" as const), intent: fc.nat(7), replica }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant("land" as const), replica, ambiguous: fc.boolean() }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant("pause" as const), replica, paused: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("settle" as const), replica }) },
);

/** Runs one step on its replica, telling `log` what won and what landed. */
function stepRunner(
  ledgers: [PurchaseLedger, PurchaseLedger],
  intents: readonly PurchaseIntent[],
  log: FlightLog,
): (s: Step) => Promise<void> {
  return async (s) => {
    const ledger = ledgers[s.replica];
    if (s.op === "claim") {
      const intent = intents[s.intent]!;
      const result = await ledger.claim(intent.id, intent.requester.userId);
      if (result.ok) log.won(intent.id);
    } else if (s.op === "land") {
      const id = log.land();
      if (id !== undefined) await ledger.recordOutcome(id, s.ambiguous ? ambiguous : success);
    } else if (s.op === "pause") {
      await ledger.setPaused(s.paused, 7);
    } else {
      const [oldest] = await ledger.unconfirmed();
      // Two settlements of one intent at once: the second is refused, as it should be.
      if (oldest !== undefined) {
        await attempt(() => ledger.resolve(oldest.id, 7, false)).catch(() => undefined);
      }
    }
  };
}

const totalWins = (log: FlightLog): number =>
  [...log.winners.values()].reduce((sum, n) => sum + n, 0);

/** Runs the batches, each one's steps at once, checking the invariants after each. */
async function runSchedule(batches: Step[][]): Promise<void> {
  const { ledgers, close } = await twoReplicas(3);
  try {
    const intents = await drafts(ledgers[0], 8);
    const log = new FlightLog();
    const run = stepRunner(ledgers, intents, log);
    for (const batch of batches) {
      // Closed (paused or frozen) before the batch, and nothing in it could open it: no claim
      // in it may win.
      const closedBefore =
        (await ledgers[0].pauseState()).paused || (await ledgers[0].unconfirmedCount()) > 0;
      const opens = batch.some((s) => s.op === "settle" || (s.op === "pause" && !s.paused));
      const winsBefore = totalWins(log);
      await Promise.all(batch.map(run));
      if (closedBefore && !opens) expect(totalWins(log)).toBe(winsBefore);
      expect(await ledgers[1].sendingCount()).toBeLessThanOrEqual(1);
    }
    expect(log.overlaps).toEqual([]);
    expect([...log.winners.values()].every((n) => n === 1)).toBe(true);
  } finally {
    await close();
  }
}

describe("PostgreSQL ledger under random interleavings (fast-check)", () => {
  it("keeps one sending at most, one win per intent, and no win inside a pause or a freeze", async () => {
    const schedule = fc.array(fc.array(step, { minLength: 1, maxLength: 6 }), {
      minLength: 1,
      maxLength: 6,
    });
    await fc.assert(fc.asyncProperty(schedule, runSchedule), { numRuns: 12 });
  });
});

describe("PostgreSQL claim and lease takeover", () => {
  it("a takeover waits for a claim being judged, so no claim of the old holder commits after it", async () => {
    const url = await freshMigratedPostgresDatabase();
    const old = await openPostgresStorage(url, { maxConnections: 2 });
    const next = await openPostgresStorage(url, { maxConnections: 2 });
    onTestFinished(async () => {
      await old.close();
      await next.close();
    });
    const ledger = old.openLedger({ ...ROOMY, clock: () => NOON });
    expect(await old.senderLease.acquire("old", 30_000)).toMatchObject({ epoch: 1 });
    ledger.fenceWith({ owner: "old", epoch: 1 });
    const intent = await ledger.createDraft(starsDraft());

    // The intent's row held elsewhere: the claim stops inside its transaction, past the gate
    // and the lease's row.
    const holder = await lockHolder(url);
    await holder.client.query("SELECT 1 FROM purchase_intents WHERE id = $1 FOR UPDATE", [
      intent.id,
    ]);
    const order: string[] = [];
    const claim = attempt(() => ledger.claim(intent.id, 1)).then((result) => {
      order.push("claim");
      return result;
    });
    await untilBackendWaits(url, "transactionid", holder.pid);
    const takeover = attempt(() =>
      next.senderLease.takeOver("next", { owner: "old", epoch: 1 }, 30_000),
    ).then((grant) => {
      order.push("takeover");
      return grant?.epoch;
    });
    // The takeover queues behind the claim's share lock on the lease's row (were it to pass
    // at once, the claim would commit under a lease already taken over).
    const passed = takeover.then(() => {
      throw new Error("the takeover did not wait for the claim being judged");
    });
    await Promise.race([untilBackendWaits(url, "transactionid", holder.pid, 2), passed]);
    await holder.release();
    expect((await claim).ok).toBe(true);
    expect(await takeover).toBe(2);
    expect(order).toEqual(["claim", "takeover"]);
  });

  it("a claim that waited for its locks past the lease's expiry is refused: the fence reads the server's clock when it judges", async () => {
    const url = await freshMigratedPostgresDatabase();
    const old = await openPostgresStorage(url, { maxConnections: 2 });
    onTestFinished(async () => {
      await old.close();
    });
    const ledger = old.openLedger({ ...ROOMY, clock: () => NOON });
    // A short lease, unexpired when the claim starts.
    expect(await old.senderLease.acquire("old", 1_500)).toMatchObject({ epoch: 1 });
    ledger.fenceWith({ owner: "old", epoch: 1 });
    const intent = await ledger.createDraft(starsDraft());

    // The intent's row held elsewhere: the claim waits inside its transaction, past the gate.
    const holder = await lockHolder(url);
    await holder.client.query("SELECT 1 FROM purchase_intents WHERE id = $1 FOR UPDATE", [
      intent.id,
    ]);
    const claim = attempt(() => ledger.claim(intent.id, 1));
    await untilBackendWaits(url, "transactionid", holder.pid);
    // The server waits out the lease's lifetime by its own clock.
    await onPostgres(url, (client) =>
      client.query(
        "SELECT pg_sleep(GREATEST(0, (expires_at - (extract(epoch FROM clock_timestamp()) * 1000)) / 1000.0 + 0.05)) FROM sender_lease",
      ),
    );
    await holder.release();
    expect(await claim).toEqual({ ok: false, reason: "busy" });
    expect((await ledger.get(intent.id))?.status).toBe("draft");
  });
});
