import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Address } from "@ton/core";
import { mnemonicNew, mnemonicToPrivateKey } from "@ton/crypto";
import { WalletContractV4 } from "@ton/ton";
import { beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/index.js";
import { tempDir } from "../helpers/temp-dir.js";

let words: string[];
let publicKey: Buffer;

beforeAll(async () => {
  words = await mnemonicNew(24);
  publicKey = (await mnemonicToPrivateKey(words)).publicKey;
});

/** A complete, valid environment; tests override what they check. */
function validEnv(overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return {
    BOT_TOKEN: "123456:AAbbCC_dd-ee",
    GIFT_API_BASE_URL: "http://127.0.0.1:9999/",
    WALLET_MNEMONIC: words.join(" "),
    MARKETPLACE_COOKIE: "stel_ssid=abc123; stel_token=xyz",
    ADMIN_IDS: "111,222",
    ...overrides,
  };
}

async function problemsOf(env: NodeJS.ProcessEnv): Promise<ConfigError> {
  const error = await loadConfig(env, { envFile: false }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

function variablesOf(error: ConfigError): string[] {
  return error.problems.map((problem) => problem.variable);
}

function userFacing(address: Address): string {
  return address.toString({ bounceable: false, urlSafe: true });
}

/**
 * Any two consecutive words of the phrase. Single words cannot be checked: the word list is
 * plain English ("list", "only", "must"), and messages legitimately use such words.
 */
function phrasePairs(phrase: string[]): string[] {
  return phrase.slice(1).map((word, index) => `${phrase[index]} ${word}`);
}

describe("loadConfig: a valid environment", () => {
  it("loads every variable into the typed, nested config", async () => {
    const config = await loadConfig(
      validEnv({
        TELEGRAM_API_ROOT: "http://127.0.0.1:8081/",
        SERVICE_QUOTA_PER_MINUTE: "20",
        SERVICE_TIMEOUT_MS: "15000",
        WALLET_VERSION: "v4r2",
        PROVIDER_API_KEY: "provider-key",
        UPSTREAM_PROXY: "http://user:pass@proxy:3128",
        UPSTREAM_USER_AGENT: "giftbot/1",
        PAYMENT_METHOD: "ton",
        ALLOWED_USER_IDS: " 5, 6 ,7 ",
        ALLOWED_CHAT_IDS: "-1001234567890,-42",
        PUBLIC_PURCHASES: "yes",
        ADMIN_CONTACT: " @shop_support ",
        DATABASE_PATH: "/var/lib/giftbot/db.sqlite",
        DRAFT_TTL_SECONDS: "120",
        LIMIT_STARS_PER_PURCHASE: "5000",
        LIMIT_STARS_PER_USER_DAY: "6000",
        LIMIT_STARS_PER_DAY: "70000",
        LIMIT_PREMIUM_PER_USER_DAY: "1",
        LIMIT_PREMIUM_PER_DAY: "9",
        LIMITS_EXEMPT_ADMINS: "1",
        TON_API_ENDPOINT: "https://toncenter.example/api/v2/jsonRPC",
        TON_API_KEY: "ton-key",
        CHECKS_PER_USER_MINUTE: "7",
        CHECKS_EXEMPT_ADMINS: "no",
        UPDATES_PER_USER: "12",
        UPDATES_WINDOW_SECONDS: "20",
        STRANGER_COOLDOWN_SECONDS: "0",
        GIVEAWAY_MAX: "50",
        LOW_BALANCE_TON: "1.5",
        LOW_BALANCE_USDT: "20",
        LOW_BALANCE_STARS: "800",
        PREMIUM_VIA: "telegram-first",
        BREAKER_REFUSALS: "5",
        READ_OUTAGE_ALERT_SECONDS: "300",
        REPORT_HOUR_UTC: "7",
        TON_EXPLORER_URL: "https://testnet.tonviewer.com/transaction/",
        BOT_MODE: "webhook",
        HOST: "0.0.0.0",
        PORT: "3000",
        WEBHOOK_URL: "https://bot.example/hook",
        WEBHOOK_SECRET: "s3cr3t_-X",
        REPLICA_URL: "http://bot-a:3000/",
        SHUTDOWN_GRACE_SECONDS: "20",
        LEASE_SECONDS: "20",
        LOG_LEVEL: "debug",
        LOG_PRETTY: "TRUE",
      }),
      { envFile: false },
    );
    expect(config).toEqual({
      telegram: { token: "123456:AAbbCC_dd-ee", apiRoot: "http://127.0.0.1:8081" },
      service: {
        baseUrl: "http://127.0.0.1:9999",
        quotaPerMinute: 20,
        timeoutMs: 15_000,
        apiKey: "provider-key",
        proxy: "http://user:pass@proxy:3128",
        userAgent: "giftbot/1",
      },
      wallet: {
        mnemonic: words.join(" "),
        cookie: "stel_ssid=abc123; stel_token=xyz",
        version: "v4r2",
        effectiveVersion: "v4r2",
        address: userFacing(WalletContractV4.create({ workchain: 0, publicKey }).address),
        addressSource: "derived",
        configuredAddress: undefined,
        mnemonicScheme: "ton",
        paymentMethod: "ton",
      },
      access: {
        adminIds: [111, 222],
        allowedUserIds: [5, 6, 7],
        allowedChatIds: [-1001234567890, -42],
        publicPurchases: true,
        showBalanceTo: undefined,
        adminContact: "@shop_support",
      },
      ledger: {
        databasePath: "/var/lib/giftbot/db.sqlite",
        draftTtlSeconds: 120,
        limits: {
          starsPerPurchase: 5000,
          starsPerUserDay: 6000,
          starsPerBotDay: 70_000,
          premiumPerUserDay: 1,
          premiumPerBotDay: 9,
          adminsExempt: true,
        },
        tonApi: { endpoint: "https://toncenter.example/api/v2/jsonRPC", apiKey: "ton-key" },
      },
      premium: { via: "telegram-first" },
      alerts: {
        lowBalanceTon: "1.5",
        lowBalanceUsdt: "20",
        lowBalanceStars: 800,
        breakerRefusals: 5,
        readOutageAlertSeconds: 300,
      },
      fairShare: {
        checksPerUserMinute: 7,
        checksExemptAdmins: false,
        updatesPerUser: 12,
        updatesWindowSeconds: 20,
        strangerCooldownSeconds: 0,
      },
      giveaway: { maxRecipients: 50 },
      reports: { reportHourUtc: 7, explorerUrl: "https://testnet.tonviewer.com/transaction/" },
      run: {
        mode: "webhook",
        host: "0.0.0.0",
        port: 3000,
        webhook: {
          url: "https://bot.example/hook",
          secret: "s3cr3t_-X",
          replicaUrl: "http://bot-a:3000",
        },
        shutdownGraceSeconds: 20,
        leaseSeconds: 20,
        secretPollSeconds: 2,
      },
      backups: { intervalHours: 24, dir: "/var/lib/giftbot/backups", keep: 14 },
      log: { level: "debug", pretty: true },
    });
  });

  it("fills the defaults, and treats empty strings as unset", async () => {
    const config = await loadConfig(
      validEnv({
        WALLET_VERSION: "",
        PORT: "  ",
        PUBLIC_PURCHASES: "",
        TELEGRAM_API_ROOT: "",
        ADMIN_CONTACT: " \t ",
      }),
      { envFile: false },
    );
    expect(config.telegram.apiRoot).toBeUndefined();
    expect(config.service).toMatchObject({ quotaPerMinute: 30, timeoutMs: 30_000 });
    expect(config.wallet).toMatchObject({
      version: "auto",
      effectiveVersion: "v5r1",
      paymentMethod: "usdt_ton",
    });
    expect(config.access).toEqual({
      adminIds: [111, 222],
      allowedUserIds: [],
      allowedChatIds: [],
      publicPurchases: false,
      showBalanceTo: undefined,
      adminContact: undefined,
    });
    expect(config.ledger).toEqual({
      databasePath: "./data/giftbot.sqlite",
      draftTtlSeconds: 600,
      limits: {
        starsPerPurchase: 10_000,
        starsPerUserDay: 10_000,
        starsPerBotDay: 100_000,
        premiumPerUserDay: 3,
        premiumPerBotDay: 20,
        adminsExempt: false,
      },
      tonApi: undefined,
    });
    expect(config.alerts).toEqual({
      lowBalanceTon: undefined,
      lowBalanceUsdt: undefined,
      breakerRefusals: 3,
      readOutageAlertSeconds: 120,
    });
    expect(config.run).toEqual({
      mode: "polling",
      host: "127.0.0.1",
      port: 8080,
      webhook: undefined,
      shutdownGraceSeconds: 40,
      leaseSeconds: 30,
      secretPollSeconds: 2,
    });
    expect(config.log).toEqual({ level: "info", pretty: false });
    expect(config.backups).toEqual({ intervalHours: 24, dir: "data/backups", keep: 14 });
    expect(config.fairShare).toEqual({
      checksPerUserMinute: 5,
      checksExemptAdmins: true,
      updatesPerUser: 30,
      updatesWindowSeconds: 10,
      strangerCooldownSeconds: 30,
    });
  });

  it("takes DATABASE_URL (or DATABASE_URL_FILE) for PostgreSQL, and never says its password", async () => {
    const url = "postgresql://giftbot:pg-canary-password@127.0.0.1:5432/giftbot";
    const direct = await loadConfig(validEnv({ DATABASE_URL: url }), { envFile: false });
    expect(direct.ledger.databaseUrl).toBe(url);
    const file = join(tempDir(), "database-url");
    writeFileSync(file, `${url}\n`);
    const fromFile = await loadConfig(validEnv({ DATABASE_URL_FILE: file }), { envFile: false });
    expect(fromFile.ledger.databaseUrl).toBe(url);
    const unset = await loadConfig(validEnv(), { envFile: false });
    expect(unset.ledger.databaseUrl).toBeUndefined();

    const wrong = await problemsOf(validEnv({ DATABASE_URL: "mysql://u:pg-canary-password@h/db" }));
    expect(variablesOf(wrong)).toEqual(["DATABASE_URL"]);
    expect(wrong.message).not.toContain("pg-canary-password");
  });

  it("accepts every boolean spelling", async () => {
    for (const [text, value] of [
      ["true", true],
      ["1", true],
      ["Yes", true],
      ["false", false],
      ["0", false],
      ["NO", false],
    ] as const) {
      const config = await loadConfig(validEnv({ LOG_PRETTY: text }), { envFile: false });
      expect(config.log.pretty).toBe(value);
    }
  });
});

describe("loadConfig: bad and missing variables", () => {
  it("names every missing required variable at once", async () => {
    const error = await problemsOf({});
    expect(variablesOf(error)).toEqual([
      "BOT_TOKEN",
      "GIFT_API_BASE_URL",
      "WALLET_MNEMONIC",
      "MARKETPLACE_COOKIE",
      "ADMIN_IDS",
    ]);
    expect(error.message.split("\n")).toHaveLength(5);
    for (const line of error.message.split("\n")) expect(line).toMatch(/^- [A-Z_]+: is required/);
  });

  it("names each bad variable with why, several in one error", async () => {
    const error = await problemsOf(
      validEnv({
        BOT_TOKEN: "not-a-token",
        TELEGRAM_API_ROOT: "ftp://x",
        GIFT_API_BASE_URL: "nowhere",
        SERVICE_QUOTA_PER_MINUTE: "0",
        SERVICE_TIMEOUT_MS: "fast",
        WALLET_MNEMONIC: "one two three",
        MARKETPLACE_COOKIE: "session=1",
        WALLET_VERSION: "v9",
        WALLET_ADDRESS: "not-an-address",
        PAYMENT_METHOD: "card",
        ADMIN_IDS: "1,-5",
        ALLOWED_USER_IDS: "abc",
        ALLOWED_CHAT_IDS: "0",
        PUBLIC_PURCHASES: "sometimes",
        DRAFT_TTL_SECONDS: "1.5",
        LIMIT_STARS_PER_PURCHASE: "1000001",
        LIMIT_STARS_PER_USER_DAY: "-1",
        LIMIT_STARS_PER_DAY: "x",
        LIMIT_PREMIUM_PER_USER_DAY: "y",
        LIMIT_PREMIUM_PER_DAY: "z",
        LIMITS_EXEMPT_ADMINS: "2",
        TON_API_ENDPOINT: "toncenter",
        LOW_BALANCE_TON: "-1",
        LOW_BALANCE_USDT: "1e3",
        BOT_MODE: "push",
        PORT: "70000",
        WEBHOOK_URL: "hook",
        WEBHOOK_SECRET: "has space",
        SHUTDOWN_GRACE_SECONDS: "0",
        LOG_LEVEL: "loud",
        LOG_PRETTY: "maybe",
      }),
    );
    expect(variablesOf(error)).toEqual([
      "BOT_TOKEN",
      "TELEGRAM_API_ROOT",
      "GIFT_API_BASE_URL",
      "SERVICE_QUOTA_PER_MINUTE",
      "SERVICE_TIMEOUT_MS",
      "WALLET_MNEMONIC",
      "MARKETPLACE_COOKIE",
      "WALLET_VERSION",
      "WALLET_ADDRESS",
      "PAYMENT_METHOD",
      "ADMIN_IDS",
      "ALLOWED_USER_IDS",
      "ALLOWED_CHAT_IDS",
      "PUBLIC_PURCHASES",
      "DRAFT_TTL_SECONDS",
      "LIMIT_STARS_PER_PURCHASE",
      "LIMIT_STARS_PER_USER_DAY",
      "LIMIT_STARS_PER_DAY",
      "LIMIT_PREMIUM_PER_USER_DAY",
      "LIMIT_PREMIUM_PER_DAY",
      "LIMITS_EXEMPT_ADMINS",
      "TON_API_ENDPOINT",
      "LOW_BALANCE_TON",
      "LOW_BALANCE_USDT",
      "BOT_MODE",
      "PORT",
      "WEBHOOK_URL",
      "WEBHOOK_SECRET",
      "SHUTDOWN_GRACE_SECONDS",
      "LOG_LEVEL",
      "LOG_PRETTY",
    ]);
    const reasons = Object.fromEntries(error.problems.map((p) => [p.variable, p.reason]));
    expect(reasons.WALLET_MNEMONIC).toBe("must have 12, 18 or 24 words, it has 3");
    expect(reasons.MARKETPLACE_COOKIE).toMatch(/stel_ssid/);
    expect(reasons.LIMIT_STARS_PER_PURCHASE).toBe("must be at most 1000000");
    expect(reasons.ADMIN_IDS).toMatch(/"-5" is not a Telegram user id/);
    expect(reasons.PORT).toBe("must be at most 65535");
    // One line per variable, each naming it.
    expect(error.message.split("\n")).toHaveLength(31);
  });

  it("requires WEBHOOK_URL and WEBHOOK_SECRET in webhook mode, alongside other problems", async () => {
    const error = await problemsOf(validEnv({ BOT_MODE: "webhook", BOT_TOKEN: undefined }));
    expect(variablesOf(error)).toEqual(["BOT_TOKEN", "WEBHOOK_URL", "WEBHOOK_SECRET"]);
  });

  it("refuses REPLICA_URL outside webhook mode (only webhooks are handed between replicas)", async () => {
    const error = await problemsOf(validEnv({ REPLICA_URL: "http://bot-a:8080" }));
    expect(variablesOf(error)).toEqual(["REPLICA_URL"]);
    expect(error.message).toContain("is only for BOT_MODE=webhook");
  });

  it("refuses a REPLICA_URL with a user name or password, never repeating the password", async () => {
    const webhook = {
      BOT_MODE: "webhook",
      WEBHOOK_URL: "https://bot.example.org/telegram/hook",
      WEBHOOK_SECRET: "hook-secret",
    };
    for (const replicaUrl of [
      "http://relay:pa55-w0rd-xyz@bot-a:8080",
      "http://relay@bot-a:8080",
      "https://:pa55-w0rd-xyz@bot-a:8080/",
    ]) {
      const error = await problemsOf(validEnv({ ...webhook, REPLICA_URL: replicaUrl }));
      expect(variablesOf(error)).toEqual(["REPLICA_URL"]);
      expect(error.message).toContain("must not carry a user name or password");
      expect(error.message).not.toContain("pa55-w0rd-xyz");
      expect(error.message).not.toContain("relay");
    }
    const config = await loadConfig(validEnv({ ...webhook, REPLICA_URL: "http://bot-a:8080/" }), {
      envFile: false,
    });
    expect(config.run.webhook?.replicaUrl).toBe("http://bot-a:8080");
  });

  it("refuses a shutdown grace shorter than the service's timeout, and reads LEASE_SECONDS", async () => {
    const error = await problemsOf(
      validEnv({ SERVICE_TIMEOUT_MS: "60000", SHUTDOWN_GRACE_SECONDS: "40" }),
    );
    expect(variablesOf(error)).toEqual(["SHUTDOWN_GRACE_SECONDS"]);
    expect(error.message).toContain("must be at least SERVICE_TIMEOUT_MS (60000 ms)");
    const config = await loadConfig(validEnv({ LEASE_SECONDS: "10" }), { envFile: false });
    expect(config.run.leaseSeconds).toBe(10);
    expect((await problemsOf(validEnv({ LEASE_SECONDS: "1" }))).problems[0]?.variable).toBe(
      "LEASE_SECONDS",
    );
  });

  it("refuses a header setting with a character undici cannot send, naming it and never its value", async () => {
    const settings = {
      MARKETPLACE_COOKIE: (x: string) => `stel_ssid=Secret555${x}`,
      PROVIDER_API_KEY: (x: string) => `Secret555${x}`,
      UPSTREAM_PROXY: (x: string) => `http://user:Secret555${x}@127.0.0.1:3128`,
      UPSTREAM_USER_AGENT: (x: string) => `giftbot/1.0 Secret555${x}`,
    };
    for (const [variable, value] of Object.entries(settings)) {
      for (const pasted of ["\u200b", "\u2026", "\u00e9", "\u0007"]) {
        const error = await problemsOf(validEnv({ [variable]: value(pasted) }));
        expect(variablesOf(error)).toEqual([variable]);
        expect(error.message).toContain("cannot go in an HTTP header");
        expect(error.message).not.toContain("Secret555");
      }
    }
  });

  it("takes ADMIN_CONTACT up to 100 characters on one line, and refuses more or several lines", async () => {
    const url = `https://t.me/${"a".repeat(100 - "https://t.me/".length)}`;
    const config = await loadConfig(validEnv({ ADMIN_CONTACT: url }), { envFile: false });
    expect(config.access.adminContact).toBe(url);

    const tooLong = await problemsOf(validEnv({ ADMIN_CONTACT: `@${"a".repeat(100)}` }));
    expect(tooLong.problems).toEqual([
      { variable: "ADMIN_CONTACT", reason: "must be at most 100 characters" },
    ]);
    for (const multiLine of ["@shop_support\nhttps://t.me/x", "@shop\r\nsupport"]) {
      const error = await problemsOf(validEnv({ ADMIN_CONTACT: multiLine }));
      expect(error.problems).toEqual([
        { variable: "ADMIN_CONTACT", reason: "must be a single line" },
      ]);
    }
  });

  it("takes SHOW_BALANCE_TO as admins or buyers, and refuses anything else", async () => {
    for (const value of ["admins", "buyers"] as const) {
      const config = await loadConfig(validEnv({ SHOW_BALANCE_TO: value }), { envFile: false });
      expect(config.access.showBalanceTo).toBe(value);
    }
    const error = await problemsOf(validEnv({ SHOW_BALANCE_TO: "everyone" }));
    expect(error.problems).toEqual([
      { variable: "SHOW_BALANCE_TO", reason: "must be admins or buyers" },
    ]);
  });

  it("rejects an empty ADMIN_IDS list", async () => {
    const error = await problemsOf(validEnv({ ADMIN_IDS: " , ," }));
    expect(error.problems).toEqual([
      { variable: "ADMIN_IDS", reason: "must list at least one Telegram user id" },
    ]);
  });

  it("never puts a secret's value in the error", async () => {
    const canaries = {
      BOT_TOKEN: "CANARY_TOKEN_7f3a",
      WALLET_MNEMONIC: `${words.slice(0, 23).join(" ")} canarywordzz`,
      MARKETPLACE_COOKIE: "CANARY_COOKIE_91=x; other=CANARY_COOKIE_92",
      PROVIDER_API_KEY: "CANARY_APIKEY_1\nCANARY_APIKEY_2",
      UPSTREAM_PROXY: "http://u:CANARY_PROXY_5@p\r\nx",
      TON_API_KEY: "CANARY_TONKEY\n",
      WEBHOOK_SECRET: "CANARY WEBHOOK SECRET!",
    };
    // TON_API_KEY's trailing newline is trimmed away (valid); embed one inside instead.
    canaries.TON_API_KEY = "CANARY_TONKEY\ninside";
    const error = await problemsOf(validEnv({ ...canaries, BOT_MODE: "webhook" }));
    expect(variablesOf(error)).toEqual([
      "BOT_TOKEN",
      "WALLET_MNEMONIC",
      "MARKETPLACE_COOKIE",
      "PROVIDER_API_KEY",
      "UPSTREAM_PROXY",
      "TON_API_KEY",
      "WEBHOOK_URL",
      "WEBHOOK_SECRET",
    ]);
    const everything = [
      error.message,
      String(error),
      JSON.stringify(error),
      JSON.stringify(error.problems),
    ].join("\n");
    expect(everything).not.toMatch(/CANARY/i);
    for (const pair of phrasePairs(words)) expect(everything).not.toContain(pair);
  });

  it("keeps a valid mnemonic's words out of an error about another variable", async () => {
    const error = await problemsOf(validEnv({ WALLET_ADDRESS: "0:".padEnd(66, "0") }));
    expect(variablesOf(error)).toEqual(["WALLET_ADDRESS"]);
    for (const pair of phrasePairs(words)) expect(error.message).not.toContain(pair);
  });
});

describe("loadConfig: secrets from files", () => {
  it("reads each NAME_FILE, trimmed", async () => {
    const dir = tempDir();
    const files = {
      BOT_TOKEN_FILE: "987:FromFile_x\n",
      WALLET_MNEMONIC_FILE: `\n  ${words.join("\n")}\n`,
      MARKETPLACE_COOKIE_FILE: "stel_ssid=file\n",
      PROVIDER_API_KEY_FILE: "provider-from-file\n",
      UPSTREAM_PROXY_FILE: " socks5://proxy-from-file ",
      TON_API_KEY_FILE: "ton-key-from-file\r\n",
      WEBHOOK_SECRET_FILE: "hook_secret_from_file\n",
    };
    const env: NodeJS.ProcessEnv = {
      GIFT_API_BASE_URL: "http://127.0.0.1:1",
      ADMIN_IDS: "1",
      BOT_MODE: "webhook",
      WEBHOOK_URL: "https://bot.example/hook",
      TON_API_ENDPOINT: "http://127.0.0.1:2",
    };
    for (const [name, content] of Object.entries(files)) {
      const path = join(dir, name.toLowerCase());
      writeFileSync(path, content);
      env[name] = path;
    }
    const config = await loadConfig(env, { envFile: false });
    expect(config.telegram.token).toBe("987:FromFile_x");
    expect(config.wallet.mnemonic).toBe(words.join(" "));
    expect(config.wallet.cookie).toBe("stel_ssid=file");
    expect(config.service.apiKey).toBe("provider-from-file");
    expect(config.service.proxy).toBe("socks5://proxy-from-file");
    expect(config.ledger.tonApi?.apiKey).toBe("ton-key-from-file");
    expect(config.run.webhook?.secret).toBe("hook_secret_from_file");
  });

  it("refuses NAME and NAME_FILE both set, and unreadable or empty files", async () => {
    const dir = tempDir();
    const tokenFile = join(dir, "token");
    writeFileSync(tokenFile, "1:abc");
    const emptyFile = join(dir, "empty");
    writeFileSync(emptyFile, "  \n");
    const error = await problemsOf(
      validEnv({
        BOT_TOKEN_FILE: tokenFile,
        WALLET_MNEMONIC: undefined,
        WALLET_MNEMONIC_FILE: join(dir, "missing"),
        MARKETPLACE_COOKIE: undefined,
        MARKETPLACE_COOKIE_FILE: emptyFile,
      }),
    );
    expect(error.problems).toEqual([
      {
        variable: "BOT_TOKEN_FILE",
        reason: "BOT_TOKEN and BOT_TOKEN_FILE are both set: keep only one",
      },
      {
        variable: "WALLET_MNEMONIC_FILE",
        reason: `the file ${join(dir, "missing")} cannot be read (ENOENT)`,
      },
      { variable: "MARKETPLACE_COOKIE_FILE", reason: `the file ${emptyFile} is empty` },
    ]);
  });
});

describe("loadConfig: the .env file", () => {
  it("reads the file under the environment, which wins", async () => {
    const dir = tempDir();
    const envFile = join(dir, ".env");
    writeFileSync(
      envFile,
      [
        "# a comment",
        "BOT_TOKEN=1:fromfile",
        `WALLET_MNEMONIC="${words.join(" ")}"`,
        "MARKETPLACE_COOKIE='stel_ssid=fromfile'",
        "GIFT_API_BASE_URL=http://127.0.0.1:5",
        "ADMIN_IDS=7",
        "PORT=1234",
        "HOST=",
      ].join("\n"),
    );
    const config = await loadConfig({ PORT: "4321", HOST: "" }, { envFile });
    expect(config.telegram.token).toBe("1:fromfile");
    expect(config.wallet.cookie).toBe("stel_ssid=fromfile");
    expect(config.run.port).toBe(4321);
    expect(config.run.host).toBe("127.0.0.1");
  });

  it("reads nothing with envFile: false, and names an explicit file that is missing", async () => {
    const dir = tempDir();
    const missing = join(dir, "nope.env");
    await expect(loadConfig(validEnv(), { envFile: false })).resolves.toBeDefined();
    const result = await loadConfig(validEnv(), { envFile: missing }).catch((e: unknown) => e);
    expect(result).toBeInstanceOf(ConfigError);
    expect((result as ConfigError).problems).toEqual([
      { variable: "(env file)", reason: `${missing} cannot be read (ENOENT)` },
    ]);
  });
});
