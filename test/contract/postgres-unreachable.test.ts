/**
 * A database that stops answering without closing anything (a host gone, a network
 * partition: no reset, only silence). Opening must fail in bounded time, with an error worth
 * trying again (the process is restarted, or retries), and the health check must say "down"
 * in bounded time instead of hanging every /healthz request with it.
 */
import { once } from "node:events";
import { connect, createServer, type Socket } from "node:net";
import { describe, expect, it, onTestFinished } from "vitest";
import { isTransientPostgresError } from "../../src/storage/postgres/connection.js";
import { openPostgresStorage } from "../../src/storage/postgres/open.js";
import type { Storage } from "../../src/storage/types.js";
import { freshPostgresDatabase } from "../helpers/postgres.js";

/** A TCP proxy to the database that can fall silent: it then forwards nothing, closes nothing. */
async function silenceableProxy(
  target: URL,
  options: { silent: boolean },
): Promise<{ url: string; silence: () => void; cutAll: () => void }> {
  let silent = options.silent;
  const open = new Set<Socket>();
  const server = createServer((client) => {
    open.add(client);
    client.on("error", () => undefined).on("close", () => open.delete(client));
    if (silent) return;
    const database = connect(Number(target.port), target.hostname);
    open.add(database);
    database.on("error", () => undefined).on("close", () => open.delete(database));
    client.on("data", (chunk: Buffer) => void (silent || database.write(chunk)));
    database.on("data", (chunk: Buffer) => void (silent || client.write(chunk)));
    client.on("close", () => database.destroy());
    database.on("close", () => client.destroy());
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const cutAll = (): void => open.forEach((socket) => socket.destroy());
  onTestFinished(() => {
    cutAll();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const address = server.address();
  const url = new URL(target);
  url.port = String(typeof address === "object" && address !== null ? address.port : 0);
  return { url: url.toString(), silence: () => (silent = true), cutAll };
}

describe("PostgreSQL: a database that falls silent", () => {
  it("opening fails in bounded time, as an error worth trying again", async () => {
    const url = await freshPostgresDatabase();
    const proxy = await silenceableProxy(new URL(url), { silent: true });

    const failure = await openPostgresStorage(proxy.url, { connectTimeoutMs: 300 }).then(
      (storage) => storage.close(),
      (error: unknown) => error,
    );

    expect(failure).toBeInstanceOf(Error);
    expect(isTransientPostgresError(failure)).toBe(true);
  });

  it("the health check says down in bounded time", async () => {
    const url = await freshPostgresDatabase();
    const proxy = await silenceableProxy(new URL(url), { silent: false });
    const storage: Storage = await openPostgresStorage(proxy.url, {
      maxConnections: 2,
      // Long enough for a busy machine's answer, short for a test.
      isUpTimeoutMs: 1_000,
    });
    onTestFinished(async () => {
      // The silent connections' queries end with their sockets; then the pool can close.
      proxy.cutAll();
      await storage.close();
    });
    expect(await storage.isUp()).toBe(true);

    proxy.silence();

    expect(await storage.isUp()).toBe(false);
  });
});
