/**
 * Online backups of a live SQLite file (better-sqlite3's backup API) while another connection
 * keeps writing: each copy checked, owner-only, the newest kept; a backup that cannot be made
 * changes nothing; the schedule tells the admins once per run of failures.
 */
import {
  chmodSync,
  copyFileSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { silentLogger } from "../../src/shared/logger.js";
import { BackupSchedule } from "../../src/run/backups.js";
import { backupDatabase, backupProblem, listBackups } from "../../src/storage/sqlite/backup.js";
import { openDatabase, openSqliteStorage } from "../../src/storage/sqlite/open.js";
import { ledgerFixture } from "../helpers/ledger.js";
import { tempDir } from "../helpers/temp-dir.js";

const HOUR = 3_600_000;

describe("backupDatabase", () => {
  it("copies a live database while another connection writes, checked, owner-only, newest kept", async () => {
    const { path, db, draft } = await ledgerFixture();
    for (let i = 0; i < 50; i++) await draft();
    const writer = openDatabase(path);
    onTestFinished(() => {
      writer.close();
    });
    const dir = join(tempDir("giftbot-backups-"), "backups");
    const taken: string[] = [];
    for (let i = 0; i < 3; i++) {
      // Another connection commits while the copy runs: the copy is consistent all the same.
      const copying = backupDatabase(db, dir, { keep: 2, now: Date.UTC(2030, 0, 1, i) });
      writer
        .prepare("INSERT INTO kv (namespace, key, value, updated_at) VALUES ('t', ?, '1', 0)")
        .run(`k${i}`);
      const result = await copying;
      taken.push(result.path);
      expect(result.bytes).toBe(statSync(result.path).size);
      expect(statSync(result.path).mode & 0o777).toBe(0o600);
      expect(backupProblem(result.path)).toBeUndefined();
    }
    expect(listBackups(dir)).toEqual(taken.slice(1));
    expect(taken[0]).toMatch(/giftbot-20300101T000000Z\.sqlite$/);
    const copy = openDatabase(taken[2] ?? "");
    onTestFinished(() => {
      copy.close();
    });
    expect(copy.prepare("SELECT COUNT(*) FROM purchase_intents").pluck().get()).toBe(50);
  });

  it("leaves nothing beside the backups (no -wal, -shm or .partial files), on the first and the next", async () => {
    const { db, draft } = await ledgerFixture();
    await draft();
    const dir = join(tempDir("giftbot-backups-"), "backups");
    const first = await backupDatabase(db, dir, { keep: 5, now: Date.UTC(2030, 0, 1) });
    await draft();
    const second = await backupDatabase(db, dir, { keep: 5, now: Date.UTC(2030, 0, 2) });
    expect(readdirSync(dir).sort()).toEqual(
      [first.path, second.path].map((path) => path.slice(dir.length + 1)).sort(),
    );
    // Checking a backup (as the restore does) leaves nothing beside it either, even one an
    // older bot wrote in WAL mode.
    expect(backupProblem(second.path)).toBeUndefined();
    const walMode = join(dir, "older.sqlite");
    await db.backup(walMode);
    expect(backupProblem(walMode)).toBeUndefined();
    expect(readdirSync(dir).filter((name) => /-wal$|-shm$|partial/.test(name))).toEqual([]);
  });

  it("the database, its -wal and -shm, its lock file and its backups are owner-only; folders made are 0700", async () => {
    const root = tempDir("giftbot-modes-");
    const path = join(root, "data", "bot.sqlite");
    const storage = await openSqliteStorage(path);
    onTestFinished(() => storage.close());
    await storage.keyValues<number>("t").write("k", 1);
    const modeOf = (file: string) => statSync(file).mode & 0o777;
    expect(modeOf(join(root, "data"))).toBe(0o700);
    for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}.lock`]) {
      expect([file, modeOf(file)]).toEqual([file, 0o600]);
    }
    const backup = await storage.backup?.(join(root, "data", "backups"), { keep: 1, now: 0 });
    expect(modeOf(join(root, "data", "backups"))).toBe(0o700);
    expect(modeOf(backup?.path ?? "")).toBe(0o600);
    // A database an older bot left readable by everyone is made owner-only when opened.
    const older = join(root, "older.sqlite");
    copyFileSync(backup?.path ?? "", older);
    chmodSync(older, 0o644);
    const reopened = await openSqliteStorage(older);
    onTestFinished(() => reopened.close());
    expect(modeOf(older)).toBe(0o600);
  });

  it("into a folder that cannot be made: throws, leaves no partial file and keeps the older backups", async () => {
    const { db } = await ledgerFixture();
    const root = tempDir("giftbot-backups-");
    const dir = join(root, "backups");
    await backupDatabase(db, dir, { keep: 5, now: Date.UTC(2030, 0, 1) });
    // As root a read-only mode stops nothing: a path through a regular file fails for anyone.
    const blocked = join(root, "not-a-folder");
    writeFileSync(blocked, "");
    await expect(
      backupDatabase(db, join(blocked, "backups"), { keep: 5, now: Date.UTC(2030, 0, 2) }),
    ).rejects.toThrow(/ENOTDIR/);
    expect(listBackups(dir)).toHaveLength(1);
    expect(readFileSync(blocked, "utf8")).toBe("");
  });

  it("a copy that does not check out is named: damaged, not a giftbot database, too new", () => {
    const dir = tempDir("giftbot-backups-");
    const garbage = join(dir, "garbage.sqlite");
    writeFileSync(garbage, "this is not a database at all, just some bytes ".repeat(100));
    expect(backupProblem(garbage)).toMatch(/not a database|malformed/);
    const empty = join(dir, "empty.sqlite");
    writeFileSync(empty, "");
    expect(backupProblem(empty)).toBe("not a giftbot database");
  });
});

describe("BackupSchedule", () => {
  it("tells the admins once per run of failures, and again after a backup worked", async () => {
    let fail = true;
    const told: unknown[] = [];
    const schedule = new BackupSchedule({
      settings: { intervalHours: 0, dir: "/nowhere", keep: 3 },
      take: () =>
        fail
          ? Promise.reject(new Error("ENOSPC: no space left on device"))
          : Promise.resolve({ path: "/nowhere/b.sqlite", bytes: 1, at: 5 * HOUR }),
      logger: silentLogger,
      onFailing: (error) => told.push(error),
    });
    await expect(schedule.takeNow()).rejects.toThrow(/ENOSPC/);
    await expect(schedule.takeNow()).rejects.toThrow(/ENOSPC/);
    expect(told).toHaveLength(1);
    expect(schedule.lastGoodAt).toBeUndefined();
    fail = false;
    expect((await schedule.takeNow()).path).toBe("/nowhere/b.sqlite");
    expect(schedule.lastGoodAt).toBe(5 * HOUR);
    fail = true;
    await expect(schedule.takeNow()).rejects.toThrow(/ENOSPC/);
    expect(told).toHaveLength(2);
  });
});
