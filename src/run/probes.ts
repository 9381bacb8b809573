/**
 * The HTTP paths an orchestrator and Prometheus read, for the webhook server and for the health
 * server of polling mode alike:
 * - `GET /livez`: the process answers and its database works (200, else 503). Not Telegram or
 *   the service: restarting the bot would not mend those, so a liveness probe must not see them.
 * - `GET /readyz`: taking updates (200, else 503): see readiness.ts.
 * - `GET /healthz`: the combined report (database, service), as before.
 * - `GET /metrics`: Prometheus text, when metrics are on.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { HealthReport } from "./health.js";
import type { ReadinessReport } from "./readiness.js";

export interface ProbeSources {
  health: () => Promise<HealthReport>;
  readiness?: () => ReadinessReport;
  /** Resolves with the exposition text and its content type. */
  metrics?: () => Promise<{ contentType: string; body: string }>;
}

/** Answers a probe path; false when the request is not one (the caller answers it). */
export type ProbeHandler = (request: IncomingMessage, response: ServerResponse) => boolean;

export function probeHandler(sources: ProbeSources): ProbeHandler {
  return (request, response) => {
    if (request.method !== "GET") return false;
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    switch (path) {
      case "/livez": {
        void sources.health().then(({ database }) =>
          json(response, database === "up" ? 200 : 503, {
            status: database === "up" ? "up" : "down",
            database,
          }),
        );
        return true;
      }
      case "/readyz": {
        const report = sources.readiness?.() ?? {
          ready: true,
          phase: "taking_updates",
          telegram: "unknown",
        };
        json(response, report.ready ? 200 : 503, report);
        return true;
      }
      case "/healthz": {
        void sources
          .health()
          .then((report) => json(response, report.status === "down" ? 503 : 200, report));
        return true;
      }
      case "/metrics": {
        if (sources.metrics === undefined) return false;
        sources.metrics().then(
          ({ contentType, body }) => {
            response.writeHead(200, { "content-type": contentType });
            response.end(body);
          },
          () => response.writeHead(500).end(),
        );
        return true;
      }
      default:
        return false;
    }
  };
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  response.end(JSON.stringify(body));
}

export interface ProbeServer {
  /** The address actually bound (the port is the system's choice when 0 was asked). */
  url: string;
  close(): Promise<void>;
}

/** A server of its own for the probes (polling mode's HEALTH_PORT, or METRICS_PORT). */
export async function startProbeServer(options: {
  host: string;
  port: number;
  handle: ProbeHandler;
}): Promise<ProbeServer> {
  const server = createServer((request, response) => {
    if (!options.handle(request, response)) response.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
