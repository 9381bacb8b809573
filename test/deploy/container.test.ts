/**
 * What the image runs, checked without a container runtime (CI has none): the Dockerfile's
 * entry command and health check against the built process, with the environment the image
 * sets, and what the build context leaves out. The image itself was built and run with podman
 * on the development VM (README, Deploy).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { configFields } from "../../src/config/schema.js";
import { spawnBot, startWorld } from "../helpers/built-process.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8");
/** Continuation lines joined: one instruction per line. */
const instructions = dockerfile
  .replace(/\\\n/g, " ")
  .split("\n")
  .filter((line) => line.trim() !== "" && !line.trimStart().startsWith("#"));
const runtime = instructions.slice(instructions.findIndex((l) => / AS runtime$/.test(l)));

/** An exec-form command (`["node", ...]`) after `prefix` in the runtime stage. */
function execForm(prefix: RegExp): string[] {
  const line = runtime.find((l) => prefix.test(l));
  if (line === undefined) throw new Error(`no ${prefix} in the runtime stage`);
  return JSON.parse(line.slice(line.indexOf("["))) as string[];
}

/** The runtime stage's ENV pairs. */
function runtimeEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of runtime.filter((l) => l.startsWith("ENV "))) {
    for (const [, key = "", value = ""] of line.matchAll(/([A-Z_]+)=(\S+)/g)) env[key] = value;
  }
  return env;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

describe("the container image's commands", () => {
  it("the runtime stage runs node itself as PID 1, as the unprivileged node user, on a volume, Node 20", () => {
    expect(instructions[0]).toBe("ARG NODE_IMAGE=node:20-bookworm-slim");
    expect(instructions.filter((l) => l.startsWith("FROM "))).toEqual([
      "FROM ${NODE_IMAGE} AS build",
      "FROM ${NODE_IMAGE} AS runtime",
    ]);
    expect(execForm(/^CMD /)).toEqual(["node", "dist/src/main.js"]);
    expect(runtime).toContain("USER node");
    expect(runtime).toContain('VOLUME ["/app/data"]');
    expect(runtimeEnv()).toMatchObject({
      ENV_FILE: "none",
      HOST: "0.0.0.0",
      HEALTH_PORT: "8080",
      DATABASE_PATH: "/app/data/giftbot.sqlite",
    });
    // Only the compiled bot and production dependencies reach the runtime stage.
    expect(runtime.filter((l) => l.startsWith("COPY"))).toEqual([
      "COPY --from=build /app/package.json ./",
      "COPY --from=build /app/node_modules ./node_modules",
      "COPY --from=build /app/dist/src ./dist/src",
      "COPY locales ./locales",
    ]);
    const engines = (
      JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
        engines: { node: string };
      }
    ).engines.node;
    expect(engines).toBe(">=20.12");
  });

  it("compose.yaml uses the same health check, a named volume and file secrets", () => {
    const compose = readFileSync(join(ROOT, "compose.yaml"), "utf8");
    expect(compose).toContain(
      `test: ${JSON.stringify(["CMD", ...execForm(/^HEALTHCHECK /)]).replace(/,/g, ", ")}`,
    );
    expect(compose).toMatch(/^ {6}- giftbot-data:\/app\/data$/m);
    expect(compose).toMatch(/^ {6}BOT_TOKEN_FILE: \/run\/secrets\/bot_token$/m);
    expect(compose).toMatch(/^ {4}restart: unless-stopped$/m);
    expect(compose).not.toMatch(/BOT_TOKEN: |WALLET_MNEMONIC: |MARKETPLACE_COOKIE: /);
  });

  it("compose's stop grace covers the bot's shutdown grace, which covers the service's timeout", async () => {
    const compose = readFileSync(join(ROOT, "compose.yaml"), "utf8");
    const stopGrace = Number(/^ {4}stop_grace_period: (\d+)s$/m.exec(compose)?.[1]);
    const defaults = configFields;
    const shutdownGrace = await defaults.SHUTDOWN_GRACE_SECONDS.parseAsync(undefined);
    const serviceTimeoutMs = await defaults.SERVICE_TIMEOUT_MS.parseAsync(undefined);
    // The environment compose passes may raise them: it passes neither.
    expect(compose).not.toMatch(/^\s+-?\s*(SHUTDOWN_GRACE_SECONDS|SERVICE_TIMEOUT_MS)[:=]/m);
    expect(stopGrace).toBeGreaterThanOrEqual(shutdownGrace + 5);
    expect(shutdownGrace * 1000).toBeGreaterThanOrEqual(serviceTimeoutMs);
  });

  it(".dockerignore keeps settings, databases and the host's node_modules out of the image", () => {
    const ignored = readFileSync(join(ROOT, ".dockerignore"), "utf8")
      .split("\n")
      .filter((line) => line !== "" && !line.startsWith("#"));
    for (const entry of [
      "**/node_modules",
      "dist",
      "data",
      ".env",
      ".env.*",
      "secrets",
      "*.sqlite",
    ]) {
      expect(ignored).toContain(entry);
    }
  });

  it("the entry command starts the bot with the image's settings; the health check passes; SIGTERM stops it with 0", async () => {
    const world = await startWorld();
    const port = String(await freePort());
    // The image's environment, except HOST: tests bind 127.0.0.1 only.
    const env = await world.env({
      ...runtimeEnv(),
      HOST: "127.0.0.1",
      HEALTH_PORT: port,
      DATABASE_PATH: world.databasePath,
    });
    const [command, ...args] = execForm(/^CMD /);
    expect(command).toBe("node");
    const bot = spawnBot(env, args, ROOT);
    await bot.waitForLog((line) => line.msg === "taking updates by long polling", 30_000);
    const [probeCommand, ...probeArgs] = execForm(/^HEALTHCHECK /);
    expect(probeCommand).toBe("node");
    const probe = (path?: string) =>
      spawnSync(process.execPath, path ? [probeArgs[0] ?? "", path] : probeArgs, {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? "", HEALTH_PORT: port },
        encoding: "utf8",
      });
    expect(probe().status).toBe(0);
    expect(probe("/readyz").status).toBe(0);
    bot.child.kill("SIGTERM");
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    // Nothing answers any more: the health check fails, and says why.
    const after = probe();
    expect(after.status).toBe(1);
    expect(after.stderr).toMatch(/^\/livez: connect ECONNREFUSED/);
  });
});
