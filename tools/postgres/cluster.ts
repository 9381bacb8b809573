/**
 * A throwaway PostgreSQL cluster: initdb and pg_ctl into a temporary folder, listening on
 * 127.0.0.1 only, removed when it stops. The tests start one per run, when a test first asks
 * for a database (test/helpers/postgres-on-demand.ts), with fsync off (nothing there must
 * survive a power cut); `npm run bench` starts a durable one (fsync on, as in production) to
 * time the ledger on it. The server refuses to run as root, so as root every command runs as
 * the `postgres` user (runuser), which owns the folder.
 *
 * The server outlives the process that started it (pg_ctl detaches it), so a guard stops it
 * when that process ends without its teardown: Ctrl-C, `timeout` and a killed CI job end vitest
 * so, and each left one more server running and its folder in /tmp (./exit-guard.ts).
 *
 * PostgreSQL missing is an error here. For the tests it is never a skip: `.ci/run` installs it
 * (apt-get) when it is not on the machine, and a run without it would pass without testing the
 * PostgreSQL store. The bench asks {@link postgresMissing} first and skips its figures.
 */
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ExitGuard, guardExit } from "./exit-guard.js";

export interface PostgresCluster {
  /** A superuser's URL to the `postgres` database. */
  url: string;
  /** The cluster's folder (its data, socket and log), removed when it stops. */
  dir: string;
  stop(): void;
}

const NOT_INSTALLED =
  "PostgreSQL is not installed (no initdb on PATH, in `pg_config --bindir` or " +
  "/usr/lib/postgresql/*/bin). Install it (Debian: apt-get install -y postgresql); .ci/run does.";

/** Where initdb and pg_ctl are: on PATH, else in `pg_config --bindir` (a plain Debian install). */
function binDir(): string {
  const dir = findBinDir();
  if (dir === undefined) throw new Error(NOT_INSTALLED);
  return dir;
}

/** Why no cluster can be started here (PostgreSQL's programs not found), or undefined. */
export function postgresMissing(): string | undefined {
  return findBinDir() === undefined ? NOT_INSTALLED : undefined;
}

function findBinDir(): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(":")) {
    if (dir !== "" && existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl")))
      return dir;
  }
  try {
    const dir = execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim();
    if (existsSync(join(dir, "initdb"))) return dir;
  } catch {
    // No pg_config either: said below.
  }
  for (const version of ["17", "16", "15"]) {
    const dir = `/usr/lib/postgresql/${version}/bin`;
    if (existsSync(join(dir, "initdb"))) return dir;
  }
  return undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const asRoot = (): boolean => process.geteuid?.() === 0;

/** Runs a PostgreSQL program, as the `postgres` user when this process is root. */
function run(program: string, args: string[]): void {
  const [file, argv] = asRoot()
    ? ["runuser", ["-u", "postgres", "--", program, ...args]]
    : [program, args];
  execFileSync(file, argv, { stdio: "pipe", env: { PATH: process.env.PATH ?? "", LANG: "C" } });
}

/**
 * Stops the cluster in `dir` and removes the folder once this process has ended, however it
 * ended (./exit-guard.ts). After a normal stop the guard finds the folder gone.
 */
function guardCluster(bin: string, data: string, dir: string): ExitGuard {
  const pgCtl = asRoot() ? 'runuser -u postgres -- "$1/pg_ctl"' : '"$1/pg_ctl"';
  return guardExit(
    "giftbot-postgres-guard",
    `[ -d "$3" ] || exit 0; ${pgCtl} -D "$2" -m immediate -w stop >/dev/null 2>&1; rm -rf "$3"`,
    [bin, data, dir],
  );
}

/** Stops the cluster whose folder is `dir`, if it runs, and removes the folder. */
export function stopClusterIn(dir: string): void {
  try {
    run(join(binDir(), "pg_ctl"), ["-D", join(dir, "data"), "-m", "immediate", "-w", "stop"]);
  } catch {
    // Not started, or already stopped.
  }
  rmSync(dir, { recursive: true, force: true });
}

export interface ClusterOptions {
  /**
   * Whether a commit waits for its WAL to reach the disk (fsync on, PostgreSQL's default), as
   * in production: for timing. Off by default: tests need no durability and run faster.
   */
  durable?: boolean;
}

/**
 * Starts a cluster in a new folder under `parent`, which the `postgres` user must be able to
 * reach (as root: not the test run's own TMPDIR, which only root may enter).
 */
export async function startPostgresCluster(
  parent: string = tmpdir(),
  options: ClusterOptions = {},
): Promise<PostgresCluster> {
  const bin = binDir();
  const dir = mkdtempSync(join(parent, "giftbot-pg-"));
  if (asRoot()) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, "data");
  const port = await freePort();
  const guard = guardCluster(bin, data, dir);
  const stop = (): void => {
    stopClusterIn(dir);
    guard.release();
  };
  try {
    run(join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "giftbot", "-N", "-E", "UTF8"]);
    const durability = options.durable === true ? "" : " -c fsync=off -c full_page_writes=off";
    const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1${durability} -c max_connections=200`;
    run(join(bin, "pg_ctl"), [
      "-D",
      data,
      "-w",
      "-l",
      join(dir, "server.log"),
      "-o",
      settings,
      "start",
    ]);
  } catch (error) {
    stop();
    throw error;
  }
  return { url: `postgres://giftbot@127.0.0.1:${port}/postgres`, dir, stop };
}
