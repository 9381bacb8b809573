import { join } from "node:path";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { healthReport, monitorService } from "../../src/run/health.js";
import { probeHandler, type ProbeServer, startProbeServer } from "../../src/run/probes.js";
import { trackReadiness } from "../../src/run/readiness.js";
import type { TelegramState } from "../../src/run/telegram-watch.js";
import type { GiftServiceClient } from "../../src/service/types.js";
import { openSqliteStorage } from "../../src/storage/sqlite/open.js";
import { tempDir } from "../helpers/temp-dir.js";

let server: ProbeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The probes over a real SQLite file, as the app builds them. */
async function probesOver(telegram: TelegramState) {
  const db = await openSqliteStorage(join(tempDir(), "probe.sqlite"));
  // Closed before its folder is removed (hooks run last registered, first).
  onTestFinished(() => db.close());
  // The client is never called: health is judged from calls the bot makes anyway.
  const service = monitorService({} as GiftServiceClient);
  const health = () => healthReport(() => db.isUp(), service);
  const readiness = trackReadiness(() => telegram);
  server = await startProbeServer({
    host: "127.0.0.1",
    port: 0,
    handle: probeHandler({
      health,
      readiness: () => readiness.report(),
      metrics: () => Promise.resolve({ contentType: "text/plain; version=0.0.4", body: "up 1\n" }),
    }),
  });
  return { db, readiness, url: server.url };
}

describe("the probe server", () => {
  it("liveness follows the database: 200 while it answers, 503 once it is closed", async () => {
    const { db, url } = await probesOver({ reachable: true, cause: undefined });
    const live = await fetch(`${url}/livez`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: "up", database: "up" });
    await db.close();
    const dead = await fetch(`${url}/livez`);
    expect(dead.status).toBe(503);
    expect(await dead.json()).toEqual({ status: "down", database: "down" });
    expect((await fetch(`${url}/healthz`)).status).toBe(503);
  });

  it("readiness: not while starting, yes while taking updates, never again once stopping", async () => {
    const { readiness, url } = await probesOver({ reachable: true, cause: undefined });
    expect((await fetch(`${url}/readyz`)).status).toBe(503);
    readiness.set("taking_updates");
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    readiness.set("stopping");
    readiness.set("taking_updates");
    const stopping = await fetch(`${url}/readyz`);
    expect(stopping.status).toBe(503);
    expect(await stopping.json()).toEqual({
      ready: false,
      phase: "stopping",
      telegram: "reachable",
    });
    // Liveness is not readiness: the process still works while it stops.
    expect((await fetch(`${url}/livez`)).status).toBe(200);
  });

  it("readiness is false while Telegram cannot be reached", async () => {
    const { readiness, url } = await probesOver({ reachable: false, cause: "refused" });
    readiness.set("taking_updates");
    const answer = await fetch(`${url}/readyz`);
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual({
      ready: false,
      phase: "taking_updates",
      telegram: "unreachable",
    });
  });

  it("serves /metrics when given, 404 for anything else", async () => {
    const { url } = await probesOver({ reachable: undefined, cause: undefined });
    const metrics = await fetch(`${url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toBe("up 1\n");
    expect((await fetch(`${url}/`)).status).toBe(404);
    expect((await fetch(`${url}/livez`, { method: "POST" })).status).toBe(404);
  });
});
