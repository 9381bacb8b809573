/**
 * The ledger outlives its disk, done to the built process: an admin's /backup while a purchase
 * is in flight (nothing left beside it, everything owner-only), a SIGKILL, `npm run restore`
 * into a fresh folder and a bot started on it; a damaged or too-new database stopping the bot
 * with one line and an exit code of its own; one restore at a time on a file (refused under a
 * bot that has the file open, lease or not; a bot not opening a file being restored; a bot
 * whose file is replaced under it stopping); and a restore under which everything had been sent
 * already, after which nothing is bought again.
 */
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  truncateSync,
  writeSync,
  closeSync,
} from "node:fs";
import { type AddressInfo, createServer, type Socket } from "node:net";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { backupDatabase } from "../../src/storage/sqlite/backup.js";
import type { Db } from "../../src/storage/sqlite/driver.js";
import { tryExclusive } from "../../src/storage/sqlite/file-lock.js";
import { openDatabase, openSqliteStorage } from "../../src/storage/sqlite/open.js";
import type { ChatViewMessage } from "../../tools/telegram-emulator/types.js";
import { tempDir } from "../helpers/temp-dir.js";
import {
  buttons,
  callbackData,
  DEMO_ADMIN,
  DEMO_USER,
  Person,
  spawnBot,
  starsSummary,
  startBot,
  startWorld,
  WAIT_MS,
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
    // Nothing beside it (a check's -wal and -shm used to stay), and everything owner-only.
    expect(readdirSync(dirname(backupPath))).toEqual([basename(backupPath)]);
    expect(statSync(dirname(backupPath)).mode & 0o777).toBe(0o700);
    for (const file of ["", "-wal", "-shm", ".lock"].map((end) => world.databasePath + end)) {
      expect([file, statSync(file).mode & 0o777]).toEqual([file, 0o600]);
    }

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

/** A Telegram that takes connections and never answers: a bot stays connecting, holding no lease. */
async function silentTelegram(): Promise<string> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/** A checked backup of a fresh database, in its own folder. */
async function someBackup(): Promise<string> {
  const dir = tempDir("giftbot-some-backup-");
  const db = openDatabase(join(dir, "source.sqlite"));
  try {
    return (await backupDatabase(db, join(dir, "backups"), { keep: 1, now: Date.now() })).path;
  } finally {
    db.close();
  }
}

function restoreInto(backup: string, database: string) {
  return spawnSync("node", [join(ROOT, "dist/src/restore.js"), backup, "--database", database], {
    encoding: "utf8",
  });
}

describe("one database file, one restore at a time", { timeout: 60_000 }, () => {
  it("a restore is refused while a bot has the file open, though it holds no lease yet (Telegram silent)", async () => {
    const world = await startWorld();
    const bot = spawnBot(await world.env({ TELEGRAM_API_ROOT: await silentTelegram() }));
    await bot.waitForLog((line) => line.msg === "giftbot starting");
    const refused = restoreInto(await someBackup(), world.databasePath);
    expect(refused.status, refused.stdout).toBe(5);
    expect(refused.stderr).toMatch(/a bot holds .+giftbot\.sqlite .*: stop it first, then restore/);
    expect(readdirSync(world.dir).filter((name) => name.includes("before-restore"))).toEqual([]);

    // Once that bot is gone (killed: the kernel lets its lock go), the restore goes through.
    bot.child.kill("SIGKILL");
    await bot.exited;
    const restored = restoreInto(await someBackup(), world.databasePath);
    expect(restored.status, restored.stderr).toBe(0);
  });

  it("a bot does not open the file while a restore holds it: one line, exit 6", async () => {
    const world = await startWorld();
    const restoring = tryExclusive(world.databasePath);
    onTestFinished(() => restoring?.release());
    expect(restoring).toBeDefined();
    const ended = await exitOn(world, world.databasePath);
    expect(ended.code, ended.output).toBe(6);
    expect(ended.output.trim()).toBe(
      `giftbot cannot start: the database ${world.databasePath} is being restored (${world.databasePath}.lock is held by npm run restore): start the bot once the restore has finished`,
    );
  });

  it("a bot whose database file is replaced under it stops, non-zero, saying so", async () => {
    const world = await startWorld();
    const bot = await startBot(world);
    const replacement = `${world.databasePath}.new`;
    copyFileSync(await someBackup(), replacement);
    renameSync(replacement, world.databasePath);
    const ended = await bot.exited;
    expect(ended.code).toBe(1);
    expect(
      bot.logs.some(
        (line) =>
          line.level === 60 &&
          String(line.msg).includes(`${world.databasePath} was replaced by another file`),
      ),
      bot.output(),
    ).toBe(true);
  });
});

/** Generous enough limits that only what the test does stops a giveaway. */
const ROOMY = { LIMIT_STARS_PER_USER_DAY: "100000", LIMIT_STARS_PER_DAY: "1000000" };
const SIX = ["win_one", "win_two", "win_three", "win_four", "win_five", "win_six"];

/** /giveaway, stars, 50 each, the list, Confirm: resolves with the batch's progress message. */
async function sixRecipientGiveaway(ada: Person): Promise<ChatViewMessage> {
  const kind = await ada.say("/giveaway");
  const amount = await ada.pressForMessage(kind, "⭐ Stars");
  await ada.pressForMessage(amount, "⭐ 50");
  await ada.say(SIX.join(" "));
  const card = await ada.waitForMessage(/^🎁 Giveaway: 50 Telegram Stars for each recipient\n/);
  const after = ada.lastMessageId();
  await ada.press(card, "✅ Confirm");
  return ada.emulator.waitFor(
    (e) => e.chat(ada.chatId).find((m) => m.id > after && m.text.startsWith("🎁 Giveaway:")),
    { timeoutMs: WAIT_MS },
  );
}

/** Presses the button whose data is `data` on message `id` (as a client whose screen is old). */
async function pressData(person: Person, id: number, data: string): Promise<string | undefined> {
  const { callbackQueryId } = person.emulator.pressButton(person.userId, person.chatId, id, data);
  const answer = await person.emulator.waitFor(
    (e) => e.callbackAnswers.find((a) => a.callbackQueryId === callbackQueryId),
    { timeoutMs: WAIT_MS },
  );
  return answer.text;
}

describe("a restore under which everything was sent already", { timeout: 90_000 }, () => {
  it("a giveaway backed up after 2 of 6 and a person's open summary, all sent since: after the restore nothing is bought again and the admins are told", async () => {
    const world = await startWorld();
    let bot = await startBot(world, { ...ROOMY, BACKUP_INTERVAL_HOURS: "0" });
    const ada = new Person(world.emulator, DEMO_ADMIN.id);
    const uma = new Person(world.emulator, DEMO_USER.id);
    const summary = await starsSummary(uma, "zed_friend");
    const confirmData = callbackData(summary, "✅ Confirm");

    // Each request is held a while: Pause comes while the second is out, so the batch stops
    // after it, with 2 of 6 sent, and the backup is taken then.
    world.sandbox.injectFault({ type: "delay", ms: 1_000 }, { path: STARS, times: 2 });
    const progress = await sixRecipientGiveaway(ada);
    await world.sandbox.waitForRequests(2, STARS);
    const resumeData = callbackData(
      await ada.emulator.waitFor(
        (e) => e.chat(ada.chatId).find((m) => m.id === progress.id && buttons(m).length > 0),
        { timeoutMs: WAIT_MS },
      ),
      "⏸ Pause",
    ).replace(":pause:", ":resume:");
    await ada.press(progress, "⏸ Pause");
    // Paused at once; the second recipient's answer comes after, and only then the backup.
    await ada.waitForText(progress.id, /Delivered: 2 ·[\s\S]*⏸ Paused\./);
    expect(world.sandbox.purchaseRequests()).toHaveLength(2);
    const backupPath = /Backed up: (\S+) \(/.exec((await ada.say("/backup")).text)?.[1] ?? "";

    // Everything is sent after the backup: the giveaway's other 4, and Uma's gift.
    expect(await pressData(ada, progress.id, resumeData)).toBe("Going on from the next recipient.");
    await ada.waitForMessage(/^🎁 Giveaway over: 6 delivered/);
    await uma.press(summary, "✅ Confirm");
    await uma.waitForText(summary.id, /Delivered: 50 Telegram Stars to @zed_friend/);
    expect(world.sandbox.purchaseRequests()).toHaveLength(7);

    bot.child.kill("SIGTERM");
    expect((await bot.exited).code).toBe(0);
    const restore = restoreInto(backupPath, world.databasePath);
    expect(restore.status, restore.stderr).toBe(0);
    expect(restore.stdout).toMatch(
      /1 giveaway\(s\) stopped for good.+\(4 recipient\(s\) not sent\)/,
    );
    expect(restore.stdout).toContain("1 open purchase summary(ies) expired");

    bot = await startBot(world, ROOMY);
    const notice = await ada.waitForMessage(/^♻️ The database was restored from a backup/);
    expect(notice.text).toContain("Giveaway of 50 Telegram Stars for each recipient, started");
    expect(notice.text).toContain("recipients not sent: 4. To send them, start a new giveaway.");
    expect(notice.text).toContain("Open purchase summaries expired: 1.");
    await ada.waitForText(progress.id, /Stopped for good: the database was restored/);

    // Resume on the giveaway's message, and Confirm on Uma's old summary, buy nothing.
    expect(await pressData(ada, progress.id, resumeData)).toMatch(
      /stopped by a restore from a backup: nothing more is sent from it/,
    );
    expect(await pressData(uma, summary.id, confirmData)).toMatch(/This summary has expired/);
    await ada.waitForText(progress.id, /Stopped for good/);
    expect(world.sandbox.purchaseRequests()).toHaveLength(7);
    expect(bot.output()).not.toMatch(/"level":50/);
  });
});
