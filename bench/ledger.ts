/**
 * `npm run bench:ledger`: what the purchase ledger's own writes cost, apart from the bot. On a
 * fresh SQLite file it records BENCH_LEDGER_PURCHASES (2,000) drafts, then claims each and
 * records its outcome, and prints CPU and wall time per operation. It does so twice: with the
 * file in the temporary folder (a disk, where the claim's and the outcome's commits wait for an
 * fsync) and in /dev/shm (memory, where an fsync costs nothing), so the difference is the price
 * of making those two commits durable. The peer bot of `npm run bench` commits without fsync.
 */
import { existsSync, mkdtempSync, rmSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ledger } from "../src/storage/sqlite/ledger.js";
import type { NewIntent } from "../src/ledger/types.js";
import type { PurchaseOutcome } from "../src/service/types.js";
import { openDatabase } from "../src/storage/sqlite/database.js";
import { round } from "./lib/stats.js";

const purchases = Math.max(100, Number(process.env.BENCH_LEDGER_PURCHASES ?? 2_000));

const delivered: PurchaseOutcome = {
  kind: "success",
  value: { txHash: "bench-tx", data: undefined },
  body: { ok: true, tx_hash: "bench-tx" },
};

/** Person `i`'s draft: everyone a different person, so no limit or draft of theirs interferes. */
function draftOf(i: number): NewIntent {
  return {
    kind: "stars",
    recipient: `bench_recipient_${i}`,
    quantity: 50,
    paymentMethod: "usdt_ton",
    requester: { userId: 10_000 + i, chatId: 10_000 + i, chatType: "private" },
    balanceBefore: { ton: "10", usdt: "1000" },
  };
}

interface PerOperation {
  cpuUs: number;
  wallUs: number;
}

function timed(count: number, work: (i: number) => void): PerOperation {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < count; i++) work(i);
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return {
    cpuUs: round((used.user + used.system) / count, 1),
    wallUs: round((wallMs * 1000) / count, 1),
  };
}

function measure(folder: string): { draft: PerOperation; claimAndOutcome: PerOperation } {
  const dir = mkdtempSync(join(folder, "giftbot-ledger-bench-"));
  const db = openDatabase(join(dir, "ledger.sqlite"));
  try {
    const limits = { starsPerUserDay: 1_000_000, starsPerBotDay: 1_000_000_000 };
    const ledger = new Ledger(db, { limits });
    const ids: string[] = [];
    const draft = timed(purchases, (i) => ids.push(ledger.createDraft(draftOf(i)).id));
    const claimAndOutcome = timed(purchases, (i) => {
      const id = ids[i] ?? "";
      const claim = ledger.claim(id, 10_000 + i);
      if (!claim.ok) throw new Error(`the claim was refused: ${claim.reason}`);
      ledger.recordOutcome(id, delivered);
    });
    return { draft, claimAndOutcome };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** statfs's type of a tmpfs (memory) file system. */
const TMPFS = 0x01021994;
const onDisk = statfsSync(tmpdir()).type !== TMPFS;
const places: [string, string][] = [
  [
    onDisk ? "disk (temporary folder)" : "temporary folder (tmpfs: memory too, not a disk)",
    tmpdir(),
  ],
];
if (existsSync("/dev/shm")) places.push(["memory (/dev/shm: fsync is free)", "/dev/shm"]);
console.log(`The ledger alone, ${purchases} purchases, microseconds per operation (CPU | wall)`);
for (const [label, folder] of places) {
  const { draft, claimAndOutcome } = measure(folder);
  console.log(`  ${label}`);
  console.log(`    draft (one transaction)            ${draft.cpuUs} | ${draft.wallUs}`);
  console.log(
    `    claim + outcome (two durable ones)  ${claimAndOutcome.cpuUs} | ${claimAndOutcome.wallUs}`,
  );
}
