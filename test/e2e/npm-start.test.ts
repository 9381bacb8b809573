/**
 * `npm start` as an operator runs it, under a supervisor or in a terminal: the real npm, its
 * `prestart`, and the built bot against the Telegram emulator and the sandbox. npm forwards
 * SIGINT and SIGTERM to its child only, and `sh -c` (dash) does not hand over to the command it
 * runs: the script must make the bot npm's child, or a stop meant for the bot ends npm and
 * leaves the bot running, orphaned. npm never forwards SIGHUP: that goes to the bot's own pid,
 * which is in every log line (docs/operations.md, "Rotating secrets without a restart").
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type BotProcess,
  spawnBot,
  startWorld,
  WAIT_MS,
  type World,
} from "../helpers/built-process.js";
import { childrenOf, descendantsOf } from "../helpers/leftovers.js";

const ROOT = resolve(import.meta.dirname, "../..");
const OPERATIONS = readFileSync(join(ROOT, "docs/operations.md"), "utf8");

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * `npm start` in the checkout, in a process group of its own (a terminal's job), once the bot
 * polls the emulator; with the bot's pid, found below npm whatever npm runs in between.
 */
async function npmStart(
  world: World,
  overrides: Record<string, string> = {},
): Promise<{ npm: BotProcess; botPid: number }> {
  const env = {
    ...(await world.env(overrides)),
    HOME: process.env.HOME ?? "",
    // npm would otherwise look for a newer npm on the registry now and then.
    npm_config_update_notifier: "false",
  };
  const npm = spawnBot(env, ["start"], ROOT, { command: "npm", detached: true });
  const polling = world.emulator.waitFor((e) => e.pollPending, { timeoutMs: WAIT_MS * 2 });
  const started = await Promise.race([polling.then(() => true), npm.exited.then(() => false)]);
  polling.catch(() => undefined);
  if (!started) throw new Error(`npm start exited at start:\n${npm.output()}`);
  const below = descendantsOf(npm.child.pid ?? 0);
  const bots = below.filter((p) => /^\S*node dist\/src\/main\.js$/.test(p.command));
  expect(bots, JSON.stringify(below)).toHaveLength(1);
  const botPid = bots[0]?.pid ?? 0;
  return { npm, botPid };
}

/** npm's own exit (not the pipe's close, which an orphaned bot would hold open). */
function npmExit(npm: BotProcess): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolve) => {
    if (npm.child.exitCode !== null || npm.child.signalCode !== null) {
      resolve({ code: npm.child.exitCode, signal: npm.child.signalCode });
      return;
    }
    npm.child.once("exit", (code, signal) => resolve({ code, signal }));
  });
}

describe("npm start", () => {
  it("runs the bot as npm's child: SIGHUP to it as the docs say reloads it, SIGTERM to npm's pid stops it gracefully, nothing is left running", async () => {
    const world = await startWorld();
    // A setting in the bot's own .env file, changed while it runs: the reload applies it.
    const envFile = join(world.dir, "bot.env");
    writeFileSync(envFile, "LOW_BALANCE_TON=1\n");
    const { npm, botPid } = await npmStart(world, { ENV_FILE: envFile });
    const npmPid = npm.child.pid ?? 0;
    expect(childrenOf(npmPid).map((p) => p.pid)).toEqual([botPid]);
    const started = await npm.waitForLog((line) => typeof line.pid === "number");
    expect(started.pid).toBe(botPid);

    writeFileSync(envFile, "LOW_BALANCE_TON=2\n");
    // The command docs/operations.md gives for `npm start`, as printed there.
    const command = /`(kill -HUP "\$\(pgrep -P <npm's pid>\)")`/.exec(OPERATIONS)?.[1];
    expect(command).toBeDefined();
    const hup = spawnSync("sh", ["-c", (command ?? "").replace("<npm's pid>", String(npmPid))], {
      encoding: "utf8",
    });
    expect(hup.status, hup.stderr).toBe(0);
    const reloaded = await npm.waitForLog(
      (line) => line.msg === "settings reloaded" && line.reason === "SIGHUP",
    );
    expect(reloaded.changed).toEqual(["LOW_BALANCE_TON"]);

    process.kill(npmPid, "SIGTERM");
    await npm.waitForLog((line) => line.msg === "shutting down" && line.signal === "SIGTERM");
    await npm.waitForLog((line) => line.msg === "stopped cleanly");
    expect(await npmExit(npm)).toEqual({ code: 0, signal: null });
    await npm.exited;
    expect(alive(botPid)).toBe(false);
    expect(descendantsOf(npmPid)).toEqual([]);
  });

  it("Ctrl-C in its terminal (SIGINT to the whole job: npm forwards it, the bot gets it too) is one graceful stop", async () => {
    const world = await startWorld();
    const { npm, botPid } = await npmStart(world);
    const npmPid = npm.child.pid ?? 0;

    process.kill(-npmPid, "SIGINT");
    await npm.waitForLog((line) => line.msg === "stopped cleanly");
    expect(await npmExit(npm)).toEqual({ code: 0, signal: null });
    await npm.exited;
    expect(npm.logs.filter((line) => line.msg === "shutting down")).toHaveLength(1);
    expect(npm.logs.filter((line) => line.msg === "second signal: exiting now")).toEqual([]);
    expect(alive(botPid)).toBe(false);
  });
});
