/**
 * Webhook mode: an HTTP server that hands Telegram's POSTs to grammY and answers the probes
 * (`/livez`, `/readyz`, `/healthz`, `/metrics`: see probes.ts).
 *
 * It can listen before the bot may take updates (`takingUpdates: false`): the app starts it
 * first, so the probes on PORT answer while Telegram is still being reached and an earlier
 * run's purchases recovered, and an orchestrator does not restart a bot that is only waiting
 * for Telegram. Until {@link WebhookServer.takeUpdates}, Telegram's POSTs get 503: Telegram
 * keeps an update it could not deliver and sends it again later, and no update is handled
 * before the recovery that must come first.
 *
 * grammY's own `webhookCallback` checks `X-Telegram-Bot-Api-Secret-Token` (401 without it), so
 * nobody who guesses the URL can feed the bot forged updates. The server counts the updates in
 * flight so a graceful shutdown can wait for a purchase that is being sent.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Bot, type Context, webhookCallback } from "grammy";
import type { Logger } from "../shared/logger.js";
import type { HealthReport } from "./health.js";
import { type ProbeHandler, probeHandler } from "./probes.js";

export interface WebhookServerOptions<C extends Context> {
  bot: Bot<C>;
  host: string;
  port: number;
  /** The path part of WEBHOOK_URL: Telegram posts there. */
  path: string;
  secretToken: string;
  health: () => Promise<HealthReport>;
  /** The probe paths (/livez, /readyz, /healthz, /metrics); default: those `health` answers. */
  probes?: ProbeHandler;
  /** False: updates are answered 503 until `takeUpdates()` (default: taken at once). */
  takingUpdates?: boolean;
  /**
   * Until `takeUpdates()`: what to do with Telegram's posts instead of 503 (a replica on standby
   * hands them to the lease holder, see replicas.ts). It may still answer 503 itself.
   */
  untilTaking?: (request: IncomingMessage, response: ServerResponse) => Promise<void>;
  logger: Logger;
}

export interface WebhookServer {
  server: Server;
  /** The address actually bound (the port is chosen by the system when 0 was asked). */
  url: string;
  /** Updates whose handling has not finished yet. */
  inFlight(): number;
  /** From now on, Telegram's POSTs are handed to the bot. */
  takeUpdates(): void;
  /** Stops accepting connections and resolves once the updates in flight have finished. */
  close(): Promise<void>;
}

export async function startWebhookServer<C extends Context>(
  options: WebhookServerOptions<C>,
): Promise<WebhookServer> {
  // Telegram waits about a minute before it resends an unanswered update; a purchase held by the
  // service's quota may take longer, so answer early ("return") and let the handler go on.
  const handleUpdate = webhookCallback(options.bot, "http", {
    secretToken: options.secretToken,
    onTimeout: "return",
    timeoutMilliseconds: 50_000,
  });
  let inFlight = 0;
  let takingUpdates = options.takingUpdates ?? true;
  let drained: (() => void) | undefined;
  const probes = options.probes ?? probeHandler({ health: options.health });

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (probes(request, response)) return;
    if (request.method !== "POST" || url.pathname !== options.path) {
      response.writeHead(404).end();
      return;
    }
    const untilTaking = options.untilTaking;
    if (!takingUpdates && untilTaking === undefined) {
      response.writeHead(503, { "Retry-After": "10" }).end();
      return;
    }
    inFlight++;
    const handle = takingUpdates || untilTaking === undefined ? handleUpdate : untilTaking;
    handle(request, response)
      .catch((error: unknown) => {
        // The logger's `err` serializer keeps name, message and stack only, tokens scrubbed.
        options.logger.error({ err: error }, "webhook update failed");
        if (!response.headersSent) response.writeHead(500);
        response.end();
      })
      .finally(() => {
        inFlight--;
        if (inFlight === 0) drained?.();
      });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;

  return {
    server,
    url: `http://${address.address}:${address.port}`,
    inFlight: () => inFlight,
    takeUpdates: () => {
      takingUpdates = true;
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
      // The connections that carried the last updates are idle only now.
      server.closeIdleConnections();
      await closed;
    },
  };
}
