/**
 * What an operator's probes and Prometheus see of the built process: the health paths in both
 * modes, readiness going first at shutdown, and /metrics moving with real purchases through the
 * real bot and the sandbox, with no username, user id or secret in any label.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  DEMO_ADMIN,
  DEMO_USER,
  Person,
  secretsIn,
  spawnBot,
  starsSummary,
  startBot,
  startWorld,
  postUpdate,
  WEBHOOK_SECRET,
  webhookEnv,
} from "../helpers/built-process.js";

/** A start on a busy 2-core machine can take several seconds before the first log line. */
const START_MS = 30_000;
/** Above every wait in these tests, so a failing one says what it waited for, not "timed out". */
const TEST_MS = 60_000;

/** One sample of the Prometheus text format: name, labels, value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
const SAMPLE_LINE = new RegExp(
  `^(${NAME})(?:\\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\.)*",?)*)\\})? (\\S+)$`,
);

/**
 * A strict reading of the text exposition format (version 0.0.4): every line is a HELP or TYPE
 * comment or a sample with well-formed labels and a number; anything else fails the test.
 */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    if (new RegExp(`^# (HELP|TYPE) ${NAME} `).test(line)) continue;
    const match = SAMPLE_LINE.exec(line);
    if (match === null) throw new Error(`not Prometheus text: ${JSON.stringify(line)}`);
    const [, name = "", rawLabels = "", rawValue = ""] = match;
    const value = Number(rawValue.replace(/^\+Inf$/, "Infinity").replace(/^-Inf$/, "-Infinity"));
    if (Number.isNaN(value) && rawValue !== "NaN") throw new Error(`bad value in ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key = "", v = ""] of rawLabels.matchAll(
      /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g,
    )) {
      labels[key] = v;
    }
    samples.push({ name, labels, value });
  }
  return samples;
}

function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  return found.reduce((sum, s) => sum + s.value, 0);
}

/** Families declared by `# TYPE` lines, and the samples. */
async function scrape(base: string): Promise<Sample[] & { families: Set<string> }> {
  const response = await fetch(`${base}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await response.text();
  const families = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1] ?? ""));
  return Object.assign(parseExposition(text), { families });
}

describe("health and metrics of the bot process", { timeout: TEST_MS }, () => {
  it("polling mode with HEALTH_PORT: probes answer, and /metrics counts a delivered, a refused and an ambiguous purchase", async () => {
    const world = await startWorld();
    const bot = await startBot(world, { HEALTH_PORT: "0" });
    const serving = await bot.waitForLog(
      (line) => line.msg === "serving health and metrics",
      START_MS,
    );
    const base = String(serving.listening);

    const live = await fetch(`${base}/livez`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: "up", database: "up" });
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      ready: true,
      phase: "taking_updates",
      telegram: "reachable",
    });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);

    const uma = new Person(world.emulator, DEMO_USER.id);
    // Delivered.
    const first = await starsSummary(uma, "alice_friend");
    await uma.press(first, "✅ Confirm");
    await uma.waitForText(first.id, /Delivered/);
    // Refused by the service: nothing was spent. A price guard: a wallet or session refusal
    // would open the purchase breaker at once, and the next purchase would not be sent.
    world.sandbox.injectFault(
      { type: "status", status: 400, body: { ok: false, error: "PRICE_GUARD" } },
      { path: "/buy-stars/" },
    );
    const second = await starsSummary(uma, "bob_friend");
    await uma.press(second, "✅ Confirm");
    await uma.waitForText(second.id, /PRICE_GUARD|Not delivered|refused/i);
    // Ambiguous: the connection drops after the service acted.
    world.sandbox.injectFault({ type: "drop", executed: true }, { path: "/buy-stars/" });
    const third = await starsSummary(uma, "carol_friend");
    await uma.press(third, "✅ Confirm");
    await uma.waitForText(third.id, /outcome is unknown/);
    // The admin's alert has gone out (with its evidence reads), so the counters are settled.
    await new Person(world.emulator, DEMO_ADMIN.id).waitForMessage(/unknown outcome/);

    const samples = await scrape(base);
    const purchases = (outcome: string) =>
      valueOf(samples, "giftbot_purchases_total", { kind: "stars", outcome });
    expect(purchases("succeeded")).toBe(1);
    expect(purchases("rejected")).toBe(1);
    expect(purchases("unconfirmed")).toBe(1);
    expect(valueOf(samples, "giftbot_purchases_unconfirmed_open")).toBe(1);
    expect(valueOf(samples, "giftbot_purchases_paused", { reason: "unconfirmed" })).toBe(1);
    expect(valueOf(samples, "giftbot_purchases_paused", { reason: "admin" })).toBe(0);
    expect(valueOf(samples, "giftbot_purchases_paused", { reason: "breaker" })).toBe(0);
    const buys = (status: string) =>
      valueOf(samples, "giftbot_service_requests_total", { operation: "buy_stars", status });
    expect(buys("200")).toBe(1);
    expect(buys("400")).toBe(1);
    expect(buys("transport")).toBe(1);
    expect(
      valueOf(samples, "giftbot_service_request_duration_seconds_count", {
        operation: "buy_stars",
      }),
    ).toBe(3);
    expect(valueOf(samples, "giftbot_service_quota_limit")).toBe(30);
    // Exported for every priority, nothing queued long here (a 30-a-minute quota, 9 requests).
    for (const priority of ["purchase", "shared_read", "read", "bulk"]) {
      const waited = valueOf(samples, "giftbot_service_quota_wait_seconds_total", { priority });
      expect(waited).toBeGreaterThanOrEqual(0);
      expect(waited).toBeLessThan(1);
    }
    expect(valueOf(samples, "giftbot_updates_total", { result: "ok" })).toBeGreaterThanOrEqual(12);
    expect(valueOf(samples, "giftbot_update_duration_seconds_count")).toBeGreaterThanOrEqual(12);
    expect(valueOf(samples, "giftbot_wallet_balance", { currency: "ton" })).toBeGreaterThan(0);
    expect(valueOf(samples, "giftbot_telegram_reachable")).toBe(1);
    expect(samples.some((s) => s.name === "giftbot_process_resident_memory_bytes")).toBe(true);
    // The Grafana dashboard graphs only metrics the bot exports.
    const dashboard = readFileSync(
      new URL("../../deploy/grafana/giftbot.json", import.meta.url),
      "utf8",
    );
    for (const [name = ""] of dashboard.matchAll(/giftbot_[a-z_]+/g)) {
      expect(samples.families, name).toContain(name.replace(/_bucket$/, ""));
    }

    // No label value names a person, a recipient or a secret.
    const labelText = samples.flatMap((s) => Object.values(s.labels)).join("\n");
    for (const personal of ["alice_friend", "bob_friend", "carol_friend", "uma"]) {
      expect(labelText.toLowerCase()).not.toContain(personal);
    }
    for (const id of [DEMO_USER.id, DEMO_ADMIN.id]) {
      expect(labelText.split("\n")).not.toContain(String(id));
    }
    expect(secretsIn(labelText, bot.env)).toEqual([]);

    bot.child.kill("SIGTERM");
    expect(await bot.exited).toEqual({ code: 0, signal: null });
  });

  it("at shutdown readiness fails first, while liveness still holds", async () => {
    const world = await startWorld();
    const bot = await startBot(world, { HEALTH_PORT: "0", SHUTDOWN_GRACE_SECONDS: "10" });
    const base = String(
      (await bot.waitForLog((line) => line.msg === "serving health and metrics", START_MS))
        .listening,
    );
    const uma = new Person(world.emulator, DEMO_USER.id);
    // A purchase in flight holds the shutdown open for 3 s.
    world.sandbox.injectFault({ type: "delay", ms: 3_000 }, { path: "/buy-stars/" });
    const summary = await starsSummary(uma, "alice_friend");
    await uma.press(summary, "✅ Confirm");
    await world.sandbox.waitForRequests(1, "/buy-stars/");
    bot.child.kill("SIGTERM");
    await bot.waitForLog((line) => line.msg === "shutting down");
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ ready: false, phase: "stopping" });
    expect((await fetch(`${base}/livez`)).status).toBe(200);
    expect(await bot.exited).toEqual({ code: 0, signal: null });
  });

  it("webhook mode: the webhook server answers the probes; metrics stay off without HEALTH_PORT or METRICS_PORT", async () => {
    const world = await startWorld();
    const bot = spawnBot(await world.env(webhookEnv()));
    const base = String(
      (await bot.waitForLog((line) => line.msg === "taking updates by webhook", START_MS))
        .listening,
    );
    const live = await fetch(`${base}/livez`);
    expect(live.status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, phase: "taking_updates" });
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
    bot.child.kill("SIGTERM");
    expect(await bot.exited).toEqual({ code: 0, signal: null });
  });
});

describe("the bot process when Telegram cannot be reached", { timeout: TEST_MS }, () => {
  it("the API root on a closed port: a warning with the reason within seconds, not ready, still live, and SIGTERM stops it", async () => {
    const world = await startWorld();
    // The emulator's port, closed: nothing listens there any more.
    await world.emulator.close();
    const bot = spawnBot(await world.env({ HEALTH_PORT: "0" }));
    const base = String(
      (await bot.waitForLog((line) => line.msg === "serving health and metrics", START_MS))
        .listening,
    );
    const warning = await bot.waitForLog((line) => line.msg === "getMe failed; retrying", START_MS);
    expect(warning).toMatchObject({ level: 40, method: "getMe", reason: "refused" });
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({
      ready: false,
      phase: "starting",
      telegram: "unreachable",
    });
    expect((await fetch(`${base}/livez`)).status).toBe(200);
    bot.child.kill("SIGTERM");
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    expect(secretsIn(bot.output(), bot.env)).toEqual([]);
  });

  it("webhook mode: PORT answers /livez while Telegram is unreachable, and Telegram's POSTs get 503 until the bot has started", async () => {
    const world = await startWorld();
    await world.emulator.close();
    const bot = spawnBot(await world.env(webhookEnv()));
    const base = String(
      (
        await bot.waitForLog(
          (line) => line.msg === "webhook server listening; updates wait until started",
          START_MS,
        )
      ).listening,
    );
    await bot.waitForLog((line) => line.msg === "getMe failed; retrying", START_MS);
    expect((await fetch(`${base}/livez`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ ready: false, phase: "starting" });
    const update = await postUpdate(`${base}/telegram/hook`, { update_id: 1 }, WEBHOOK_SECRET);
    expect(update.status).toBe(503);
    bot.child.kill("SIGTERM");
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    expect(secretsIn(bot.output(), bot.env)).toEqual([]);
  });

  it("a 401 for the token at start: one line saying so, no stack trace, exit 1", async () => {
    const world = await startWorld();
    world.emulator.injectApiError("getMe", { errorCode: 401, description: "Unauthorized" });
    const bot = spawnBot(await world.env());
    expect(await bot.exited).toEqual({ code: 1, signal: null });
    const fatal = bot.logs.filter((line) => line.level === 60);
    expect(fatal).toHaveLength(1);
    expect(fatal[0]).toMatchObject({
      msg: "giftbot cannot start: Telegram rejected the bot token (401 Unauthorized): check BOT_TOKEN",
      cause: "unauthorized",
    });
    expect(bot.output()).not.toMatch(/\n\s+at /);
    expect(bot.output()).not.toContain('"stack"');
    expect(secretsIn(bot.output(), bot.env)).toEqual([]);
  });
});
