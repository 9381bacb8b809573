import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { mnemonicNew } from "@ton/crypto";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, SECRET_VARIABLES, VARIABLES } from "../../src/config/index.js";
import { tempDir } from "../helpers/temp-dir.js";

const ROOT = resolve(import.meta.dirname, "../..");
const example = readFileSync(join(ROOT, ".env.example"), "utf8");
const readme = readFileSync(join(ROOT, "README.md"), "utf8");
const settings = readme.slice(readme.indexOf("## Settings"));
const settingsDoc = readFileSync(join(ROOT, "docs/settings.md"), "utf8");

/** The README says what the bot is and how to start; the detail lives in docs/. */
const README_MAX_LINES = 320;

describe("the README", () => {
  it(`stays at most ${String(README_MAX_LINES)} lines`, () => {
    expect(readme.split("\n").length - (readme.endsWith("\n") ? 1 : 0)).toBeLessThanOrEqual(
      README_MAX_LINES,
    );
  });

  it("links every docs/ page it moved detail to, and each one exists", () => {
    const linked = [...readme.matchAll(/\]\((docs\/[a-z-]+\.md)[#)]/g)].map((match) => match[1]);
    for (const page of ["docs/settings.md", "docs/giveaways.md", "docs/operations.md"]) {
      expect(linked).toContain(page);
    }
    for (const page of new Set(linked))
      expect(() => readFileSync(join(ROOT, page ?? ""))).not.toThrow();
  });
});

describe("the settings documentation", () => {
  it(".env.example lists every variable", () => {
    for (const name of VARIABLES) expect(example).toMatch(new RegExp(`^#? ?${name}=`, "m"));
  });

  it("docs/settings.md's table lists every variable, and README's Settings the _FILE secrets", () => {
    for (const name of VARIABLES)
      expect(settingsDoc).toMatch(new RegExp(`^\\| \`${name}\` +\\|`, "m"));
    for (const name of SECRET_VARIABLES) expect(settings).toContain(`\`${name}\``);
    expect(settings).toContain("NAME_FILE");
  });

  it(".env.example loads once real values are put in place of its placeholders", async () => {
    const words = await mnemonicNew(24);
    const config = await loadConfig(
      {
        BOT_TOKEN: "424242:real-token",
        GIFT_API_BASE_URL: "https://gift-service.internal",
        WALLET_MNEMONIC: words.join(" "),
        MARKETPLACE_COOKIE: "stel_ssid=real-session",
        ADMIN_IDS: "1001",
      },
      { envFile: join(ROOT, ".env.example") },
    );
    expect(config.telegram.token).toBe("424242:real-token");
    expect(config.wallet.cookie).toBe("stel_ssid=real-session");
  });

  it(".env.example as it is is refused: each placeholder named, with the way out", async () => {
    const failure = await loadConfig(
      {
        WALLET_MNEMONIC:
          "word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12",
      },
      { envFile: join(ROOT, ".env.example") },
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConfigError);
    const placeholder = "is still the placeholder of .env.example";
    const inFile = `${placeholder}: edit ${join(ROOT, ".env.example")} and put in the real value`;
    expect((failure as ConfigError).problems).toEqual([
      { variable: "BOT_TOKEN", reason: inFile },
      { variable: "GIFT_API_BASE_URL", reason: inFile },
      {
        variable: "WALLET_MNEMONIC",
        reason: `${placeholder}: set the real value in the environment`,
      },
      { variable: "MARKETPLACE_COOKIE", reason: inFile },
      { variable: "ADMIN_IDS", reason: inFile },
    ]);
  });
});

describe("placeholders of .env.example", () => {
  const valid = async () => ({
    BOT_TOKEN: "424242:real-token",
    GIFT_API_BASE_URL: "https://gift-service.internal",
    WALLET_MNEMONIC: (await mnemonicNew(24)).join(" "),
    MARKETPLACE_COOKIE: "stel_ssid=real-session",
    ADMIN_IDS: "1001",
  });

  it.each([
    ["PROVIDER_API_KEY", "REPLACE_ME"],
    ["UPSTREAM_PROXY", "http://user:REPLACE_ME@proxy.example:3128"],
    ["WALLET_ADDRESS", "UQ_REPLACE_WITH_YOUR_WALLET_ADDRESS"],
    ["ADMIN_CONTACT", "@your_support_REPLACE_ME"],
    ["WEBHOOK_SECRET", "REPLACE_ME"],
    ["GIFT_API_BASE_URL", "https://gift-service.example/"],
    ["GIFT_API_BASE_URL", "http://gifts.example:8080"],
    ["ADMIN_IDS", "1001,123456789"],
  ])("refuses %s=%s, also from the environment", async (variable, value) => {
    const failure = await loadConfig(
      { ...(await valid()), [variable]: value },
      { envFile: false },
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as ConfigError).message).toBe(
      `- ${variable}: is still the placeholder of .env.example: set the real value in the environment`,
    );
  });

  it("accepts real values that merely look alike", async () => {
    const config = await loadConfig(
      { ...(await valid()), GIFT_API_BASE_URL: "https://examples.org/", ADMIN_IDS: "1234567890" },
      { envFile: false },
    );
    expect(config.access.adminIds).toEqual([1234567890]);
  });
});

describe("the settings that may come from a file (NAME_FILE)", () => {
  /** Every `NAME` in `text` that is a variable of the schema. */
  const variablesIn = (text: string): string[] =>
    [...text.matchAll(/\b[A-Z][A-Z_]+[A-Z]\b/g)]
      .map((match) => match[0])
      .filter((name) => (VARIABLES as readonly string[]).includes(name));
  const schema = [...SECRET_VARIABLES].sort();

  it("README's list is the schema's", () => {
    const paragraph = /^Secrets can also come from files[\s\S]*?\n\n/m.exec(settings)?.[0] ?? "";
    expect(variablesIn(paragraph).sort()).toEqual(schema);
  });

  it(".env.example's list is the schema's", () => {
    // The file's opening comment, up to its first blank line.
    const header = /^# Empty values count as unset\.[\s\S]*?\n\n/m.exec(example)?.[0];
    expect(variablesIn(header ?? "").sort()).toEqual(schema);
  });

  it("deploy/bot.env.example's, with the three compose.yaml mounts, is the schema's", () => {
    const botEnv = readFileSync(join(ROOT, "deploy/bot.env.example"), "utf8");
    const more = /^# More secrets the same way.*\n# .*$/m.exec(botEnv)?.[0] ?? "";
    const mounted = ["BOT_TOKEN", "WALLET_MNEMONIC", "MARKETPLACE_COOKIE"];
    expect([...mounted, ...variablesIn(more)].sort()).toEqual(schema);
  });
});

describe(".env.example's suggested ports", () => {
  /** The default port of a local peer's command (tools/<name>/cli.ts). */
  const peerPort = (name: string): number => {
    const cli = readFileSync(join(ROOT, "tools", name, "cli.ts"), "utf8");
    return Number(/\(default (\d+)\)/.exec(cli)?.[1]);
  };
  const suggested = (variable: string): number =>
    Number(new RegExp(`^#? ?${variable}=(\\d+)$`, "m").exec(example)?.[1]);

  it("never suggest a port the demo's sandbox or emulator takes by default", () => {
    const peers = [peerPort("sandbox"), peerPort("telegram-emulator")];
    expect(peers).toEqual([8081, 8082]);
    for (const variable of ["PORT", "HEALTH_PORT", "METRICS_PORT"]) {
      expect(suggested(variable), variable).toBeGreaterThan(0);
      expect(peers, variable).not.toContain(suggested(variable));
    }
  });

  it("point TELEGRAM_API_ROOT at the emulator's port", () => {
    expect(example).toContain(
      `# TELEGRAM_API_ROOT=http://127.0.0.1:${peerPort("telegram-emulator")}`,
    );
  });
});

describe("README's Before you go live", () => {
  it("says before its steps that it takes an operator of the Gift Purchase Service and its marketplace", () => {
    const section = readme.slice(readme.indexOf("## Before you go live"));
    const beforeSteps = section.slice(0, section.indexOf("\n1. "));
    expect(beforeSteps).toMatch(/an operator of the \*\*Gift Purchase Service\*\*/);
    expect(beforeSteps).toMatch(/the marketplace it buys on/);
  });

  it("its filled-in .env loads once a real phrase is put in, and ADMIN_IDS=1 is accepted", async () => {
    const section = readme.slice(readme.indexOf("## Before you go live"));
    const filled = /A filled-in `\.env`[^\n]*\n\n```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
    expect(filled).toContain("WALLET_MNEMONIC=");
    const words = (await mnemonicNew(24)).join(" ");
    const envFile = join(tempDir(), ".env");
    writeFileSync(envFile, filled.replace(/^WALLET_MNEMONIC=.*$/m, `WALLET_MNEMONIC="${words}"`));
    const config = await loadConfig({}, { envFile });
    expect(config.access.adminIds).toEqual([415263748]);
    expect(config.wallet.cookie).toContain("stel_ssid=");
    // The way to learn one's own id: start once with ADMIN_IDS=1 and send /start.
    const first = await loadConfig({ ADMIN_IDS: "1" }, { envFile });
    expect(first.access.adminIds).toEqual([1]);
  });
});
