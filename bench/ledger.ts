/**
 * `npm run bench:ledger`: what the purchase ledger's own writes cost, apart from the bot, on
 * SQLite (disk and /dev/shm) and PostgreSQL (one pool, and two pools claiming each purchase at
 * once) side by side: BENCH_LEDGER_PURCHASES (2,000) drafts, then each claimed and its outcome
 * recorded. What each figure means: ./phases/ledger.ts. `npm run bench` runs it too.
 */
import { formatTable } from "./lib/table.js";
import { ledgerRows, runLedger } from "./phases/ledger.js";

const purchases = Math.max(100, Number(process.env.BENCH_LEDGER_PURCHASES ?? 2_000));
process.stdout.write(`${formatTable(ledgerRows(await runLedger({ purchases })))}\n`);
