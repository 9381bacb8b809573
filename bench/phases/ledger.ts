/**
 * 8. The ledger alone, on each store: the same workload through the same `Storage` interface
 * the bot uses. On a fresh database it records `purchases` drafts (everyone a different
 * person, so no limit or draft of theirs interferes), then claims each one and records its
 * outcome, one purchase after another, and times the claims and the outcomes apart.
 *
 * - SQLite in the temporary folder (a disk here: the claim's and the outcome's commits wait
 *   for an fsync, `synchronous=FULL`) and in /dev/shm (memory: an fsync costs nothing), so the
 *   difference is the price of making those commits durable.
 * - PostgreSQL, one pool (one replica), on a throwaway cluster in the temporary folder with
 *   fsync on, as in production (tools/postgres/cluster.ts), over TCP on 127.0.0.1.
 * - PostgreSQL, two pools (two replicas) on one database, each pressing Confirm on every
 *   purchase at the same moment, as a double press landing on two replicas would: for each
 *   purchase both claim, exactly one wins and records the outcome, the other is refused
 *   (already being sent, or busy while the previous one is still being sent: it tries again at
 *   once). This is the ledger gate under contention (src/storage/ledger/claims.ts), not the
 *   deployment's path: there the standby hands its updates to the lease holder, which alone
 *   claims.
 *
 * CPU is this process's only (PostgreSQL's server work is not counted); wall time is what a
 * caller waits. When PostgreSQL's programs are missing its figures are skipped, with the reason.
 */
import { existsSync, mkdtempSync, rmSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { NewIntent, PurchaseLedger } from "../../src/ledger/types.js";
import type { PurchaseOutcome } from "../../src/service/types.js";
import { openPostgresStorage } from "../../src/storage/postgres/open.js";
import { openSqliteStorage } from "../../src/storage/sqlite/open.js";
import type { Storage } from "../../src/storage/types.js";
import { postgresMissing, startPostgresCluster } from "../../tools/postgres/cluster.js";
import { round } from "../lib/stats.js";
import type { Row } from "../lib/table.js";

/** One kind of operation's cost, averaged over every one of them. */
interface OperationCost {
  cpu_us: number;
  wall_us: number;
  /** Operations per second, one after another (1 / wall time). */
  per_second: number;
}

interface StoreFigures {
  store: string;
  draft: OperationCost;
  claim: OperationCost;
  outcome: OperationCost;
  /** Whole purchases (claim + outcome) per second, one after another. */
  purchases_per_second: number;
}

interface ReplicasFigures {
  replicas: number;
  purchases: number;
  /** Purchases decided (claimed by one replica, outcome recorded) per second of the run. */
  purchases_per_second: number;
  /** Each replica's winning claims (they add up to `purchases`: one winner per purchase). */
  claims_won: number[];
  /** Claims refused because the other replica had already claimed that purchase. */
  claims_lost: number;
  /** Claims refused because another purchase was still being sent, tried again at once. */
  busy_refusals: number;
  /** Claims of both replicas per purchase decided (2 at the least). */
  claims_per_purchase: number;
}

export interface LedgerResult {
  purchases: number;
  stores: StoreFigures[];
  /** Two pools on one database claiming each purchase at once; null when skipped. */
  postgres_replicas: ReplicasFigures | null;
  /** Why the PostgreSQL figures are missing, when they are. */
  postgres_note?: string;
}

const delivered: PurchaseOutcome = {
  kind: "success",
  value: { txHash: "bench-tx", data: undefined },
  body: { ok: true, tx_hash: "bench-tx" },
};

/** High enough that no limit refuses a claim of the bench. */
const LIMITS = { starsPerUserDay: 1_000_000, starsPerBotDay: 1_000_000_000 };

const userOf = (i: number): number => 10_000 + i;

function draftOf(i: number): NewIntent {
  return {
    kind: "stars",
    recipient: `bench_recipient_${i}`,
    quantity: 50,
    paymentMethod: "usdt_ton",
    requester: { userId: userOf(i), chatId: userOf(i), chatType: "private" },
    balanceBefore: { ton: "10", usdt: "1000" },
  };
}

/** Adds up the CPU and wall time of timed operations of one kind. */
class Meter {
  #count = 0;
  #cpuUs = 0;
  #wallMs = 0;

  async time<T>(work: () => T | Promise<T>): Promise<T> {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const result = await work();
    this.#wallMs += performance.now() - started;
    const used = process.cpuUsage(cpu);
    this.#cpuUs += used.user + used.system;
    this.#count += 1;
    return result;
  }

  get wallUs(): number {
    return (this.#wallMs * 1000) / this.#count;
  }

  cost(): OperationCost {
    return {
      cpu_us: round(this.#cpuUs / this.#count, 1),
      wall_us: round(this.wallUs, 1),
      per_second: Math.round(1e6 / this.wallUs),
    };
  }
}

async function createDrafts(ledger: PurchaseLedger, purchases: number, meter?: Meter) {
  const ids: string[] = [];
  for (let i = 0; i < purchases; i++) {
    const create = () => ledger.createDraft(draftOf(i));
    const intent = meter === undefined ? await create() : await meter.time(create);
    ids.push(intent.id);
  }
  return ids;
}

/** The workload on one store: drafts, then each purchase claimed and its outcome recorded. */
async function measureStore(
  store: string,
  storage: Storage,
  purchases: number,
): Promise<StoreFigures> {
  const ledger = storage.openLedger({ limits: LIMITS });
  const drafts = new Meter();
  const claims = new Meter();
  const outcomes = new Meter();
  const ids = await createDrafts(ledger, purchases, drafts);
  for (const [i, id] of ids.entries()) {
    const claim = await claims.time(() => ledger.claim(id, userOf(i)));
    if (!claim.ok) throw new Error(`${store}: the claim was refused: ${claim.reason}`);
    await outcomes.time(() => ledger.recordOutcome(id, delivered));
  }
  return {
    store,
    draft: drafts.cost(),
    claim: claims.cost(),
    outcome: outcomes.cost(),
    purchases_per_second: Math.round(1e6 / (claims.wallUs + outcomes.wallUs)),
  };
}

interface ReplicaTally {
  won: number;
  lost: number;
  busy: number;
}

/** One replica pressing Confirm on every purchase in turn, until each is decided. */
async function pressEvery(ledger: PurchaseLedger, ids: readonly string[]): Promise<ReplicaTally> {
  const tally: ReplicaTally = { won: 0, lost: 0, busy: 0 };
  for (const [i, id] of ids.entries()) {
    for (;;) {
      const claim = await ledger.claim(id, userOf(i));
      if (claim.ok) {
        await ledger.recordOutcome(id, delivered);
        tally.won += 1;
        break;
      }
      if (claim.reason === "busy") {
        tally.busy += 1;
        continue;
      }
      if (claim.reason === "already_processing" || claim.reason === "already_done") {
        tally.lost += 1;
        break;
      }
      throw new Error(`a replica's claim was refused: ${claim.reason}`);
    }
  }
  return tally;
}

async function measureReplicas(url: string, purchases: number): Promise<ReplicasFigures> {
  const storages = [await openPostgresStorage(url), await openPostgresStorage(url)];
  try {
    const ledgers = storages.map((storage) => storage.openLedger({ limits: LIMITS }));
    const ids = await createDrafts(ledgers[0] as PurchaseLedger, purchases);
    const started = performance.now();
    const tallies = await Promise.all(ledgers.map((ledger) => pressEvery(ledger, ids)));
    const seconds = (performance.now() - started) / 1000;
    const won = tallies.reduce((sum, t) => sum + t.won, 0);
    // A sanity check of the run, not a timing: one winner per purchase, or the figure is wrong.
    if (won !== purchases) throw new Error(`${won} claims won for ${purchases} purchases`);
    const claims = tallies.reduce((sum, t) => sum + t.won + t.lost + t.busy, 0);
    return {
      replicas: storages.length,
      purchases,
      purchases_per_second: Math.round(purchases / seconds),
      claims_won: tallies.map((t) => t.won),
      claims_lost: tallies.reduce((sum, t) => sum + t.lost, 0),
      busy_refusals: tallies.reduce((sum, t) => sum + t.busy, 0),
      claims_per_purchase: round(claims / purchases, 2),
    };
  } finally {
    for (const storage of storages) await storage.close();
  }
}

async function measureSqlite(label: string, folder: string, purchases: number) {
  const dir = mkdtempSync(join(folder, "giftbot-ledger-bench-"));
  const storage = await openSqliteStorage(join(dir, "ledger.sqlite"));
  try {
    return await measureStore(label, storage, purchases);
  } finally {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A new database on the cluster at `clusterUrl` (its `postgres` database), and its URL. */
async function createDatabase(clusterUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: clusterUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

type PostgresFigures = Pick<LedgerResult, "postgres_replicas" | "postgres_note"> & {
  single?: StoreFigures;
};

async function measurePostgres(purchases: number, where: string): Promise<PostgresFigures> {
  const missing = postgresMissing();
  if (missing !== undefined) return { postgres_replicas: null, postgres_note: missing };
  const cluster = await startPostgresCluster(tmpdir(), { durable: true });
  try {
    const storage = await openPostgresStorage(await createDatabase(cluster.url, "bench_one"));
    let single: StoreFigures;
    try {
      single = await measureStore(`PostgreSQL, 1 pool (${where})`, storage, purchases);
    } finally {
      await storage.close();
    }
    const replicas = await measureReplicas(
      await createDatabase(cluster.url, "bench_two"),
      purchases,
    );
    return { single, postgres_replicas: replicas };
  } finally {
    cluster.stop();
  }
}

/** statfs's type of a tmpfs (memory) file system. */
const TMPFS = 0x01021994;

export async function runLedger(options: { purchases: number }): Promise<LedgerResult> {
  const { purchases } = options;
  const onDisk = statfsSync(tmpdir()).type !== TMPFS;
  const where = onDisk ? "disk" : "tmpfs";
  const stores = [await measureSqlite(`SQLite (${where})`, tmpdir(), purchases)];
  if (existsSync("/dev/shm")) {
    stores.push(await measureSqlite("SQLite (/dev/shm)", "/dev/shm", purchases));
  }
  const postgres = await measurePostgres(purchases, where).catch(
    (error: unknown): PostgresFigures => ({
      postgres_replicas: null,
      postgres_note: `PostgreSQL failed: ${error instanceof Error ? error.message : String(error)}`,
    }),
  );
  if (postgres.single !== undefined) stores.push(postgres.single);
  return {
    purchases,
    stores,
    postgres_replicas: postgres.postgres_replicas,
    ...(postgres.postgres_note === undefined ? {} : { postgres_note: postgres.postgres_note }),
  };
}

/** The phase's rows: the stores side by side, then the two replicas (or why they are missing). */
export function ledgerRows(result: LedgerResult): Row[] {
  const each = (pick: (store: StoreFigures) => number | string) =>
    result.stores.map(pick).join(" | ");
  const cost = (pick: (store: StoreFigures) => OperationCost) =>
    each((store) => `${pick(store).cpu_us} / ${pick(store).wall_us}`);
  const replicas = result.postgres_replicas;
  return [
    {
      section: `8. The ledger alone (${result.purchases} purchases one after another; CPU is this process's)`,
    },
    ["store", each((store) => store.store)],
    ["claims per second", each((store) => store.claim.per_second)],
    ["outcomes per second", each((store) => store.outcome.per_second)],
    ["purchases (claim + outcome) per second", each((store) => store.purchases_per_second)],
    ["claim: CPU / wall us", cost((store) => store.claim)],
    ["outcome: CPU / wall us", cost((store) => store.outcome)],
    ["draft: CPU / wall us", cost((store) => store.draft)],
    replicas === null
      ? ["PostgreSQL", `skipped: ${result.postgres_note ?? "?"}`]
      : [
          `PostgreSQL, ${replicas.replicas} pools pressing each purchase at once`,
          `${replicas.purchases_per_second} purchases/s; claims won ${replicas.claims_won.join(" + ")}, ` +
            `lost ${replicas.claims_lost}, busy ${replicas.busy_refusals} (${replicas.claims_per_purchase} per purchase)`,
        ],
  ];
}
