import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Bot } from "grammy";
import { afterEach, describe, expect, it } from "vitest";
import { connectToTelegram, TelegramTokenRejectedError } from "../../src/run/connect.js";
import { trackReadiness } from "../../src/run/readiness.js";
import { REPEAT_EVERY_MS, watchTelegram } from "../../src/run/telegram-watch.js";
import { capturingLogger } from "../helpers/log-capture.js";

const TOKEN = "123456:watch-test-token-value";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A port on 127.0.0.1 that nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A tiny Bot API that answers every method with `status` (and getMe with a bot when 200). */
async function botApi(status: () => number): Promise<string> {
  const server = createServer((request, response) => {
    const code = status();
    response.writeHead(code, { "content-type": "application/json" });
    response.end(
      JSON.stringify(
        code === 200
          ? { ok: true, result: { id: 1, is_bot: true, first_name: "Gift", username: "gift_bot" } }
          : { ok: false, error_code: code, description: code === 401 ? "Unauthorized" : "Error" },
      ),
    );
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("the Telegram watch", () => {
  it("a closed port: warns at once with the reason, then at most once a minute, then once on recovery", async () => {
    const { logger, records } = capturingLogger("debug");
    let now = 1_000_000;
    const watch = watchTelegram({ logger, now: () => now });
    const readiness = trackReadiness(() => watch.state());
    readiness.set("taking_updates");
    const down = new Bot(TOKEN, { client: { apiRoot: `http://127.0.0.1:${await closedPort()}` } });
    down.api.config.use(watch.transformer);

    await expect(down.api.getMe()).rejects.toThrow();
    const warnings = () => records().filter((l) => l.level === 40);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatchObject({
      msg: "getMe failed; retrying",
      method: "getMe",
      reason: "refused",
      explanation: "connection refused",
    });
    expect(readiness.report()).toMatchObject({ ready: false, telegram: "unreachable" });

    // Many failures within the minute: no new line.
    for (let i = 0; i < 5; i++) {
      now += 10_000;
      await expect(down.api.getMe()).rejects.toThrow();
    }
    expect(warnings()).toHaveLength(1);
    // A minute after the first line: one more, with how long it has lasted.
    now += REPEAT_EVERY_MS - 50_000;
    await expect(down.api.getMe()).rejects.toThrow();
    expect(warnings()).toHaveLength(2);
    expect(warnings()[1]).toMatchObject({
      msg: "getMe still failing; retrying",
      failures: 7,
      sinceMs: REPEAT_EVERY_MS,
    });
    now += 1000;
    await expect(down.api.getMe()).rejects.toThrow();
    expect(warnings()).toHaveLength(2);
    // No line holds the token.
    expect(JSON.stringify(records())).not.toContain("watch-test-token-value");

    // Telegram answers again: one info line, readiness back.
    const up = new Bot(TOKEN, { client: { apiRoot: await botApi(() => 200) } });
    up.api.config.use(watch.transformer);
    await up.api.getMe();
    await up.api.getMe();
    const recovered = records().filter((l) => l.msg === "Telegram reachable again");
    expect(recovered).toHaveLength(1);
    expect(recovered[0]).toMatchObject({ level: 30, failures: 8 });
    expect(readiness.report()).toEqual({
      ready: true,
      phase: "taking_updates",
      telegram: "reachable",
    });
  });

  it("start-up retries getMe while Telegram is unreachable and connects once it answers", async () => {
    const { logger, records } = capturingLogger("debug");
    let answer = 502;
    const watch = watchTelegram({ logger });
    const bot = new Bot(TOKEN, { client: { apiRoot: await botApi(() => answer) } });
    bot.api.config.use(watch.transformer);
    const connected = connectToTelegram(bot, new AbortController().signal);
    // The first failure is said at once; then Telegram recovers and the start goes on.
    await expect.poll(() => records().some((l) => l.msg === "getMe failed; retrying")).toBe(true);
    expect(records().find((l) => l.msg === "getMe failed; retrying")).toMatchObject({
      reason: "server_error",
    });
    answer = 200;
    await connected;
    expect(bot.botInfo.username).toBe("gift_bot");
    expect(watch.state()).toEqual({ reachable: true, cause: undefined });
  });

  it("start-up spaces its attempts by its own backoff (1 s first), not grammY's rapid ones", async () => {
    const asked: number[] = [];
    const bot = new Bot(TOKEN, {
      client: {
        apiRoot: await botApi(() => {
          asked.push(performance.now());
          return 502;
        }),
      },
    });
    const stop = new AbortController();
    const connecting = connectToTelegram(bot, stop.signal).catch((e: unknown) => e);
    await expect.poll(() => asked.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
    stop.abort();
    expect(await connecting).toBeInstanceOf(Error);
    // grammY's own init retried after a few milliseconds; a slower machine only widens the gap.
    expect((asked[1] ?? 0) - (asked[0] ?? 0)).toBeGreaterThanOrEqual(900);
  });

  it("a 401 at start ends the connection attempts with TelegramTokenRejectedError", async () => {
    const { logger } = capturingLogger("debug");
    const watch = watchTelegram({ logger });
    const bot = new Bot(TOKEN, { client: { apiRoot: await botApi(() => 401) } });
    bot.api.config.use(watch.transformer);
    const error = await connectToTelegram(bot, new AbortController().signal).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TelegramTokenRejectedError);
    expect((error as Error).message).toBe(
      "Telegram rejected the bot token (401 Unauthorized): check BOT_TOKEN",
    );
    expect(watch.state()).toEqual({ reachable: false, cause: "unauthorized" });
  });
});
