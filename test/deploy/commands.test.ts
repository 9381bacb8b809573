/**
 * Every shell block the docs print for deploying, rotating a secret and restoring is run here,
 * as written, in a temporary folder laid out like a checkout. Docker (and its compose plugin)
 * cannot run on these machines, so `docker` is a stand-in that records each call; the test
 * then checks every recorded call against compose.yaml: a service it defines, the signal by
 * compose's own flag, container paths that compose mounts, a script the image has. Everything
 * else (mkdir, printf, chmod, chown, tee) runs for real, and `sudo` runs its command: that part
 * needs root (handing the secrets to uid 1000 and writing them again afterwards are what `sudo`
 * is for), so it is skipped, and says so, when the suite does not run as root.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  defaultServices,
  profileServices,
  secretFilesOf,
  volumeTargetsOf,
} from "../helpers/compose.js";
import { tempDir } from "../helpers/temp-dir.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The docs a person deploys from, in the order they read them. */
const DOCS = ["README.md", "docs/operations.md"].filter((doc) => existsSync(join(ROOT, doc)));

/**
 * The `sh` blocks of a Markdown file that drive the deployment: docker, sudo or secrets. The
 * systemd block installs into /etc and /opt and is test/deploy/systemd.test.ts's to check.
 */
function deployBlocks(doc: string): string[] {
  const text = readFileSync(join(ROOT, doc), "utf8");
  return [...text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)]
    .map((match) => match[1] ?? "")
    .filter((block) => /^(docker|sudo|printf|mkdir)\b/m.test(block))
    .filter((block) => !/\bsystemctl\b/.test(block));
}

/** What a plain `docker compose up` starts, and the `postgres` profile's services. */
const services = defaultServices();
const postgresProfile = profileServices("postgres");

/** The host files compose mounts as secrets, and the container folders its volumes mount. */
const secretFiles = secretFilesOf(services);
const mountTargets = volumeTargetsOf(services);

const isRoot = process.getuid?.() === 0;

/** A checkout as far as the blocks need one, with a stand-in for docker and a `sudo` for root. */
function workspace() {
  const dir = tempDir();
  mkdirSync(join(dir, "deploy"));
  copyFileSync(join(ROOT, "deploy/bot.env.example"), join(dir, "deploy/bot.env.example"));
  const bin = join(dir, ".bin");
  mkdirSync(bin);
  const log = join(dir, ".calls");
  writeFileSync(log, "");
  const recorder = (name: string) =>
    `#!/bin/sh\n{ printf '%s' ${name}; for a in "$@"; do printf '\\037%s' "$a"; done; echo; } >> '${log}'\n`;
  writeFileSync(join(bin, "docker"), recorder("docker"));
  writeFileSync(join(bin, "sudo"), '#!/bin/sh\nexec "$@"\n');
  for (const name of readdirSync(bin)) chmodSync(join(bin, name), 0o755);
  return {
    dir,
    run(block: string, env: Record<string, string> = {}) {
      const result = spawnSync("bash", ["-euo", "pipefail", "-c", block], {
        cwd: dir,
        env: { ...process.env, ...env, PATH: `${bin}:${process.env.PATH ?? ""}` },
        encoding: "utf8",
      });
      expect(result.stderr, block).toBe("");
      expect(result.status, block).toBe(0);
    },
    calls(): string[][] {
      return readFileSync(log, "utf8")
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => line.split("\u001f"));
    },
  };
}

/** Where compose's own variables go (the domain): never the bot's `.env`. */
const COMPOSE_ENV_FILE = "deploy/compose.env";

/** What a `docker compose ...` call must name to work with the shipped compose.yaml. */
function checkComposeCall(call: string[]): void {
  expect(call[1], call.join(" ")).toBe("compose");
  let [sub, ...rest] = call.slice(2);
  const global: Record<string, string | undefined> = {};
  while (sub === "--profile" || sub === "--env-file") {
    global[sub] = rest[0];
    [sub, ...rest] = rest.slice(1);
  }
  if (global["--env-file"] !== undefined) {
    expect(global["--env-file"], call.join(" ")).toBe(COMPOSE_ENV_FILE);
  }
  if (global["--profile"] !== undefined) {
    // Only the postgres profile, and only with its services named (see compose.yaml's top);
    // with compose's own variables (the domain the replicas and the proxy need).
    expect(global["--profile"], call.join(" ")).toBe("postgres");
    expect(global["--env-file"], call.join(" ")).toBe(COMPOSE_ENV_FILE);
    checkProfileCall(sub, rest, call);
    return;
  }
  const flagsWithValue = new Set(["-s", "--signal", "-t", "--timeout"]);
  const args: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] ?? "";
    if (flagsWithValue.has(arg)) i++;
    else if (!arg.startsWith("-")) args.push(arg);
  }
  switch (sub) {
    case "up":
    case "down":
    case "ps":
      expect(args, call.join(" ")).toEqual([]);
      return;
    case "logs":
    case "stop":
    case "start":
      expect(args, call.join(" ")).toEqual(["bot"]);
      expect(Object.keys(services)).toContain("bot");
      return;
    case "kill":
      expect(rest.slice(0, 2), call.join(" ")).toEqual(["-s", "HUP"]);
      expect(args).toEqual(["bot"]);
      return;
    case "run": {
      const [service = "", ...command] = args;
      expect(Object.keys(services)).toContain(service);
      expect(rest).toContain("--rm");
      for (const path of command.filter((arg) => arg.startsWith("/"))) {
        expect(
          mountTargets.some((target) => path === target || path.startsWith(`${target}/`)),
          `${path} is on a volume compose mounts`,
        ).toBe(true);
      }
      const script = command.find((arg) => arg.startsWith("dist/src/"));
      if (script !== undefined) {
        // The image holds dist/src, compiled from src/.
        expect(existsSync(join(ROOT, script.replace(/^dist\//, "").replace(/\.js$/, ".ts")))).toBe(
          true,
        );
      }
      return;
    }
    default:
      throw new Error(`a docker compose command the docs should not need: ${call.join(" ")}`);
  }
}

/** A `docker compose --profile postgres ...` call: `up` names every service of the profile. */
function checkProfileCall(sub: string | undefined, rest: string[], call: string[]): void {
  const named = rest.filter((arg) => !arg.startsWith("-"));
  for (const name of named) expect(Object.keys(postgresProfile), call.join(" ")).toContain(name);
  switch (sub) {
    case "up":
      expect(named, call.join(" ")).toEqual(Object.keys(postgresProfile));
      return;
    case "logs":
      expect(named.length, call.join(" ")).toBeGreaterThan(0);
      return;
    default:
      throw new Error(`a docker compose command the docs should not need: ${call.join(" ")}`);
  }
}

describe("the docs' deploy, rotation and restore commands, run against compose.yaml", () => {
  // The first deployment comes first, whatever page prints it; the others in reading order.
  const blocks = DOCS.flatMap((doc) => deployBlocks(doc).map((block) => ({ doc, block }))).sort(
    (a, b) => Number(/docker compose up/.test(b.block)) - Number(/docker compose up/.test(a.block)),
  );

  it("compose.yaml is what the commands assume: one service `bot` by default, no container_name, file secrets", () => {
    expect(Object.keys(services)).toEqual(["bot"]);
    expect(readFileSync(join(ROOT, "compose.yaml"), "utf8")).not.toMatch(/container_name/);
    expect(secretFiles).toEqual([
      "secrets/bot_token",
      "secrets/wallet_mnemonic",
      "secrets/marketplace_cookie",
    ]);
    expect(mountTargets).toEqual(["/app/data", "/app/data/backups"]);
  });

  it("the docs print a deploy block, a rotation block and a restore block", () => {
    expect(blocks.map(({ block }) => block).join("\n")).toMatch(/docker compose up/);
    expect(blocks.some(({ block }) => /docker compose kill -s HUP bot/.test(block))).toBe(true);
    expect(blocks.some(({ block }) => /restore\.js/.test(block))).toBe(true);
    // A container name compose never gives, and `mv` over a bind-mounted secret, are gone.
    for (const { doc, block } of blocks) {
      expect(block, doc).not.toMatch(/docker (kill|exec|stop|restart) /);
      expect(block, doc).not.toMatch(/\bmv\b/);
    }
    // Once handed to uid 1000 (mode 400), a secret file is written again only as root.
    for (const { doc, block } of blocks.slice(1)) {
      for (const line of block.split("\n").filter((l) => /secrets\//.test(l))) {
        expect(line, doc).toMatch(/\bsudo\b/);
      }
    }
  });

  it.skipIf(!isRoot)(
    "run in order (as root), they leave secrets compose can mount, rotate one in place, and name only what compose.yaml defines",
    () => {
      const ws = workspace();
      // The bot's own settings, as "Before you go live" has `npm start` read them: compose's
      // variables never go in this file.
      const botEnv = "BOT_TOKEN=7123456789:AAH4x0Ld-FAKE\nADMIN_IDS=415263748\n";
      writeFileSync(join(ws.dir, ".env"), botEnv);
      let inode = 0;
      let mounted = "";
      for (const { block } of blocks) {
        if (/marketplace_cookie/.test(block) && existsSync(join(ws.dir, "secrets"))) {
          // What the running container sees: compose bind-mounts the host file, one inode; a hard
          // link in another folder is the same arrangement without a mount.
          mounted = join(ws.dir, "mounted_cookie");
          linkSync(join(ws.dir, "secrets/marketplace_cookie"), mounted);
          inode = statSync(mounted).ino;
        }
        ws.run(block, { NEW_COOKIE: "stel_ssid=rotated-session" });
      }
      for (const file of secretFiles) {
        const path = join(ws.dir, file);
        expect(readFileSync(path, "utf8").length, file).toBeGreaterThan(0);
        expect(statSync(path).mode & 0o777, file).toBe(0o400);
        expect(statSync(path).uid, file).toBe(1000);
      }
      expect(statSync(join(ws.dir, "secrets")).mode & 0o777).toBe(0o700);
      // The postgres profile's: the database's password for the postgres image's user (999),
      // the URL holding the same password and the webhook's secret for the bot's (1000).
      const owners: Record<string, number> = {
        "secrets/postgres_password": 999,
        "secrets/database_url": 1000,
        "secrets/webhook_secret": 1000,
      };
      expect(secretFilesOf(postgresProfile).filter((file) => !secretFiles.includes(file))).toEqual(
        Object.keys(owners),
      );
      for (const [file, uid] of Object.entries(owners)) {
        const path = join(ws.dir, file);
        expect(statSync(path).mode & 0o777, file).toBe(0o400);
        expect(statSync(path).uid, file).toBe(uid);
      }
      const password = readFileSync(join(ws.dir, "secrets/postgres_password"), "utf8");
      expect(password).toMatch(/^[0-9a-f]{48}$/);
      expect(readFileSync(join(ws.dir, "secrets/database_url"), "utf8")).toBe(
        `postgres://giftbot:${password}@postgres:5432/giftbot`,
      );
      expect(readFileSync(join(ws.dir, "secrets/webhook_secret"), "utf8")).toMatch(
        /^[A-Za-z0-9_-]{1,256}$/,
      );
      expect(readFileSync(join(ws.dir, ".env"), "utf8")).toBe(botEnv);
      expect(readFileSync(join(ws.dir, COMPOSE_ENV_FILE), "utf8")).toMatch(/^WEBHOOK_DOMAIN=\S+$/m);
      expect(existsSync(join(ws.dir, "deploy/bot.env"))).toBe(true);
      // Rotated in place: the same inode, so the mounted file reads the new cookie.
      expect(statSync(join(ws.dir, "secrets/marketplace_cookie")).ino).toBe(inode);
      expect(readFileSync(mounted, "utf8")).toBe("stel_ssid=rotated-session");

      const docker = ws.calls().filter((c) => c[0] === "docker");
      expect(docker.length).toBeGreaterThanOrEqual(5);
      for (const call of docker) checkComposeCall(call);
    },
  );
});
