/**
 * `npm test` leaves nothing behind: no process started by a test, no temporary file. Every test
 * already cleans up after itself; this checks that it worked, for the whole run, and fails the
 * run when it did not (killing what was left, so a failed run does not leak either).
 *
 * - Temporary files: the run gets a folder of its own as TMPDIR (the workers and every process
 *   they start inherit it), which must be empty at the end.
 * - Processes: a process belongs to this run when its command line names this checkout or its
 *   environment carries GIFTBOT_TEST_RUN (set here, inherited like TMPDIR). Processes that
 *   matched before the run started (a `npm run dev` in the same checkout) are not counted, nor
 *   are vitest itself and its workers. Linux only (it reads /proc); elsewhere it is skipped.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { guardExit } from "../tools/postgres/exit-guard.js";
import { processesOfRun, RUN_MARKER } from "./helpers/leftovers.js";
import {
  POSTGRES_ON_DEMAND_VARIABLE,
  servePostgresOnDemand,
} from "./helpers/postgres-on-demand.js";

/** How long processes that are exiting right now get to finish: 50 looks, 100 ms apart. */
const EXIT_LOOKS = 50;
const EXIT_LOOK_MS = 100;

/**
 * tsx keeps its compile cache in `$TMPDIR/tsx-<uid>`. The run's own TMPDIR points there through
 * a link, so processes the tests start through tsx keep a warm cache (a cold one makes each of
 * them compile the whole tree, slow enough to time tests out on a busy 2-core machine).
 */
function shareTsxCache(runDir: string): string {
  const name = `tsx-${process.geteuid?.() ?? userInfo().username}`;
  const shared = join(tmpdir(), name);
  mkdirSync(shared, { recursive: true });
  symlinkSync(shared, join(runDir, name));
  return name;
}

export default async function setup(): Promise<() => Promise<void>> {
  // PostgreSQL starts when a test first asks for it, in a folder of its own beside the run's
  // TMPDIR (the postgres user cannot enter that one), removed when it stops.
  const postgres = await servePostgresOnDemand(tmpdir());
  process.env[POSTGRES_ON_DEMAND_VARIABLE] = postgres.url;
  const runDir = mkdtempSync(join(tmpdir(), "giftbot-test-run-"));
  // An interrupted run (no teardown) would leave the folder behind.
  const runDirGuard = guardExit("giftbot-test-run-guard", 'rm -rf "$1"', [runDir]);
  const tsxCache = shareTsxCache(runDir);
  const marker = `${RUN_MARKER}=${runDir}`;
  const before = new Set(processesOfRun(marker, new Set()).map((p) => p.pid));
  process.env.TMPDIR = runDir;
  process.env[RUN_MARKER] = runDir;

  return async () => {
    await postgres.stop();
    let left = processesOfRun(marker, before);
    for (let look = 0; look < EXIT_LOOKS && left.length > 0; look += 1) {
      await sleep(EXIT_LOOK_MS);
      left = processesOfRun(marker, before);
    }
    for (const leftover of left) {
      try {
        process.kill(leftover.pid, "SIGKILL");
      } catch {
        // Exited meanwhile.
      }
    }
    const files = readdirSync(runDir).filter((name) => name !== tsxCache);
    // Removes the link to tsx's cache, not the cache.
    rmSync(runDir, { recursive: true, force: true });
    runDirGuard.release();
    const problems = [
      ...left.map((p) => `process ${p.pid} still running: ${p.command}`),
      ...files.map((file) => `temporary file left: ${join(runDir, file)}`),
    ];
    if (problems.length > 0) {
      // vitest reports a teardown's error but keeps the exit code of the tests: set it here.
      process.exitCode = 1;
      throw new Error(`the tests left things behind (now removed):\n${problems.join("\n")}`);
    }
  };
}
