/**
 * Who holds the sender lease, as its owner id names the process, and whether that process is
 * certainly gone, so its lease may be taken before it expires (src/run/lease-keeper.ts, and the
 * restore's check that no bot holds the database).
 *
 * A host name and a pid alone cannot tell: two containers with the same host name (a shared
 * `hostname:` or `network_mode: host`) both run node as PID 1, and each would take its own pid
 * in the other's owner id for itself, judge the other dead and take its lease while it still
 * sends (issue #35). So the id also names where its pid means something and which process had
 * it: the machine's boot (`/proc/sys/kernel/random/boot_id`), the PID namespace (the inode of
 * `/proc/self/ns/pid`: each container has its own) and the process's start time (field 22 of
 * `/proc/self/stat`, which a pid reused later never repeats). A holder is judged gone only on
 * the same boot, in the same PID namespace, when its pid has no process or one started at
 * another time. Anywhere else (another host, another container, a container restarted, which
 * gets a new namespace, a system without /proc) nothing is known, and its lease is waited out.
 */
import { randomBytes } from "node:crypto";
import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";

/** Where a pid is judged: the boot, the PID namespace, and a process's start time there. */
interface ProcessMark {
  boot: string;
  pidNamespace: string;
  startTime: string;
}

/** Field 22 of /proc/<pid>/stat (after the name, which may hold spaces and parentheses). */
function startTimeOf(pid: number | "self"): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields from the third on: the start time is the 22nd, so the 20th here.
    return fields[19];
  } catch {
    return undefined;
  }
}

/** This process's mark, or undefined where /proc does not tell (not Linux). */
function ownMark(): ProcessMark | undefined {
  try {
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    const pidNamespace = /\[(\d+)\]/.exec(readlinkSync("/proc/self/ns/pid"))?.[1];
    const startTime = startTimeOf("self");
    if (boot === "" || pidNamespace === undefined || startTime === undefined) return undefined;
    return { boot, pidNamespace, startTime };
  } catch {
    return undefined;
  }
}

/**
 * An owner id that names the process for an operator (host, pid, a random part) and, where
 * /proc tells, its boot, PID namespace and start time: `host:pid:random:boot:namespace:start`.
 */
export function leaseOwnerId(): string {
  const named = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  const mark = ownMark();
  return mark === undefined
    ? named
    : `${named}:${mark.boot}:${mark.pidNamespace}:${mark.startTime}`;
}

/**
 * Whether `owner` (see {@link leaseOwnerId}) names a process that is certainly gone: on this
 * host, this boot and in this PID namespace, and its pid has no process now or one that
 * started at another time (the pid was reused, this very process included). Never for an owner
 * id without a mark, or one from anywhere else.
 */
export function isDeadHereOwner(owner: string): boolean {
  const [host, pidText, , boot, pidNamespace, startTime] = owner.split(":");
  const pid = Number(pidText);
  if (host !== hostname() || !Number.isInteger(pid) || pid <= 0) return false;
  const here = ownMark();
  if (here === undefined || boot !== here.boot || pidNamespace !== here.pidNamespace) {
    return false;
  }
  if (startTime === undefined || startTime === "") return false;
  const running = startTimeOf(pid);
  return running === undefined || running !== startTime;
}
