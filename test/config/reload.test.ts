import { renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mnemonicNew } from "@ton/crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { loadSettings, RELOADABLE_VARIABLES, reloadSettings } from "../../src/config/index.js";
import { tempDir } from "../helpers/temp-dir.js";

let words: string[];

beforeAll(async () => {
  words = await mnemonicNew(24);
});

const OLD_COOKIE = "stel_ssid=OldSessionValue111; stel_token=OldToken111";
const NEW_COOKIE = "stel_ssid=NewSessionValue222; stel_token=NewToken222";

/** A running bot's sources: the environment, a dotenv file and a cookie secret file. */
function setup() {
  const dir = tempDir("giftbot-reload-");
  const cookieFile = join(dir, "cookie");
  const envFile = join(dir, ".env");
  writeFileSync(cookieFile, `${OLD_COOKIE}\n`);
  writeFileSync(envFile, "LIMIT_STARS_PER_PURCHASE=5000\nALLOWED_USER_IDS=7,8\n");
  const env: NodeJS.ProcessEnv = {
    BOT_TOKEN: "123456:AAbbCC_dd-ee",
    GIFT_API_BASE_URL: "http://127.0.0.1:9999",
    WALLET_MNEMONIC: words.join(" "),
    MARKETPLACE_COOKIE_FILE: cookieFile,
    ADMIN_IDS: "111",
  };
  return { dir, cookieFile, envFile, env, options: { envFile } };
}

/** Replaces a file the way container runtimes update mounted secrets: write aside, rename over. */
function replaceAtomically(path: string, content: string): void {
  writeFileSync(`${path}.tmp`, content);
  renameSync(`${path}.tmp`, path);
}

describe("reloadSettings", () => {
  it("reports nothing when nothing changed", async () => {
    const { env, options } = setup();
    const current = await loadSettings(env, options);
    const result = await reloadSettings(current, env, options);
    expect(result).toEqual({ settings: current, applied: [], needsRestart: [], refused: [] });
  });

  it("takes a rotated cookie file and keeps everything else", async () => {
    const { env, options, cookieFile } = setup();
    const current = await loadSettings(env, options);
    replaceAtomically(cookieFile, NEW_COOKIE);
    const result = await reloadSettings(current, env, options);
    expect(result.applied).toEqual(["MARKETPLACE_COOKIE"]);
    expect(result.needsRestart).toEqual([]);
    expect(result.refused).toEqual([]);
    expect(result.settings.config.wallet.cookie).toBe(NEW_COOKIE);
    expect({
      ...result.settings.config,
      wallet: { ...result.settings.config.wallet, cookie: "" },
    }).toEqual({ ...current.config, wallet: { ...current.config.wallet, cookie: "" } });
  });

  it("takes new allow lists and limits from the dotenv file", async () => {
    const { env, options, envFile } = setup();
    const current = await loadSettings(env, options);
    writeFileSync(
      envFile,
      "LIMIT_STARS_PER_PURCHASE=700\nALLOWED_USER_IDS=7,8,9\nPUBLIC_PURCHASES=yes\nLOW_BALANCE_TON=2.5\n",
    );
    const result = await reloadSettings(current, env, options);
    expect(result.applied.sort()).toEqual(
      [
        "ALLOWED_USER_IDS",
        "LIMIT_STARS_PER_PURCHASE",
        "LOW_BALANCE_TON",
        "PUBLIC_PURCHASES",
      ].sort(),
    );
    const { config } = result.settings;
    expect(config.ledger.limits.starsPerPurchase).toBe(700);
    expect(config.access.allowedUserIds).toEqual([7, 8, 9]);
    expect(config.access.publicPurchases).toBe(true);
    expect(config.alerts.lowBalanceTon).toBe("2.5");
  });

  it("refuses a new cookie that does not validate, naming it without its value, and keeps the old one", async () => {
    const { env, options, cookieFile } = setup();
    const current = await loadSettings(env, options);
    replaceAtomically(cookieFile, "session=WithoutStelSsid333");
    const result = await reloadSettings(current, env, options);
    expect(result.applied).toEqual([]);
    expect(result.refused.map((problem) => problem.variable)).toEqual(["MARKETPLACE_COOKIE"]);
    expect(JSON.stringify(result.refused)).not.toContain("WithoutStelSsid333");
    expect(result.settings.config.wallet.cookie).toBe(OLD_COOKIE);
  });

  it("refuses a rotated cookie with a character no HTTP header can carry, keeping the old one", async () => {
    const { env, options, cookieFile } = setup();
    const current = await loadSettings(env, options);
    for (const pasted of ["\u200b", "\u2026", "\u007f"]) {
      replaceAtomically(cookieFile, `stel_ssid=Rotated444${pasted}; stel_token=Rotated444`);
      const result = await reloadSettings(current, env, options);
      expect(result.applied).toEqual([]);
      expect(result.refused).toEqual([
        {
          variable: "MARKETPLACE_COOKIE",
          reason: expect.stringContaining("cannot go in an HTTP header") as string,
        },
      ]);
      expect(JSON.stringify(result.refused)).not.toContain("Rotated444");
      expect(result.settings.config.wallet.cookie).toBe(OLD_COOKIE);
    }
  });

  it("keeps the old cookie when its file is gone, and still applies the other changes", async () => {
    const { env, options, cookieFile, envFile } = setup();
    const current = await loadSettings(env, options);
    rmSync(cookieFile);
    writeFileSync(envFile, "LIMIT_STARS_PER_PURCHASE=800\nALLOWED_USER_IDS=7,8\n");
    const result = await reloadSettings(current, env, options);
    expect(result.refused.map((problem) => problem.variable)).toEqual(["MARKETPLACE_COOKIE_FILE"]);
    expect(result.applied).toEqual(["LIMIT_STARS_PER_PURCHASE"]);
    expect(result.settings.config.wallet.cookie).toBe(OLD_COOKIE);
    expect(result.settings.config.ledger.limits.starsPerPurchase).toBe(800);
  });

  it("reports the bot token, mode, database, port and the wallet as needing a restart, and keeps them", async () => {
    const { env, options } = setup();
    const current = await loadSettings(env, options);
    const other = await mnemonicNew(24);
    const next = {
      ...env,
      BOT_TOKEN: "999999:NewTokenValue",
      BOT_MODE: "webhook",
      WEBHOOK_URL: "https://bot.example.org/tg",
      WEBHOOK_SECRET: "NewWebhookSecret",
      DATABASE_PATH: "/elsewhere.sqlite",
      PORT: "9090",
      WALLET_MNEMONIC: other.join(" "),
    };
    const result = await reloadSettings(current, next, options);
    expect(result.applied).toEqual([]);
    expect(result.refused).toEqual([]);
    expect(result.needsRestart.sort()).toEqual(
      [
        "BOT_MODE",
        "BOT_TOKEN",
        "DATABASE_PATH",
        "PORT",
        "WALLET_MNEMONIC",
        "WEBHOOK_SECRET",
        "WEBHOOK_URL",
      ].sort(),
    );
    expect(result.settings).toBe(current);
    expect(JSON.stringify(result)).not.toContain("NewTokenValue");
  });

  it("refuses a bad value even where a restart would be needed, so the operator hears now", async () => {
    const { env, options } = setup();
    const current = await loadSettings(env, options);
    const result = await reloadSettings(current, { ...env, PORT: "99999" }, options);
    expect(result.refused.map((problem) => problem.variable)).toEqual(["PORT"]);
    expect(result.needsRestart).toEqual([]);
  });

  it("applies the good values and refuses the bad ones of one reload", async () => {
    const { env, options, envFile, cookieFile } = setup();
    const current = await loadSettings(env, options);
    replaceAtomically(cookieFile, NEW_COOKIE);
    writeFileSync(envFile, "LIMIT_STARS_PER_PURCHASE=lots\nALLOWED_USER_IDS=7,8,-5\n");
    const result = await reloadSettings(current, env, options);
    expect(result.applied).toEqual(["MARKETPLACE_COOKIE"]);
    expect(result.refused.map((problem) => problem.variable).sort()).toEqual([
      "ALLOWED_USER_IDS",
      "LIMIT_STARS_PER_PURCHASE",
    ]);
    expect(result.settings.config.ledger.limits.starsPerPurchase).toBe(5000);
    expect(result.settings.config.access.allowedUserIds).toEqual([7, 8]);
    expect(result.settings.config.wallet.cookie).toBe(NEW_COOKIE);
  });

  it("refuses the whole reload when the dotenv file cannot be read any more", async () => {
    const { env, options, envFile } = setup();
    const current = await loadSettings(env, options);
    rmSync(envFile);
    const result = await reloadSettings(current, env, options);
    expect(result.applied).toEqual([]);
    expect(result.refused.map((problem) => problem.variable)).toEqual(["(env file)"]);
    expect(result.settings).toBe(current);
  });

  it("lets a removed optional secret go (the header is no longer sent)", async () => {
    const { env, options } = setup();
    const current = await loadSettings({ ...env, PROVIDER_API_KEY: "OldProviderKey" }, options);
    const result = await reloadSettings(current, env, options);
    expect(result.applied).toEqual(["PROVIDER_API_KEY"]);
    expect(result.settings.config.service.apiKey).toBeUndefined();
  });

  it("lists the secrets and allow/limit settings as reloadable, never the wallet or the token", () => {
    for (const name of [
      "MARKETPLACE_COOKIE",
      "PROVIDER_API_KEY",
      "UPSTREAM_PROXY",
      "LIMIT_STARS_PER_DAY",
    ]) {
      expect(RELOADABLE_VARIABLES.has(name)).toBe(true);
    }
    for (const name of ["BOT_TOKEN", "WALLET_MNEMONIC", "DATABASE_PATH", "BOT_MODE", "PORT"]) {
      expect(RELOADABLE_VARIABLES.has(name)).toBe(false);
    }
  });
});
