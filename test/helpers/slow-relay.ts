/**
 * A TCP relay on 127.0.0.1 between one bot process and the sandbox that holds each purchase
 * request the process writes for `latencyMs` before passing it on: the time between a purchase
 * leaving the process and the service acting on it (reads, on connections of their own, and
 * every answer pass at once, so an admin's look at the wallet meanwhile finds it unspent). It
 * also tells when a purchase request's first bytes leave the process (`onPurchaseWritten`), the
 * moment after which the request is out whatever becomes of the process.
 */
import { once } from "node:events";
import { connect, createServer, type Socket } from "node:net";

export interface SlowRelay {
  /** The sandbox's URL through the relay. */
  url: string;
  /** How long a purchase request takes to reach the sandbox from now on. */
  latencyMs: number;
  /** Told when the first bytes of a purchase request (POST /buy-…) leave the process. */
  onPurchaseWritten: (() => void) | undefined;
  close(): Promise<void>;
}

export async function startSlowRelay(targetUrl: string, latencyMs: number): Promise<SlowRelay> {
  const target = new URL(targetUrl);
  const sockets = new Set<Socket>();
  const keep = (socket: Socket): void => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  };
  const server = createServer((client) => {
    keep(client);
    const upstream = connect(Number(target.port), target.hostname);
    keep(upstream);
    // When the last chunk held is passed on: later chunks never overtake it.
    let due = 0;
    // Whether the request being written on this connection is a purchase (held).
    let purchase = false;
    const later = (work: () => void): void => {
      due = Math.max(Date.now() + (purchase ? relay.latencyMs : 0), due);
      setTimeout(work, due - Date.now());
    };
    client.on("data", (chunk: Buffer) => {
      // One request at a time on a connection (no pipelining): a chunk that opens with a
      // request line starts the next request.
      const start = /^[A-Z]+ \//.exec(chunk.subarray(0, 16).toString("latin1"));
      if (start !== null) {
        purchase = chunk.subarray(0, 10).toString("latin1").startsWith("POST /buy-");
        if (purchase) relay.onPurchaseWritten?.();
      }
      later(() => upstream.write(chunk));
    });
    client.on("end", () => later(() => upstream.end()));
    client.on("close", () => later(() => upstream.destroy()));
    upstream.on("data", (chunk: Buffer) => client.write(chunk));
    upstream.on("end", () => client.end());
    upstream.on("close", () => client.destroy());
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const url = new URL(targetUrl);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  const relay: SlowRelay = {
    url: url.toString().replace(/\/$/, ""),
    latencyMs,
    onPurchaseWritten: undefined,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return relay;
}
