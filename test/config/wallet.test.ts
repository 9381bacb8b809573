import { mnemonicNew, mnemonicToPrivateKey, mnemonicValidate } from "@ton/crypto";
import { WalletContractV3R2, WalletContractV4, WalletContractV5R1 } from "@ton/ton";
import { beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/index.js";

const BIP39_12 =
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";

let words: string[];
let expected: Record<"v5r1" | "v4r2" | "v3r2", string>;

beforeAll(async () => {
  words = await mnemonicNew(24);
  // Computed here directly with @ton/ton, independently of src/config.
  const { publicKey } = await mnemonicToPrivateKey(words);
  const form = { bounceable: false, urlSafe: true } as const;
  expected = {
    v5r1: WalletContractV5R1.create({ workchain: 0, publicKey }).address.toString(form),
    v4r2: WalletContractV4.create({ workchain: 0, publicKey }).address.toString(form),
    v3r2: WalletContractV3R2.create({ workchain: 0, publicKey }).address.toString(form),
  };
});

function env(overrides: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return {
    BOT_TOKEN: "1:abc",
    GIFT_API_BASE_URL: "http://127.0.0.1:1",
    WALLET_MNEMONIC: words.join(" "),
    MARKETPLACE_COOKIE: "stel_ssid=x",
    ADMIN_IDS: "1",
    ...overrides,
  };
}

async function configError(overrides: Record<string, string | undefined>): Promise<ConfigError> {
  const error = await loadConfig(env(overrides), { envFile: false }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

describe("the paying wallet from a 24-word TON phrase", () => {
  it.each([
    ["v5r1", "v5r1"],
    ["v4r2", "v4r2"],
    ["v3r2", "v3r2"],
    ["auto", "v5r1"],
  ] as const)("WALLET_VERSION=%s derives the %s address", async (version, effective) => {
    const config = await loadConfig(env({ WALLET_VERSION: version }), { envFile: false });
    expect(config.wallet).toMatchObject({
      version,
      effectiveVersion: effective,
      address: expected[effective],
      addressSource: "derived",
      mnemonicScheme: "ton",
    });
    expect(config.wallet.address).toMatch(/^UQ/);
  });

  it("normalises whitespace and case", async () => {
    const messy = `  ${words.slice(0, 12).join("\n")}\t\t${words.slice(12).join("   ").toUpperCase()} `;
    const config = await loadConfig(env({ WALLET_MNEMONIC: messy }), { envFile: false });
    expect(config.wallet.mnemonic).toBe(words.join(" "));
    expect(config.wallet.address).toBe(expected.v5r1);
  });

  it("accepts a WALLET_ADDRESS that matches, in any form", async () => {
    const { Address } = await import("@ton/core");
    const raw = Address.parse(expected.v4r2).toRawString();
    const config = await loadConfig(env({ WALLET_VERSION: "v4r2", WALLET_ADDRESS: raw }), {
      envFile: false,
    });
    expect(config.wallet.address).toBe(expected.v4r2);
    expect(config.wallet.addressSource).toBe("derived");
  });

  it("refuses a WALLET_ADDRESS of another wallet", async () => {
    const error = await configError({ WALLET_VERSION: "v5r1", WALLET_ADDRESS: expected.v4r2 });
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]?.variable).toBe("WALLET_ADDRESS");
    expect(error.problems[0]?.reason).toContain(expected.v5r1);
  });

  it("refuses a 24-word phrase that fails validation, echoing no word", async () => {
    const invalid = Array.from({ length: 24 }, () => "abandon");
    expect(await mnemonicValidate(invalid)).toBe(false);
    const error = await configError({ WALLET_MNEMONIC: invalid.join(" "), BOT_TOKEN: undefined });
    expect(error.problems.map((p) => p.variable)).toEqual(["BOT_TOKEN", "WALLET_MNEMONIC"]);
    expect(error.problems[1]?.reason).toMatch(/not a valid 24-word TON wallet phrase/);
    expect(error.message).not.toContain("abandon");
  });

  it("names the positions of words outside the word list, not the words", async () => {
    const typo = [...words];
    typo[4] = "qwertyzz";
    const error = await configError({ WALLET_MNEMONIC: typo.join(" ") });
    expect(error.problems).toEqual([
      {
        variable: "WALLET_MNEMONIC",
        reason: "word 5 of 24 not in the BIP39 English word list (a typo?)",
      },
    ]);
  });
});

describe("the paying wallet from a 12/18-word BIP39 phrase", () => {
  it("has no address of its own: unknown without WALLET_ADDRESS", async () => {
    const config = await loadConfig(env({ WALLET_MNEMONIC: BIP39_12 }), { envFile: false });
    expect(config.wallet).toMatchObject({
      mnemonic: BIP39_12,
      mnemonicScheme: "bip39",
      address: undefined,
      addressSource: "unknown",
    });
  });

  it("accepts 18 words the same way", async () => {
    const eighteen = `${BIP39_12} ${BIP39_12.split(" ").slice(0, 6).join(" ")}`;
    const config = await loadConfig(env({ WALLET_MNEMONIC: eighteen }), { envFile: false });
    expect(config.wallet.mnemonicScheme).toBe("bip39");
    expect(config.wallet.mnemonic.split(" ")).toHaveLength(18);
  });

  it("takes WALLET_ADDRESS as configured, in user-facing form", async () => {
    const { Address } = await import("@ton/core");
    const bounceable = Address.parse(expected.v4r2).toString({ bounceable: true });
    const config = await loadConfig(
      env({ WALLET_MNEMONIC: BIP39_12, WALLET_ADDRESS: bounceable }),
      { envFile: false },
    );
    expect(config.wallet.address).toBe(expected.v4r2);
    expect(config.wallet.addressSource).toBe("configured");
  });

  it("refuses words outside the word list", async () => {
    const error = await configError({ WALLET_MNEMONIC: BIP39_12.replace("about", "abouts") });
    expect(error.problems[0]?.reason).toBe(
      "word 12 of 12 not in the BIP39 English word list (a typo?)",
    );
  });
});
