/**
 * Finding the processes a test run left running (see test/global-setup.ts), by reading /proc.
 * A process belongs to a run when its command line names this checkout or its environment
 * carries the run's marker variable.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";

const CHECKOUT = resolve(import.meta.dirname, "../..");

/** The environment variable that marks the processes of one test run. */
export const RUN_MARKER = "GIFTBOT_TEST_RUN";

export interface ProcessInfo {
  pid: number;
  parent: number;
  command: string;
}

/** Every process this user can read, from /proc; empty where there is no /proc. */
function listProcesses(): (ProcessInfo & { environment: string })[] {
  if (!existsSync("/proc")) return [];
  const processes: (ProcessInfo & { environment: string })[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // Fields after the command name in parentheses: state, then the parent's pid.
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const command = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0").join(" ").trim();
      const environment = readFileSync(`/proc/${name}/environ`, "utf8");
      processes.push({ pid: Number(name), parent, command, environment });
    } catch {
      // Gone meanwhile, or another user's: not ours either way.
    }
  }
  return processes;
}

/** `self` and its ancestors: the vitest run and whatever started it (npm, a shell). */
function ownLine(processes: ProcessInfo[], self: number): Set<number> {
  const byPid = new Map(processes.map((p) => [p.pid, p]));
  const line = new Set<number>();
  for (let pid = self; pid > 1 && !line.has(pid); pid = byPid.get(pid)?.parent ?? 0) {
    line.add(pid);
  }
  return line;
}

/**
 * The processes of the run marked `marker` ("NAME=value") still alive, other than `self` (the
 * vitest process), its ancestors, its direct children (vitest's workers: tests run inside them)
 * and `before`.
 */
export function processesOfRun(
  marker: string,
  before: Set<number>,
  self: number = process.pid,
): ProcessInfo[] {
  const all = listProcesses();
  const own = ownLine(all, self);
  return all.filter(
    (p) =>
      !before.has(p.pid) &&
      !own.has(p.pid) &&
      // vitest's workers and helpers are its direct children; tests run inside the workers.
      p.parent !== self &&
      (namesCheckout(p.command) || p.environment.split("\0").includes(marker)),
  );
}

/**
 * Whether a command line names a file of this checkout other than its installed packages: a
 * tool run from another checkout that shares this one's node_modules (a git worktree with a
 * linked node_modules) names them too, and is not this run's.
 */
function namesCheckout(command: string): boolean {
  return command.split(`${CHECKOUT}/node_modules/`).join("").includes(`${CHECKOUT}/`);
}

/** The processes whose parent is `pid`, with their command lines (empty where there is no /proc). */
export function childrenOf(pid: number): ProcessInfo[] {
  return listProcesses()
    .filter((p) => p.parent === pid)
    .map(({ pid: child, parent, command }) => ({ pid: child, parent, command }));
}

/** `pid`'s children, their children, and so on. */
export function descendantsOf(pid: number): ProcessInfo[] {
  const found: ProcessInfo[] = [];
  // Bounded: a process tree is far smaller than this, and a pid cannot be its own ancestor.
  for (let queue = [pid], rounds = 0; queue.length > 0 && rounds < 64; rounds++) {
    const next = queue.flatMap((parent) => childrenOf(parent));
    found.push(...next);
    queue = next.map((p) => p.pid);
  }
  return found;
}
