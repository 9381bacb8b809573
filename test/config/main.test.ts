import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { copyFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { mnemonicNew } from "@ton/crypto";
import { describe, expect, it, onTestFinished } from "vitest";
import { startTelegramEmulator } from "../../tools/telegram-emulator/server.js";
import { tempDir } from "../helpers/temp-dir.js";

const ROOT = resolve(import.meta.dirname, "../..");
/**
 * tsx as node's loader, by absolute URL because the child runs in a temp folder. Not the `tsx`
 * command: it is a wrapper around a second node process, which a kill would leave running.
 */
const TSX_LOADER = pathToFileURL(join(ROOT, "node_modules/tsx/dist/loader.mjs")).href;
const MAIN = join(ROOT, "src/main.ts");

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs src/main.ts with exactly `env` (plus PATH), in `cwd`, so no stray .env is read. */
function runMain(env: Record<string, string>, cwd: string): Promise<Run> {
  return startMain(env, cwd).done;
}

/** Like runMain, with the child process at hand (to signal it). */
function startMain(
  env: Record<string, string>,
  cwd: string,
): { child: ChildProcess; done: Promise<Run> } {
  const child = spawn(process.execPath, ["--import", TSX_LOADER, MAIN], {
    cwd,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const done = new Promise<Run>((resolvePromise, reject) => {
    onTestFinished(async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGKILL");
        await once(child, "close");
      }
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolvePromise({ code, stdout, stderr }));
  });
  return { child, done };
}

/**
 * Any two consecutive words of the phrase. Single words cannot be checked: the word list is
 * plain English ("list", "only", "must"), and messages legitimately use such words.
 */
function phrasePairs(phrase: string[]): string[] {
  return phrase.slice(1).map((word, index) => `${phrase[index]} ${word}`);
}

describe("src/main.ts", () => {
  it("with no configuration exits 1 with the list, no stack trace", async () => {
    const run = await runMain({}, tempDir());
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      [
        "giftbot cannot start:",
        "- .env: not found here: copy .env.example to .env and fill in the real values",
        "- BOT_TOKEN: is required: the bot's token from @BotFather (digits:characters)",
        "- GIFT_API_BASE_URL: is required: the Gift Purchase Service's base URL",
        "- WALLET_MNEMONIC: is required: the paying wallet's 12, 18 or 24 words, separated by spaces",
        "- MARKETPLACE_COOKIE: is required: the whole marketplace Cookie header, containing stel_ssid=...",
        "- ADMIN_IDS: is required: comma-separated Telegram user ids of the bot's admins",
        "",
      ].join("\n"),
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).toBe("");
  });

  it("reads .env from its directory, logs non-secret facts, starts, and stops on SIGTERM", async () => {
    const dir = tempDir();
    const words = await mnemonicNew(24);
    const secrets = {
      BOT_TOKEN: "424242:CANARYtokenQQ",
      MARKETPLACE_COOKIE: "stel_ssid=CANARYcookieQQ",
      PROVIDER_API_KEY: "CANARYkeyQQ",
      UPSTREAM_PROXY: "http://user:CANARYproxyQQ@proxy:1",
    };
    // The bot now really starts: it needs a Telegram to talk to (the local emulator).
    const telegram = await startTelegramEmulator({ token: secrets.BOT_TOKEN });
    onTestFinished(() => telegram.close());
    writeFileSync(
      join(dir, ".env"),
      `${Object.entries(secrets)
        .map(([name, value]) => `${name}=${value}`)
        .join("\n")}\nWALLET_MNEMONIC="${words.join(" ")}"\n`,
    );
    const running = startMain(
      {
        GIFT_API_BASE_URL: "http://127.0.0.1:1",
        TELEGRAM_API_ROOT: telegram.apiRoot,
        ADMIN_IDS: "5",
        WALLET_VERSION: "v4r2",
      },
      dir,
    );
    await telegram.waitFor((t) => t.pollPending, { timeoutMs: 15_000 });
    running.child.kill("SIGTERM");
    const run = await running.done;
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({
      msg: "giftbot starting",
      mode: "polling",
      walletVersion: "v4r2",
      walletAddressSource: "derived",
    });
    expect(lines[0]?.walletAddress).toMatch(/^UQ/);
    expect(lines.map((line) => line.msg)).toContain("stopped cleanly");
    expect(run.stdout).not.toMatch(/CANARY/);
    for (const pair of phrasePairs(words)) expect(run.stdout).not.toContain(pair);
  });

  it("on a .env copied from .env.example and not filled in, says to edit .env, line by line", async () => {
    const dir = tempDir();
    copyFileSync(join(ROOT, ".env.example"), join(dir, ".env"));
    const run = await runMain({}, dir);
    expect(run.code).toBe(1);
    const way = "is still the placeholder of .env.example: edit .env and put in the real value";
    expect(run.stderr).toBe(
      [
        "giftbot cannot start:",
        `- BOT_TOKEN: ${way}`,
        `- GIFT_API_BASE_URL: ${way}`,
        '- WALLET_MNEMONIC: is commented out in .env: edit .env, remove the "#" and put in the real value',
        `- MARKETPLACE_COOKIE: ${way}`,
        `- ADMIN_IDS: ${way}`,
        "",
      ].join("\n"),
    );
    expect(run.stderr).not.toContain("copy .env.example");
    expect(run.stdout).toBe("");
  });

  it("names the file ENV_FILE points at, and the environment for a placeholder set there", async () => {
    const example = join(ROOT, ".env.example");
    const run = await runMain({ ENV_FILE: example, ADMIN_IDS: "123456789" }, tempDir());
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `- BOT_TOKEN: is still the placeholder of .env.example: edit ${example} and put in the real value`,
    );
    expect(run.stderr).toContain(
      "- ADMIN_IDS: is still the placeholder of .env.example: set the real value in the environment",
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it("skips .env with ENV_FILE=none", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, ".env"), "BOT_TOKEN=1:fromfile\n");
    const run = await runMain({ ENV_FILE: "none" }, dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("- BOT_TOKEN: is required");
  });
});
