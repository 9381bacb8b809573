/**
 * The ledger outlives its disk, done to the built process: an admin's /backup while a purchase
 * is in flight, a SIGKILL, `npm run restore` into a fresh folder and a bot started on it; and a
 * damaged or too-new database stopping the bot with one line and an exit code of its own.
 */
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  openSync,
  readFileSync,
  statSync,
  truncateSync,
  writeSync,
  closeSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { openDatabase, openSqliteStorage } from "../../src/storage/sqlite/open.js";
import type { Db } from "../../src/storage/sqlite/driver.js";
import { tempDir } from "../helpers/temp-dir.js";
import {
  DEMO_ADMIN,
  DEMO_USER,
  Person,
  spawnBot,
  starsSummary,
  startBot,
  startWorld,
  type World,
} from "../helpers/built-process.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const STARS = "/buy-stars/";

/** The intents of the database at `path`, newest first. */
async function intentsIn(path: string) {
  const storage = await openSqliteStorage(path);
  try {
    return await storage.openLedger({}).recent({ limit: 100 });
  } finally {
    await storage.close();
  }
}

/** Starts the bot on `path` and resolves with how it exited (it must not start). */
async function exitOn(world: World, path: string) {
  const bot = spawnBot(await world.env({ DATABASE_PATH: path }));
  return { ...(await bot.exited), output: bot.output() };
}

/** A database with enough rows to span many pages, closed. */
async function filledDatabase(path: string): Promise<void> {
  let db: Db | undefined;
  const storage = await openSqliteStorage(path, (opened) => (db = opened));
  const ledger = storage.openLedger({});
  for (let i = 0; i < 300; i++) {
    await ledger.createDraft({
      kind: "stars",
      recipient: `user_${String(i).padStart(6, "0")}` as never,
      quantity: 50,
      paymentMethod: "ton",
      requester: { userId: 1000 + i, chatId: 1000 + i, chatType: "private" },
      balanceBefore: { ton: "100", usdt: "1000" },
    });
  }
  db?.pragma("wal_checkpoint(TRUNCATE)");
  await storage.close();
}

describe("a database the bot cannot use stops it with one line", { timeout: 60_000 }, () => {
  it("truncated, random bytes in the middle, or from a newer bot: exit 3, 3 and 4, naming the file and the restore", async () => {
    const world = await startWorld();
    const dir = tempDir("giftbot-damaged-");
    const good = join(dir, "good.sqlite");
    await filledDatabase(good);

    const truncated = join(dir, "truncated.sqlite");
    copyFileSync(good, truncated);
    truncateSync(truncated, Math.floor(statSync(truncated).size / 2));

    const scrambled = join(dir, "scrambled.sqlite");
    copyFileSync(good, scrambled);
    const middle = Math.floor(statSync(scrambled).size / 4096 / 2) * 4096;
    const fd = openSync(scrambled, "r+");
    writeSync(
      fd,
      Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131 + 7) % 256)),
      0,
      4096,
      middle,
    );
    closeSync(fd);

    const newer = join(dir, "newer.sqlite");
    copyFileSync(good, newer);
    const db = openDatabase(newer);
    db.pragma("user_version = 999");
    db.close();

    for (const [path, code] of [
      [truncated, 3],
      [scrambled, 3],
      [newer, 4],
    ] as const) {
      const ended = await exitOn(world, path);
      expect(ended.code, ended.output).toBe(code);
      const lines = ended.output.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`giftbot cannot start: the database ${path}`);
      expect(lines[0]).toContain("npm run restore -- <backup file>");
    }
    expect(readFileSync(newer).length).toBeGreaterThan(0);
  });
});

describe("/backup, a crash and a restore", { timeout: 90_000 }, () => {
  it("every finished purchase is back, the one in flight and the queued one are unknown and shown to the admins, nothing is resent", async () => {
    const world = await startWorld();
    const bot = await startBot(world, { BACKUP_INTERVAL_HOURS: "0" });
    const uma = new Person(world.emulator, DEMO_USER.id);
    const ada = new Person(world.emulator, DEMO_ADMIN.id);

    const delivered = await starsSummary(uma, "alice_friend");
    await uma.press(delivered, "✅ Confirm");
    await uma.waitForText(delivered.id, /Delivered/);
    world.sandbox.injectFault(
      { type: "status", status: 400, body: { ok: false, error: "USER_NOT_FOUND" } },
      { path: STARS },
    );
    const refused = await starsSummary(uma, "bob_friend");
    await uma.press(refused, "✅ Confirm");
    await uma.waitForText(refused.id, /Nothing was spent/);
    const cancelled = await starsSummary(uma, "carl_friend");
    await uma.press(cancelled, "✖️ Cancel");
    // A purchase in flight when the backup is taken, and still when the process dies.
    world.sandbox.injectFault({ type: "delay", ms: 60_000 }, { path: STARS });
    const inFlight = await starsSummary(uma, "dana_friend");
    await uma.press(inFlight, "✅ Confirm");
    await world.sandbox.waitForRequests(3, STARS);

    // A confirmation a process had queued behind that purchase (written by another connection,
    // as a second process on the file would): a promise the backup cannot tell was kept.
    const other = await openSqliteStorage(world.databasePath);
    const otherLedger = other.openLedger({});
    const promised = await otherLedger.createDraft({
      kind: "stars",
      recipient: "erin_friend",
      quantity: 50,
      paymentMethod: "usdt_ton",
      requester: { userId: DEMO_USER.id, chatId: DEMO_USER.id, chatType: "private" },
      balanceBefore: undefined,
    });
    expect((await otherLedger.queue(promised.id, DEMO_USER.id)).ok).toBe(true);
    await other.close();

    const answer = await ada.say("/backup");
    const backupPath = /Backed up: (\S+) \(/.exec(answer.text)?.[1] ?? "";
    expect(answer.text).toMatch(/^💾 Backed up: .+giftbot-\d{8}T\d{6}Z\.sqlite \(\d+ KB\)/);
    expect(statSync(backupPath).mode & 0o777).toBe(0o600);

    // While a bot holds the database, a restore onto it is refused.
    const refusedRestore = spawnSync(
      "node",
      [join(ROOT, "dist/src/restore.js"), backupPath, "--database", world.databasePath],
      {
        encoding: "utf8",
      },
    );
    expect(refusedRestore.status).toBe(5);
    expect(refusedRestore.stderr).toMatch(/a bot holds .+: stop it first, then restore/);

    bot.child.kill("SIGKILL");
    await bot.exited;

    const fresh = join(tempDir("giftbot-restored-"), "giftbot.sqlite");
    const restore = spawnSync(
      "npm",
      ["run", "--silent", "restore", "--", backupPath, "--database", fresh],
      {
        cwd: ROOT,
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
      },
    );
    expect(restore.status, restore.stderr).toBe(0);
    expect(restore.stdout).toContain(`restored ${backupPath} into ${fresh}`);
    expect(restore.stdout).toContain("there was no database before");
    expect(restore.stdout).toMatch(
      /2 purchase\(s\) in flight or waiting in the backup are now unknown/,
    );

    const byRecipient = new Map(
      (await intentsIn(fresh)).map((intent) => [intent.recipient, intent]),
    );
    expect(byRecipient.get("alice_friend")?.status).toBe("succeeded");
    expect(byRecipient.get("bob_friend")?.status).toBe("rejected");
    expect(byRecipient.get("carl_friend")?.status).toBe("cancelled");
    expect(byRecipient.get("dana_friend")).toMatchObject({ status: "unconfirmed" });
    expect(byRecipient.get("erin_friend")).toMatchObject({ status: "unconfirmed" });

    // A bot on the restored database: the admins get the unknown one to settle; nothing is resent.
    await startBot(world, { DATABASE_PATH: fresh });
    const alert = await ada.waitForMessage(/unknown outcome: 50 Telegram Stars to @dana_friend/);
    expect(alert.text).toContain("restored from a backup");
    await ada.waitForMessage(/unknown outcome: 50 Telegram Stars to @erin_friend/);
    expect(world.sandbox.purchaseRequests()).toHaveLength(3);
  });
});
