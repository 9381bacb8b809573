/**
 * The relay of a replica on standby (src/run/replicas.ts), through real HTTP on 127.0.0.1: the
 * standby's own webhook server (before it takes updates, as the app starts it) in front, a
 * holder's webhook server played by a plain HTTP server behind, and Telegram (or the proxy)
 * played by one keep-alive connection, as a proxy keeps its connections to the replicas open.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { Bot } from "grammy";
import { Client } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { updateForwarder } from "../../src/run/replicas.js";
import { startWebhookServer, type WebhookServer } from "../../src/run/webhook-server.js";
import { TEST_BOT_INFO } from "../../tools/testing/telegram-fake.js";
import { capturingLogger } from "../helpers/log-capture.js";

const PATH = "/telegram/hook";
const SECRET = "relay-test-secret_42";
/** The largest body the standby relays (src/run/replicas.ts). */
const MAX_UPDATE_BYTES = 1_000_000;

interface Received {
  url: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
}

/** An HTTP server on 127.0.0.1 that records each request and answers as `answer` says. */
async function recordingServer(
  answer: (request: Received) => { status: number; headers?: Record<string, string> },
): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const seen = {
        url: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks),
      };
      received.push(seen);
      const { status, headers } = answer(seen);
      response.writeHead(status, headers).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  cleanups.push(() => Promise.resolve(server.closeAllConnections()));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, received, server };
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A standby's webhook server relaying to `holderUrl` (undefined: nobody holds the lease). */
async function standbyRelayingTo(holderUrl: string | undefined) {
  const logs = capturingLogger();
  const server: WebhookServer = await startWebhookServer({
    bot: new Bot("123:TEST", { botInfo: TEST_BOT_INFO }),
    host: "127.0.0.1",
    port: 0,
    path: PATH,
    secretToken: SECRET,
    health: () => Promise.reject(new Error("not asked")),
    takingUpdates: false,
    untilTaking: updateForwarder({
      directory: { holderUrl: () => Promise.resolve(holderUrl) },
      self: "standby",
      path: PATH,
      secretToken: SECRET,
      logger: logs.logger,
    }),
    logger: logs.logger,
  });
  // One connection, kept alive between posts, as a proxy in front of the replicas keeps it.
  const telegram = new Client(server.url, { pipelining: 1 });
  cleanups.push(() => server.close());
  cleanups.push(() => telegram.destroy());
  const post = async (
    body: Buffer | Readable,
    headers: Record<string, string> = {},
  ): Promise<number> => {
    const answer = await telegram.request({
      method: "POST",
      path: PATH,
      headers: {
        "content-type": "application/json",
        "x-telegram-bot-api-secret-token": SECRET,
        ...headers,
      },
      body,
    });
    await answer.body.dump();
    return answer.statusCode;
  };
  return { post, logs };
}

const update = (id: number): Buffer =>
  Buffer.from(JSON.stringify({ update_id: id, message: { message_id: id, text: "/start" } }));

/** A JSON body of exactly `size` bytes (the shape does not matter to the relay). */
const bodyOf = (size: number): Buffer =>
  Buffer.concat([Buffer.from('{"pad":"'), Buffer.alloc(size - 10, "a"), Buffer.from('"}')]);

describe("a replica on standby relaying Telegram's posts to the lease holder", () => {
  it("relays an update to the holder's webhook path with the secret, and gives back its answer", async () => {
    const holder = await recordingServer(() => ({ status: 200 }));
    const standby = await standbyRelayingTo(holder.url);
    expect(await standby.post(update(1))).toBe(200);
    expect(holder.received).toHaveLength(1);
    expect(holder.received[0]?.url).toBe(PATH);
    expect(holder.received[0]?.headers["x-telegram-bot-api-secret-token"]).toBe(SECRET);
    expect(holder.received[0]?.body.equals(update(1))).toBe(true);
  });

  it("never follows a redirect: the holder's 3xx is answered 503 and nothing reaches its Location", async () => {
    const elsewhere = await recordingServer(() => ({ status: 200 }));
    for (const status of [301, 302, 303, 307, 308]) {
      const holder = await recordingServer(() => ({
        status,
        headers: { location: `${elsewhere.url}/collect` },
      }));
      const standby = await standbyRelayingTo(holder.url);
      expect(await standby.post(update(status))).toBe(503);
      expect(holder.received).toHaveLength(1);
    }
    expect(elsewhere.received).toEqual([]);
  });

  it("treats a holder address with credentials as unreachable (503) and never logs the password", async () => {
    const holder = await recordingServer(() => ({ status: 200 }));
    const withCredentials = holder.url.replace("http://", "http://relay:hunter2-pa55@");
    const standby = await standbyRelayingTo(withCredentials);
    expect(await standby.post(update(1))).toBe(503);
    expect(holder.received).toEqual([]);
    const logged = standby.logs.lines.join("");
    expect(logged).toContain("could not hand an update to the lease holder");
    expect(logged).not.toContain("hunter2-pa55");
  });

  it("relays a body of the largest size, answers 413 one byte over, and the next post on the same connection is relayed", async () => {
    const holder = await recordingServer(() => ({ status: 200 }));
    const standby = await standbyRelayingTo(holder.url);
    const largest = bodyOf(MAX_UPDATE_BYTES);
    expect(await standby.post(largest)).toBe(200);
    expect(holder.received[0]?.body.equals(largest)).toBe(true);

    expect(await standby.post(bodyOf(MAX_UPDATE_BYTES + 1))).toBe(413);
    expect(await standby.post(update(2))).toBe(200);
    // Chunked, so the size is learnt only by reading (no Content-Length to refuse it by).
    const chunked = Readable.from(Array.from({ length: 30 }, () => bodyOf(MAX_UPDATE_BYTES / 10)));
    expect(await standby.post(chunked)).toBe(413);
    expect(await standby.post(update(3))).toBe(200);
    expect(holder.received.map((seen) => seen.body.length)).toEqual([
      MAX_UPDATE_BYTES,
      update(2).length,
      update(3).length,
    ]);
  });

  it("answers 401, 503 and a relayed post's 503 before reading the body, and the next post on the connection still goes through", async () => {
    const holder = await recordingServer(() => ({ status: 200 }));
    const standby = await standbyRelayingTo(holder.url);
    const large = bodyOf(MAX_UPDATE_BYTES / 2);
    expect(await standby.post(large, { "x-telegram-bot-api-secret-token": "wrong" })).toBe(401);
    expect(await standby.post(update(1))).toBe(200);
    expect(await standby.post(large, { "x-giftbot-forwarded": "1" })).toBe(503);
    expect(await standby.post(update(2))).toBe(200);
    expect(holder.received).toHaveLength(2);

    const alone = await standbyRelayingTo(undefined);
    expect(await alone.post(large)).toBe(503);
    expect(await alone.post(update(3))).toBe(503);
  });
});
