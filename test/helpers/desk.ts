/**
 * Desk tests run the real thing: the sandbox service on 127.0.0.1, the real client configured
 * with canary secrets, and the ledger on a real SQLite file in a temp folder.
 */
import { join } from "node:path";
import { onTestFinished } from "vitest";
import type { LedgerOptions } from "../../src/storage/types.js";
import { createPurchaseDesk, type PurchaseDeskDeps } from "../../src/purchases/desk.js";
import type { NewIntent, PurchaseIntent, PurchaseLedger } from "../../src/ledger/types.js";
import { createPurchaseRecords, type PurchaseRecords } from "../../src/purchases/records.js";
import type { PurchaseDesk } from "../../src/purchases/types.js";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../tools/sandbox/server.js";
import {
  createGiftServiceClient,
  type GiftServiceClientOptions,
} from "../../src/service/client.js";
import type { GiftServiceClient } from "../../src/service/types.js";
import type { Db } from "../../src/storage/sqlite/driver.js";
import { openSqliteStorage } from "../../src/storage/sqlite/open.js";
import { tempDir } from "./temp-dir.js";
import { username } from "./username.js";

/** Secrets that must never reach the database file: each is unique enough to scan for. */
export const CANARY = {
  mnemonic: Array.from({ length: 24 }, (_, i) => `canaryword${String.fromCharCode(97 + i)}`).join(
    " ",
  ),
  cookie: "stel_ssid=CanaryCookieSsid7f3a; stel_token=CanaryCookieToken9b2c",
  proxy: "socks5://CanaryProxyUser:CanaryProxyPass@127.0.0.1:1080",
  apiKey: "CanaryProviderApiKey5d1e",
};

/** Every fragment of a canary that must not appear anywhere in the file. */
export const CANARY_FRAGMENTS = [
  ...CANARY.mnemonic.split(" "),
  "CanaryCookieSsid7f3a",
  "CanaryCookieToken9b2c",
  "CanaryProxyUser",
  "CanaryProxyPass",
  "CanaryProviderApiKey5d1e",
];

export const NOON = Date.UTC(2030, 0, 1, 12);

export interface DeskFixture {
  dir: string;
  path: string;
  db: Db;
  sandbox: Sandbox;
  client: GiftServiceClient;
  ledger: PurchaseLedger;
  desk: PurchaseDesk;
  /** The ledger read through the bot's read-only view. */
  records: PurchaseRecords;
  clock: { now: number };
  /** Another connection to the same file, with its own Ledger and desk (same client). */
  secondDesk(): Promise<PurchaseDesk>;
  /** A draft recorded as the ledger holds one (with the balance figure given, by default 100 TON). */
  starsDraft(overrides?: Partial<NewIntent>): Promise<PurchaseIntent>;
}

export interface DeskFixtureOptions {
  sandbox?: SandboxOptions;
  client?: Partial<GiftServiceClientOptions>;
  ledger?: Omit<LedgerOptions, "clock">;
  desk?: Partial<Omit<PurchaseDeskDeps, "ledger" | "client">>;
  /** Replaces the real client (wrapping it), for the rare case a test needs an odd answer. */
  wrapClient?: (client: GiftServiceClient) => GiftServiceClient;
  /** Gives the desk (and the records) the accounts on the same file: costs are measured. */
  accounts?: boolean;
}

/** Everything a desk test needs; all of it closed when the test ends. */
export async function deskFixture(options: DeskFixtureOptions = {}): Promise<DeskFixture> {
  const dir = tempDir("giftbot-desk-");
  const path = join(dir, "bot.sqlite");
  const sandbox = await startSandbox({ quota: false, ...options.sandbox });
  onTestFinished(() => sandbox.close());
  const realClient = createGiftServiceClient({
    baseUrl: sandbox.url,
    credentials: CANARY,
    quota: { limit: 10_000, windowMs: 60_000 },
    ...options.client,
  });
  onTestFinished(() => realClient.close());
  const client = options.wrapClient ? options.wrapClient(realClient) : realClient;
  const clock = { now: NOON };
  const open = async () => {
    let db: Db | undefined;
    const storage = await openSqliteStorage(path, (opened) => (db = opened));
    onTestFinished(() => storage.close());
    const ledger = storage.openLedger({ ...options.ledger, clock: () => clock.now });
    const accounts = options.accounts === true ? storage.openAccounts() : undefined;
    const desk = createPurchaseDesk({
      ledger,
      client,
      ...(accounts ? { accounts } : {}),
      ...options.desk,
    });
    return { db: db!, ledger, accounts, desk };
  };
  const first = await open();
  return {
    dir,
    path,
    db: first.db,
    sandbox,
    client,
    ledger: first.ledger,
    desk: first.desk,
    records: createPurchaseRecords(
      first.ledger,
      undefined,
      () => first.desk.unrecordedCount(),
      first.accounts,
    ),
    clock,
    secondDesk: async () => (await open()).desk,
    starsDraft: (overrides = {}) =>
      first.ledger.createDraft({
        kind: "stars",
        recipient: username("alice_1"),
        quantity: 100,
        paymentMethod: "ton",
        requester: { userId: 1, chatId: 1, chatType: "private" },
        balanceBefore: { ton: "100", usdt: "1000" },
        ...overrides,
      }),
  };
}
