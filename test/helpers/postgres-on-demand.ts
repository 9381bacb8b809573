/**
 * The run's PostgreSQL cluster, started when a test first asks for it and not before: a run
 * without PostgreSQL tests (most runs of a few files) neither waits for initdb nor needs
 * PostgreSQL installed. The global setup serves the cluster's URL over HTTP on 127.0.0.1 to the
 * test workers (separate processes); the first request starts the cluster, the others wait for
 * the same one. A cluster that cannot start fails every test that asked, with the reason
 * (PostgreSQL missing included): never a skip.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import { type PostgresCluster, startPostgresCluster } from "../../tools/postgres/cluster.js";
import { RUN_MARKER } from "./leftovers.js";

/** The variable through which the global setup tells the workers where to ask. */
export const POSTGRES_ON_DEMAND_VARIABLE = "GIFTBOT_TEST_POSTGRES_ON_DEMAND";

export interface PostgresOnDemand {
  /** Where the workers ask (an http://127.0.0.1 URL). */
  url: string;
  /** Stops the cluster if one was started, and stops answering. */
  stop(): Promise<void>;
}

/** Serves the cluster's URL, starting it (under `parent`) at the first request. */
export async function servePostgresOnDemand(parent: string): Promise<PostgresOnDemand> {
  let cluster: Promise<PostgresCluster> | undefined;
  const server: Server = createServer((_request, response) => {
    // Marked as the run's (set by then), so a server left running fails the run's check.
    cluster ??= startPostgresCluster(parent, {
      environment: { [RUN_MARKER]: process.env[RUN_MARKER] ?? "" },
    });
    cluster.then(
      (started) => response.writeHead(200).end(started.url),
      (error: unknown) =>
        response.writeHead(500).end(error instanceof Error ? error.message : String(error)),
    );
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      const started = await cluster?.catch(() => undefined);
      started?.stop();
    },
  };
}

let clusterUrl: Promise<string> | undefined;

/** The run's cluster's superuser URL (to its `postgres` database), started if need be. */
export function postgresClusterUrl(): Promise<string> {
  clusterUrl ??= (async () => {
    const onDemand = process.env[POSTGRES_ON_DEMAND_VARIABLE];
    if (onDemand === undefined) {
      throw new Error("no PostgreSQL for this run: test/global-setup.ts serves it");
    }
    const response = await fetch(onDemand);
    const text = await response.text();
    if (!response.ok) throw new Error(`the test run's PostgreSQL did not start: ${text}`);
    return text;
  })();
  return clusterUrl;
}
