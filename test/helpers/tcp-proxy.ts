/**
 * A TCP relay between a bot process and its PostgreSQL server that a test can cut the way a
 * network partition does: from the cut on nothing passes either way and nothing is reset, so a
 * query in flight waits for an answer that never comes and a new connection is never answered.
 * Closed (every socket destroyed) when the test finishes.
 */
import { once } from "node:events";
import { connect, createServer, type Socket } from "node:net";
import { onTestFinished } from "vitest";

export interface TcpProxy {
  /** `url` with its host and port replaced by the relay's. */
  through(url: string): string;
  /** From now on nothing passes, either way, on old or new connections. */
  cut(): void;
}

/** Relays 127.0.0.1:<a free port> to the host and port of `url`. */
export async function startTcpProxy(url: string): Promise<TcpProxy> {
  const target = new URL(url);
  const sockets = new Set<Socket>();
  let cut = false;
  const keep = (socket: Socket): void => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    // A peer that resets is the relay's concern only: the other side just stops hearing.
    socket.on("error", () => undefined);
  };
  const server = createServer((client) => {
    keep(client);
    // Accepted and never answered: the connection attempt of a partitioned client hangs.
    if (cut) return;
    const upstream = connect(Number(target.port), target.hostname);
    keep(upstream);
    client.on("data", (chunk) => {
      if (!cut) upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      if (!cut) client.write(chunk);
    });
    client.on("end", () => {
      if (!cut) upstream.end();
    });
    upstream.on("end", () => {
      if (!cut) client.end();
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  onTestFinished(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return {
    through: (of) => {
      const relayed = new URL(of);
      relayed.hostname = "127.0.0.1";
      relayed.port = String(port);
      return relayed.toString();
    },
    cut: () => {
      cut = true;
    },
  };
}
