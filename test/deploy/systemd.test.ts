/**
 * deploy/giftbot.service, the unit for running the bot under systemd without containers. No
 * systemd runs as PID 1 here or in CI, so the unit is checked as far as this machine can: by
 * systemd's own `systemd-analyze` (when installed), against the bot's settings schema, and by
 * doing what systemd would do with it: start its `ExecStart` in its `WorkingDirectory` with its
 * environment (the unit's paths under a scratch folder, the emulator and the sandbox as the
 * peers), then run its `ExecReload` and send its `KillSignal`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { configFields, SECRET_VARIABLES } from "../../src/config/schema.js";
import { spawnBot, startWorld, WAIT_MS } from "../helpers/built-process.js";
import { tempDir } from "../helpers/temp-dir.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const UNIT_PATH = join(ROOT, "deploy/giftbot.service");
const unitText = readFileSync(UNIT_PATH, "utf8");

/** A unit file's sections, each a list of `key=value` settings in order (keys may repeat). */
function parseUnit(text: string): Record<string, [string, string][]> {
  const sections: Record<string, [string, string][]> = {};
  let current: [string, string][] | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) {
      current = sections[header[1] ?? ""] = [];
      continue;
    }
    const equals = line.indexOf("=");
    if (current === undefined || equals < 1) throw new Error(`not a unit line: ${line}`);
    current.push([line.slice(0, equals), line.slice(equals + 1)]);
  }
  return sections;
}

const unit = parseUnit(unitText);
const service = unit.Service ?? [];
/** The last value of `key` in [Service] (systemd's rule for single-valued settings). */
const setting = (key: string): string | undefined => service.findLast(([k]) => k === key)?.[1];
/** The unit's `Environment=` pairs. */
const environment: Record<string, string> = Object.fromEntries(
  service
    .filter(([key]) => key === "Environment")
    .map(([, value]) => {
      const equals = value.indexOf("=");
      return [value.slice(0, equals), value.slice(equals + 1)];
    }),
);
/** The unit's `NAME_FILE` settings: the secrets' files. */
const secretFiles = Object.fromEntries(
  Object.entries(environment).filter(([key]) => key !== "ENV_FILE" && key.endsWith("_FILE")),
);
const hasSystemdAnalyze = spawnSync("systemd-analyze", ["--version"]).status === 0;

/** The unit with ExecStart's node where this machine has it (systemd-analyze checks the path). */
function unitForThisMachine(): string {
  const [node = ""] = (setting("ExecStart") ?? "").split(" ");
  const dir = tempDir();
  const path = join(dir, "giftbot.service");
  writeFileSync(
    path,
    existsSync(node)
      ? unitText
      : unitText.replace(`ExecStart=${node} `, `ExecStart=${process.execPath} `),
  );
  return path;
}

describe("deploy/giftbot.service", () => {
  it("runs node on the built bot directly, reloads with SIGHUP to it, and stops it with SIGTERM within a grace above the bot's own", () => {
    const [node = "", ...args] = (setting("ExecStart") ?? "").split(" ");
    expect(node).toMatch(/^\/\S*\/node$/);
    // No npm and no shell in between: systemd's MAINPID is the bot itself.
    expect(args).toEqual(["dist/src/main.js"]);
    expect(existsSync(join(ROOT, "src/main.ts"))).toBe(true);
    expect(setting("WorkingDirectory")).toMatch(/^\/\S+$/);
    expect(setting("ExecReload")).toBe("/bin/kill -HUP $MAINPID");
    expect(setting("KillSignal") ?? "SIGTERM").toBe("SIGTERM");
    // SIGTERM to the main process only; the rest of the group is killed only at the timeout.
    expect(setting("KillMode")).toBe("mixed");
    const grace = Number(configFields.SHUTDOWN_GRACE_SECONDS.parse(undefined));
    expect(Number(setting("TimeoutStopSec"))).toBeGreaterThan(grace);
    expect(setting("Restart")).toBe("on-failure");
    expect(setting("RestartPreventExitStatus")?.split(" ")).toEqual(["3", "4"]);
    expect(unit.Install).toEqual([["WantedBy", "multi-user.target"]]);
  });

  it("reads settings from an EnvironmentFile and secrets from files, and names only settings the bot accepts", () => {
    expect(setting("EnvironmentFile")).toMatch(/^\/etc\/\S+$/);
    const fields = configFields as Record<string, { safeParse(v: unknown): { success: boolean } }>;
    for (const [key, value] of Object.entries(environment)) {
      if (key === "ENV_FILE") {
        expect(value).toBe("none");
        continue;
      }
      if (key.endsWith("_FILE")) {
        // A secret, as a path: never its value in the unit.
        expect(SECRET_VARIABLES as readonly string[]).toContain(key.slice(0, -"_FILE".length));
        expect(value, key).toMatch(/^\/etc\/\S+$/);
        continue;
      }
      expect(SECRET_VARIABLES as readonly string[], key).not.toContain(key);
      expect(fields[key]?.safeParse(value).success, key).toBe(true);
    }
    for (const required of ["BOT_TOKEN", "WALLET_MNEMONIC", "MARKETPLACE_COOKIE"]) {
      expect(Object.keys(environment)).toContain(`${required}_FILE`);
    }
    // ProtectSystem=strict leaves only the state directory writable: the ledger lives there.
    const state = `/var/lib/${setting("StateDirectory") ?? "(none)"}/`;
    expect(environment.DATABASE_PATH?.startsWith(state)).toBe(true);
    expect(environment.BACKUP_DIR?.startsWith(state)).toBe(true);
  });

  it("is hardened: no privileges, a read-only system, no home, private /tmp and devices, only the network families it needs", () => {
    const expected: Record<string, string> = {
      User: "giftbot",
      NoNewPrivileges: "yes",
      CapabilityBoundingSet: "",
      ProtectSystem: "strict",
      ProtectHome: "yes",
      PrivateTmp: "yes",
      PrivateDevices: "yes",
      ProtectKernelTunables: "yes",
      ProtectKernelModules: "yes",
      ProtectControlGroups: "yes",
      RestrictAddressFamilies: "AF_INET AF_INET6 AF_UNIX",
      RestrictNamespaces: "yes",
      RestrictSUIDSGID: "yes",
      SystemCallFilter: "@system-service",
      UMask: "0077",
    };
    for (const [key, value] of Object.entries(expected)) expect(setting(key), key).toBe(value);
    // V8 writes machine code as it runs: this one would stop node at its first function.
    expect(setting("MemoryDenyWriteExecute")).toBeUndefined();
  });

  it("is installed by docs/operations.md's block as it reads it: its user, checkout, settings file, secret files and name", () => {
    const docs = readFileSync(join(ROOT, "docs/operations.md"), "utf8");
    const blocks = [...docs.matchAll(/^```sh\n([\s\S]*?)^```$/gm)]
      .map((match) => match[1] ?? "")
      .filter((block) => /\bsystemctl\b/.test(block));
    expect(blocks).toHaveLength(1);
    const block = blocks[0] ?? "";
    const user = setting("User") ?? "";
    expect(block).toMatch(new RegExp(`^sudo useradd --system .* ${user}$`, "m"));
    expect(block).toContain(`sudo cp -r . ${setting("WorkingDirectory")} `);
    expect(block).toMatch(/sudo npm ci && sudo npm run build/);
    expect(block).toContain(
      `sudo install -m 600 deploy/bot.env.example ${setting("EnvironmentFile")}`,
    );
    for (const [key, path] of Object.entries(secretFiles)) {
      expect(block, key).toContain(`sudo tee ${path} >/dev/null`);
    }
    expect(block).toContain(`sudo chown ${user}:${setting("Group")} `);
    expect(block).toContain("sudo cp deploy/giftbot.service /etc/systemd/system/giftbot.service");
    const verbs = [...block.matchAll(/systemctl ([a-z-]+)(?: --now)?(?: (\S+))?/g)];
    expect(verbs.map((m) => m[1])).toEqual(["daemon-reload", "enable", "reload", "stop"]);
    for (const match of verbs.slice(1)) expect(match[2]).toBe("giftbot");
    expect(block).toContain("journalctl -u giftbot -f");
  });

  it.skipIf(!hasSystemdAnalyze)(
    "passes systemd-analyze verify without a complaint, and its security exposure is low",
    () => {
      const path = unitForThisMachine();
      const verify = spawnSync("systemd-analyze", ["verify", path], { encoding: "utf8" });
      expect(verify.stderr + verify.stdout).toBe("");
      expect(verify.status).toBe(0);
      const security = spawnSync("systemd-analyze", ["security", "--offline=yes", path], {
        encoding: "utf8",
      });
      const exposure = /Overall exposure level for \S+: ([\d.]+)/.exec(security.stdout)?.[1];
      expect(Number(exposure), security.stdout + security.stderr).toBeLessThan(3);
    },
  );

  it("started as systemd would start it: the bot runs with the unit's environment, ExecReload reloads it, KillSignal stops it gracefully", async () => {
    const world = await startWorld();
    const scratch = tempDir("giftbot-systemd-");
    /** The unit's absolute paths, under the scratch folder. */
    const place = (path: string): string => join(scratch, path);
    const peers = await world.env({ LOG_LEVEL: "debug" });

    // What the operator puts in place (docs/operations.md): the settings file and the secrets.
    const envFile = place(setting("EnvironmentFile") ?? "");
    mkdirSync(dirname(envFile), { recursive: true });
    const secrets = new Set<string>(SECRET_VARIABLES);
    const settings = Object.entries(peers).filter(
      ([key]) => !secrets.has(key) && key !== "DATABASE_PATH" && key !== "ENV_FILE",
    );
    writeFileSync(envFile, settings.map(([key, value]) => `${key}=${value}\n`).join(""));
    for (const [key, path] of Object.entries(secretFiles)) {
      const file = place(path);
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      writeFileSync(file, peers[key.slice(0, -"_FILE".length)] ?? "", { mode: 0o400 });
    }
    // systemd creates the state directory before the start.
    mkdirSync(place(`/var/lib/${setting("StateDirectory") ?? ""}`), {
      recursive: true,
      mode: 0o700,
    });

    // systemd's environment: EnvironmentFile= first, then Environment= (which wins).
    const fromFile = Object.fromEntries(
      readFileSync(envFile, "utf8")
        .split("\n")
        .filter((line) => line.includes("="))
        .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
    );
    const fromUnit = Object.fromEntries(
      Object.entries(environment).map(([key, value]) => [
        key,
        value.startsWith("/") ? place(value) : value,
      ]),
    );
    const [node = "", ...args] = (setting("ExecStart") ?? "").split(" ");
    // WorkingDirectory is this checkout (built by `npm test`'s pretest).
    const bot = spawnBot({ ...fromFile, ...fromUnit }, args, ROOT, {
      command: existsSync(node) ? node : process.execPath,
    });
    await bot.waitForLog((line) => line.msg === "taking updates by long polling", WAIT_MS);
    const pid = String(bot.child.pid);
    expect(statSync(fromUnit.DATABASE_PATH ?? "").isFile()).toBe(true);

    const [kill = "", ...reloadArgs] = (setting("ExecReload") ?? "").split(" ");
    const reload = spawnSync(
      kill,
      reloadArgs.map((arg) => arg.replace("$MAINPID", pid)),
      { encoding: "utf8" },
    );
    expect(reload.status, reload.stderr).toBe(0);
    await bot.waitForLog((line) => line.msg === "settings reloaded" && line.reason === "SIGHUP");

    bot.child.kill((setting("KillSignal") ?? "SIGTERM") as NodeJS.Signals);
    await bot.waitForLog((line) => line.msg === "stopped cleanly");
    expect(await bot.exited).toEqual({ code: 0, signal: null });
  });
});
