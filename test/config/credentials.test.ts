import { Address } from "@ton/core";
import { mnemonicNew, mnemonicToPrivateKey } from "@ton/crypto";
import { WalletContractV4 } from "@ton/ton";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { type Config, loadConfig, serviceCredentials } from "../../src/config/index.js";
import { startSandbox } from "../../tools/sandbox/server.js";
import { createGiftServiceClient } from "../../src/service/client.js";

const BIP39_12 =
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";

let words: string[];
/** The v4r2 wallet of `words`, computed here with @ton/ton, independently of src/config. */
let v4r2: Address;

beforeAll(async () => {
  words = await mnemonicNew(24);
  const { publicKey } = await mnemonicToPrivateKey(words);
  v4r2 = WalletContractV4.create({ workchain: 0, publicKey }).address;
});

function load(overrides: Record<string, string | undefined>): Promise<Config> {
  return loadConfig(
    {
      BOT_TOKEN: "1:abc",
      GIFT_API_BASE_URL: "http://127.0.0.1:1",
      WALLET_MNEMONIC: words.join(" "),
      WALLET_VERSION: "v4r2",
      MARKETPLACE_COOKIE: "stel_ssid=x",
      ADMIN_IDS: "1",
      ...overrides,
    },
    { envFile: false },
  );
}

/** The `Wallet-Address` header a real client built from `config` sends with a purchase. */
async function sentWalletAddress(config: Config): Promise<string | undefined> {
  const sandbox = await startSandbox({ quota: false });
  onTestFinished(() => sandbox.close());
  const client = createGiftServiceClient({
    baseUrl: sandbox.url,
    credentials: serviceCredentials(config),
  });
  onTestFinished(() => client.close());
  const outcome = await client.buyStars({ username: "alice_1", amount: 50, paymentMethod: "ton" });
  expect(outcome.kind).toBe("success");
  const [request] = sandbox.purchaseRequests();
  expect(request).toBeDefined();
  return request?.headers["wallet-address"];
}

describe("WALLET_ADDRESS and the Wallet-Address header", () => {
  it("a WALLET_ADDRESS matching the derived address is kept as configured and sent", async () => {
    const raw = v4r2.toRawString();
    const config = await load({ WALLET_ADDRESS: raw });
    expect(config.wallet).toMatchObject({
      address: v4r2.toString({ bounceable: false, urlSafe: true }),
      addressSource: "derived",
      configuredAddress: raw,
    });
    expect(serviceCredentials(config).walletAddress).toBe(raw);
    expect(await sentWalletAddress(config)).toBe(raw);
  });

  it("a derived address the operator did not set is not sent", async () => {
    const config = await load({});
    expect(config.wallet.configuredAddress).toBeUndefined();
    expect(serviceCredentials(config)).not.toHaveProperty("walletAddress");
    expect(await sentWalletAddress(config)).toBeUndefined();
  });

  it("a BIP39 phrase's WALLET_ADDRESS is sent as given", async () => {
    const bounceable = v4r2.toString({ bounceable: true, urlSafe: true });
    const config = await load({ WALLET_MNEMONIC: BIP39_12, WALLET_ADDRESS: bounceable });
    expect(config.wallet).toMatchObject({ addressSource: "configured" });
    expect(config.wallet.configuredAddress).toBe(bounceable);
    expect(await sentWalletAddress(config)).toBe(bounceable);
  });

  it("passes the other optional headers on only when set", async () => {
    const bare = serviceCredentials(await load({}));
    expect(bare).toEqual({
      mnemonic: words.join(" "),
      cookie: "stel_ssid=x",
      walletVersion: "v4r2",
    });
    const full = serviceCredentials(
      await load({
        UPSTREAM_PROXY: "http://u:p@proxy:3128",
        PROVIDER_API_KEY: "key-1",
        UPSTREAM_USER_AGENT: "giftbot/1",
      }),
    );
    expect(full).toMatchObject({
      proxy: "http://u:p@proxy:3128",
      apiKey: "key-1",
      userAgent: "giftbot/1",
    });
  });
});
