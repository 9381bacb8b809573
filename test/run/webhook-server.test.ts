import { Bot } from "grammy";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/shared/logger.js";
import type { HealthReport } from "../../src/run/health.js";
import { startWebhookServer, type WebhookServer } from "../../src/run/webhook-server.js";
import { TEST_BOT_INFO } from "../../tools/testing/telegram-fake.js";

const update = (updateId: number, text: string) => ({
  update_id: updateId,
  message: {
    message_id: updateId,
    date: 1_700_000_000,
    chat: { id: 7, type: "private", first_name: "Ann" },
    from: { id: 7, is_bot: false, first_name: "Ann" },
    text,
  },
});

let server: WebhookServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(
  health: HealthReport,
  onText: (text: string) => Promise<void> | void,
  options: { takingUpdates?: boolean } = {},
) {
  const bot = new Bot("123:TEST", { botInfo: TEST_BOT_INFO });
  bot.on("message:text", (ctx) => onText(ctx.message.text));
  server = await startWebhookServer({
    bot,
    host: "127.0.0.1",
    port: 0,
    path: "/telegram",
    secretToken: "s3cret-token",
    health: () => Promise.resolve(health),
    logger: silentLogger,
    ...options,
  });
  return server;
}

const post = (url: string, body: unknown, secret?: string) =>
  fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(secret ? { "x-telegram-bot-api-secret-token": secret } : {}),
    },
    body: JSON.stringify(body),
  });

const up: HealthReport = {
  status: "up",
  database: "up",
  service: "unknown",
  serviceLastAnsweredAt: undefined,
};

describe("webhook server", () => {
  it("handles updates that carry the secret header and ignores the rest with 401", async () => {
    const seen: string[] = [];
    const { url } = await start(up, (text) => {
      seen.push(text);
    });

    const forged = await post(`${url}/telegram`, update(1, "forged"));
    expect(forged.status).toBe(401);
    const wrong = await post(`${url}/telegram`, update(2, "wrong"), "not-it");
    expect(wrong.status).toBe(401);
    const real = await post(`${url}/telegram`, update(3, "real"), "s3cret-token");
    expect(real.status).toBe(200);
    expect(seen).toEqual(["real"]);

    expect((await post(`${url}/elsewhere`, update(4, "x"), "s3cret-token")).status).toBe(404);
  });

  it("started before the bot may take updates: probes answer, Telegram's POSTs get 503 and are not handled until takeUpdates", async () => {
    const seen: string[] = [];
    const listening = await start(up, (text) => void seen.push(text), { takingUpdates: false });
    const { url } = listening;

    expect((await fetch(`${url}/livez`)).status).toBe(200);
    const early = await post(`${url}/telegram`, update(6, "too early"), "s3cret-token");
    expect(early.status).toBe(503);
    expect(early.headers.get("retry-after")).toBe("10");
    expect(listening.inFlight()).toBe(0);

    listening.takeUpdates();
    const resent = await post(`${url}/telegram`, update(6, "too early"), "s3cret-token");
    expect(resent.status).toBe(200);
    expect(seen).toEqual(["too early"]);
  });

  it("reports health as JSON, 503 when the database is down", async () => {
    const { url } = await start(up, () => {});
    const ok = await fetch(`${url}/healthz`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ status: "up", database: "up" });
    await server?.close();

    const down: HealthReport = { ...up, status: "down", database: "down" };
    const { url: url2 } = await start(down, () => {});
    const bad = await fetch(`${url2}/healthz`);
    expect(bad.status).toBe(503);
    expect(await bad.json()).toMatchObject({ status: "down", database: "down" });
  });

  it("waits for an update in flight before it finishes closing", async () => {
    let release!: () => void;
    let entered!: () => void;
    const handlerEntered = new Promise<void>((resolve) => (entered = resolve));
    let finished = false;
    const { url } = await start(up, async () => {
      entered();
      await new Promise<void>((resolve) => (release = resolve));
      finished = true;
    });

    const pending = post(`${url}/telegram`, update(5, "slow"), "s3cret-token");
    await handlerEntered;
    const current = server;
    server = undefined;
    const closing = current?.close().then(() => finished);
    expect(current?.inFlight()).toBe(1);
    release();
    expect(await closing).toBe(true);
    expect((await pending).status).toBe(200);
  });
});
