import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, watch } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { describe, expect, it, onTestFinished } from "vitest";
import { stopClusterIn } from "../../../tools/postgres/cluster.js";
import { processesOfRun, RUN_MARKER } from "../../helpers/leftovers.js";

/**
 * A process that starts a cluster marked as this run's (as the run's own cluster is), prints
 * where it is, and waits to be killed.
 */
const STARTER = `
const { startPostgresCluster } = await import(process.env.CLUSTER_MODULE);
const [name, value] = process.env.CLUSTER_MARKER.split("=");
const cluster = await startPostgresCluster(undefined, { environment: { [name]: value } });
console.log(JSON.stringify({ url: cluster.url, dir: cluster.dir }));
setInterval(() => undefined, 1 << 30);
`;

/** Resolves once `path` no longer exists, told by its folder's changes (no polling). */
async function gone(path: string): Promise<void> {
  const watcher = watch(dirname(path));
  try {
    const changed = once(watcher, "change");
    while (existsSync(path)) await Promise.race([changed, once(watcher, "change")]);
  } finally {
    watcher.close();
  }
}

/**
 * The server processes of the cluster in `dir` that the run's leftover check finds, as seen
 * from the vitest process (this worker's parent).
 */
function serverSeenByLeftoverCheck(marker: string, dir: string): number[] {
  return processesOfRun(marker, new Set(), process.ppid)
    .filter((p) => p.command.includes(`-D ${join(dir, "data")}`))
    .map((p) => p.pid);
}

describe("the tests' throwaway PostgreSQL cluster", () => {
  it("is stopped and removed when the process that started it is killed (no teardown ran)", async () => {
    const marker = `${RUN_MARKER}=${process.env[RUN_MARKER] ?? `cluster-test-${process.pid}`}`;
    const starter = spawn(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", STARTER],
      {
        env: {
          ...process.env,
          // The run's own TMPDIR is root's alone; the cluster's folder must be where the
          // postgres user can reach it, as the global setup's is (made before that TMPDIR).
          TMPDIR: dirname(tmpdir()),
          CLUSTER_MODULE: pathToFileURL(
            join(import.meta.dirname, "../../../tools/postgres/cluster.ts"),
          ).href,
          CLUSTER_MARKER: marker,
        },
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    const exited = once(starter, "exit");
    let dir: string | undefined;
    onTestFinished(async () => {
      if (starter.exitCode === null && starter.signalCode === null) {
        starter.kill("SIGKILL");
        await exited;
      }
      // Whatever the guard did, this test leaves no server behind.
      if (dir !== undefined) stopClusterIn(dir);
    });
    const [line] = (await Promise.race([
      once(createInterface({ input: starter.stdout }), "line"),
      exited.then(() => {
        throw new Error("the process died before its cluster started");
      }),
    ])) as [string];
    const started = JSON.parse(line) as { url: string; dir: string };
    dir = started.dir;
    const client = new pg.Client({ connectionString: started.url });
    client.on("error", () => undefined);
    await client.connect();
    expect((await client.query<{ one: number }>("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    // A server left running would fail the run (test/global-setup.ts).
    expect(serverSeenByLeftoverCheck(marker, dir)).toHaveLength(1);
    // The server's end shows as an error ("terminated unexpectedly"), then as the end.
    const disconnected = new Promise((resolve) => client.once("end", resolve));

    starter.kill("SIGKILL");
    await exited;

    await disconnected;
    await gone(dir);
    expect(existsSync(dir)).toBe(false);
    expect(serverSeenByLeftoverCheck(marker, dir)).toEqual([]);
  }, 30_000);
});
