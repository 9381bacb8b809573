/**
 * The composition root in-process, against the emulator and the sandbox: what `start` does
 * with purchases a previous process left in flight, and what `stop` waits for.
 */
import { join } from "node:path";
import { mnemonicNew } from "@ton/crypto";
import { describe, expect, it, onTestFinished } from "vitest";
import { openApp } from "../../src/app/index.js";
import { loadConfig } from "../../src/config/index.js";
import { silentLogger } from "../../src/shared/logger.js";
import { startSandbox } from "../../tools/sandbox/server.js";
import { openSqliteStorage } from "../../src/storage/sqlite/open.js";
import { TelegramEmulatorClient } from "../../tools/telegram-emulator/client.js";
import {
  DEMO_ADMIN,
  DEMO_USER,
  setUpDemoPeople,
} from "../../tools/telegram-emulator/demo-people.js";
import { startTelegramEmulator } from "../../tools/telegram-emulator/server.js";
import { Person, starsSummary } from "../helpers/built-process.js";
import { tempDir } from "../helpers/temp-dir.js";

async function world(overrides: Record<string, string> = {}) {
  const dir = tempDir("giftbot-app-");
  const sandbox = await startSandbox({ quota: false });
  onTestFinished(() => sandbox.close());
  const emulator = await startTelegramEmulator();
  onTestFinished(() => emulator.close());
  await setUpDemoPeople(new TelegramEmulatorClient(emulator.url));
  const databasePath = join(dir, "giftbot.sqlite");
  const config = await loadConfig(
    {
      BOT_TOKEN: emulator.token,
      TELEGRAM_API_ROOT: emulator.apiRoot,
      GIFT_API_BASE_URL: sandbox.url,
      WALLET_MNEMONIC: (await mnemonicNew(24)).join(" "),
      MARKETPLACE_COOKIE: "stel_ssid=app-test",
      ADMIN_IDS: String(DEMO_ADMIN.id),
      ALLOWED_USER_IDS: String(DEMO_USER.id),
      DATABASE_PATH: databasePath,
      ...overrides,
    },
    { envFile: false },
  );
  return { sandbox, emulator, config, databasePath };
}

/**
 * What an earlier process left behind: an intent in `sending` (it died mid-purchase, `claim`)
 * or in `queued` (it promised to send it in its turn, `queue`).
 */
async function leaveIntent(
  databasePath: string,
  recipient: string,
  step: "claim" | "queue",
): Promise<string> {
  const db = await openSqliteStorage(databasePath);
  try {
    const ledger = db.openLedger({});
    const draft = await ledger.createDraft({
      kind: "stars",
      recipient,
      quantity: 50,
      paymentMethod: "ton",
      requester: { userId: DEMO_USER.id, chatId: DEMO_USER.id, chatType: "private" },
      balanceBefore: undefined,
    });
    const left =
      step === "claim"
        ? await ledger.claim(draft.id, DEMO_USER.id)
        : await ledger.queue(draft.id, DEMO_USER.id);
    if (!left.ok) throw new Error(`${step} refused: ${left.reason}`);
    return draft.id;
  } finally {
    await db.close();
  }
}

/** The intent's status in the file, read on a connection of its own. */
async function statusIn(databasePath: string, id: string): Promise<string | undefined> {
  const db = await openSqliteStorage(databasePath);
  try {
    return (await db.openLedger({}).get(id))?.status;
  } finally {
    await db.close();
  }
}

describe("openApp", () => {
  it("at start, an interrupted purchase becomes unconfirmed; its requester and the admins are told", async () => {
    const { emulator, sandbox, config, databasePath } = await world();
    const id = await leaveIntent(databasePath, "lost_gift", "claim");
    const app = await openApp(config, { logger: silentLogger });
    onTestFinished(() => app.stop());
    await app.start();

    expect((await app.records.getIntent(id))?.status).toBe("unconfirmed");
    // No summary message is known for it: the person gets a new message.
    const told = await emulator.waitFor((e) =>
      e.chat(DEMO_USER.id).find((m) => m.fromBot && /outcome is unknown/.test(m.text)),
    );
    expect(told.text).toContain("@lost_gift");
    await emulator.waitFor((e) =>
      e
        .chat(DEMO_ADMIN.id)
        .find((m) => /unknown outcome: 50 Telegram Stars to @lost_gift/.test(m.text)),
    );
    expect(sandbox.purchaseRequests()).toHaveLength(0);
    expect(await app.health()).toMatchObject({ database: "up" });
  });

  it("a stop that comes while connecting keeps what an earlier run queued, sends nothing, and leaves nothing running", async () => {
    const { sandbox, config, databasePath } = await world();
    const queued = await leaveIntent(databasePath, "queued_gift", "queue");

    const app = await openApp(config, { logger: silentLogger });
    const started = app.start();
    await app.stop();
    await started;
    // The promise stands for the next start; nothing went out, nothing takes updates.
    expect(sandbox.purchaseRequests()).toHaveLength(0);
    expect(app.storage.isOpen()).toBe(false);
    expect(app.webhookServer).toBeUndefined();
    expect(await statusIn(databasePath, queued)).toBe("queued");
  });

  it("a stop that comes while the interrupted purchases are told of keeps the queued confirmation for the next start", async () => {
    const { emulator, sandbox, config, databasePath } = await world();
    const queued = await leaveIntent(databasePath, "queued_gift", "queue");
    const interrupted = await leaveIntent(databasePath, "lost_gift", "claim");

    const app = await openApp(config, { logger: silentLogger });
    const started = app.start();
    // The recovery is telling the requester; the queued confirmation is next in line.
    await emulator.waitFor((e) =>
      e.chat(DEMO_USER.id).find((m) => m.fromBot && /outcome is unknown/.test(m.text)),
    );
    await app.stop();
    await started;
    expect(await statusIn(databasePath, interrupted)).toBe("unconfirmed");
    // Not closed as refused (purchases are frozen now): the next start decides it.
    expect(await statusIn(databasePath, queued)).toBe("queued");
    expect(sandbox.purchaseRequests()).toHaveLength(0);
    expect(app.storage.isOpen()).toBe(false);
  });

  it("stop waits for an update in flight, then closes the database; a second stop is the same", async () => {
    const { emulator, config } = await world();
    const app = await openApp(config, { logger: silentLogger });
    await app.start();
    emulator.sendText(DEMO_USER.id, DEMO_USER.id, "/start");
    await emulator.waitFor(() => app.updates.inFlight() > 0);
    const stopped = app.stop();
    expect(app.stop()).toBe(stopped);
    await stopped;
    expect(app.updates.inFlight()).toBe(0);
    expect(emulator.chat(DEMO_USER.id).some((m) => m.fromBot && /^Hi, Uma!/.test(m.text))).toBe(
      true,
    );
    expect(app.storage.isOpen()).toBe(false);
    expect(await app.health()).toMatchObject({ status: "down", database: "down" });
  });

  it("a purchase that ends unconfirmed while stopping still gets its admin message, with the balance now", async () => {
    // The service answers after the client's deadline: the purchase is in flight when stop
    // begins and ends unconfirmed while the updates drain.
    const { emulator, sandbox, config } = await world({ SERVICE_TIMEOUT_MS: "1000" });
    const app = await openApp(config, { logger: silentLogger });
    onTestFinished(() => app.stop());
    await app.start();
    const uma = new Person(emulator, DEMO_USER.id);
    const summary = await starsSummary(uma, "alice_friend");
    sandbox.injectFault({ type: "delay", ms: 3_000 }, { path: "/buy-stars/" });
    emulator.pressButtonLabeled(DEMO_USER.id, DEMO_USER.id, summary.id, "✅ Confirm");
    await sandbox.waitForRequests(1, "/buy-stars/");

    await app.stop();
    const told = emulator
      .chat(DEMO_ADMIN.id)
      .find((m) => /unknown outcome: 50 Telegram Stars to @alice_friend/.test(m.text));
    // The evidence was gathered through the client before it closed.
    expect(told?.text).toMatch(/Balance now: [\d,.]+ TON, [\d,.]+ USDT/);
    expect(uma.message(summary.id)?.text).toMatch(/outcome is unknown/);
    expect(sandbox.purchaseRequests()).toHaveLength(1);
    expect(app.storage.isOpen()).toBe(false);
  });

  it("a stranger is told to ask ADMIN_CONTACT for access, with their user id; nothing is bought", async () => {
    const { emulator, sandbox, config } = await world({ ADMIN_CONTACT: "@shop_support" });
    const app = await openApp(config, { logger: silentLogger });
    onTestFinished(() => app.stop());
    await app.start();
    emulator.addUser({ id: 4242, first_name: "Stranger", username: "stranger_x" });

    const sent = emulator.sendText(4242, 4242, "/stars");
    const reply = await emulator.nextBotMessage(4242, { after: sent.messageId });
    expect(reply.text).toMatch(/not open to you/);
    expect(reply.text).toMatch(/ask \u2068?@shop_support\u2069? and give them your user id/);
    expect(reply.text).toContain("4242");
    expect(reply.text).not.toContain("the bot's admins");
    expect(sandbox.purchaseRequests()).toHaveLength(0);
  });
});
