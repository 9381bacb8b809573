import { renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mnemonicNew } from "@ton/crypto";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { type Config, loadSettings } from "../../src/config/index.js";
import { reloadOnSignalAndSecretFiles, SettingsReloader } from "../../src/run/reload.js";
import { tempDir } from "../helpers/temp-dir.js";
import { capturingLogger } from "../helpers/service.js";

let words: string[];

beforeAll(async () => {
  words = await mnemonicNew(24);
});

const OLD_COOKIE = "stel_ssid=ReloaderOldSsid1; stel_token=ReloaderOldTok1";
const NEW_COOKIE = "stel_ssid=ReloaderNewSsid2; stel_token=ReloaderNewTok2";

async function setup() {
  const dir = tempDir("giftbot-reloader-");
  const cookieFile = join(dir, "cookie");
  writeFileSync(cookieFile, OLD_COOKIE);
  const env: NodeJS.ProcessEnv = {
    BOT_TOKEN: "123456:AAbbCC_dd-ee",
    GIFT_API_BASE_URL: "http://127.0.0.1:9999",
    WALLET_MNEMONIC: words.join(" "),
    MARKETPLACE_COOKIE_FILE: cookieFile,
    ADMIN_IDS: "111",
  };
  const options = { envFile: false as const };
  const initial = await loadSettings(env, options);
  const { logger, lines } = capturingLogger();
  const applied: { config: Config; names: readonly string[] }[] = [];
  const waiters: (() => void)[] = [];
  /** Resolves at the next apply. */
  const reloaded = () => new Promise<void>((resolve) => waiters.push(resolve));
  const refused: string[][] = [];
  const reloader = new SettingsReloader({
    initial,
    env,
    options,
    logger,
    apply: (config, names) => {
      applied.push({ config, names });
      for (const resolve of waiters.splice(0)) resolve();
    },
    onRefused: (problems) => refused.push(problems.map((problem) => problem.variable)),
  });
  const rotate = (content: string) => {
    writeFileSync(`${cookieFile}.tmp`, content);
    renameSync(`${cookieFile}.tmp`, cookieFile);
  };
  return { env, reloader, lines, applied, refused, rotate, reloaded };
}

function logged(lines: string[]): { msg: string; [key: string]: unknown }[] {
  return lines.map((line) => JSON.parse(line) as { msg: string });
}

describe("SettingsReloader", () => {
  it("applies a rotated cookie and logs the changed names, never a value", async () => {
    const { reloader, lines, applied, rotate } = await setup();
    rotate(NEW_COOKIE);
    const outcome = await reloader.reload("test");
    expect(outcome).toEqual({ applied: ["MARKETPLACE_COOKIE"], needsRestart: [], refused: [] });
    expect(applied).toHaveLength(1);
    expect(applied[0]?.config.wallet.cookie).toBe(NEW_COOKIE);
    expect(reloader.config.wallet.cookie).toBe(NEW_COOKIE);
    const line = logged(lines).find((entry) => entry.msg === "settings reloaded");
    expect(line).toMatchObject({ changed: ["MARKETPLACE_COOKIE"], needsRestart: [], level: 30 });
    expect(lines.join("\n")).not.toMatch(/Reloader(Old|New)(Ssid|Tok)/);
  });

  it("refuses a bad cookie, keeps the old one, tells onRefused and logs why without the value", async () => {
    const { reloader, lines, applied, refused, rotate } = await setup();
    rotate("no_session_here=ReloaderBadValue3");
    const outcome = await reloader.reload("test");
    expect(outcome.refused.map((problem) => problem.variable)).toEqual(["MARKETPLACE_COOKIE"]);
    expect(applied).toEqual([]);
    expect(refused).toEqual([["MARKETPLACE_COOKIE"]]);
    expect(reloader.config.wallet.cookie).toBe(OLD_COOKIE);
    const line = logged(lines).find((entry) => entry.msg.startsWith("settings reloaded;"));
    expect(line?.refused).toEqual([expect.stringMatching(/^MARKETPLACE_COOKIE: .*stel_ssid/)]);
    expect(lines.join("\n")).not.toContain("ReloaderBadValue3");
  });

  it("names settings that need a restart and applies nothing for them", async () => {
    const { reloader, env, applied, lines } = await setup();
    env.BOT_TOKEN = "654321:AnotherTokenValue";
    env.PORT = "9999";
    const outcome = await reloader.reload("test");
    expect(outcome.needsRestart.sort()).toEqual(["BOT_TOKEN", "PORT"]);
    expect(applied).toEqual([]);
    expect(reloader.config.telegram.token).toBe("123456:AAbbCC_dd-ee");
    expect(lines.join("\n")).not.toContain("AnotherTokenValue");
  });

  it("runs one reload at a time; requests during one share one later run that sees the newest file", async () => {
    const { reloader, applied, rotate } = await setup();
    rotate(NEW_COOKIE);
    const first = reloader.reload("one");
    const second = reloader.reload("two");
    const third = reloader.reload("three");
    rotate("stel_ssid=ReloaderNewest4");
    expect(second).toBe(third);
    await Promise.all([first, second, third]);
    expect(applied.map((entry) => entry.config.wallet.cookie)).toEqual([
      NEW_COOKIE,
      "stel_ssid=ReloaderNewest4",
    ]);
  });

  it("reloads on SIGHUP and when a secret file is replaced", async () => {
    const { reloader, env, rotate, lines, reloaded } = await setup();
    const { logger } = capturingLogger();
    const stop = reloadOnSignalAndSecretFiles(reloader, { env, logger, debounceMs: 20 });
    onTestFinished(stop);
    // The watch on the secret file's folder.
    let next = reloaded();
    rotate(NEW_COOKIE);
    await next;
    expect(reloader.config.wallet.cookie).toBe(NEW_COOKIE);

    // SIGHUP, with the watch closed so only the signal can cause it.
    stop();
    const onlySignal = reloadOnSignalAndSecretFiles(reloader, { env, logger, watchFiles: false });
    onTestFinished(onlySignal);
    env.LIMIT_STARS_PER_DAY = "12345";
    next = reloaded();
    process.emit("SIGHUP", "SIGHUP");
    await next;
    expect(reloader.config.ledger.limits.starsPerBotDay).toBe(12345);
    expect(logged(lines).some((entry) => entry.reason === "SIGHUP")).toBe(true);
  });
});
