/**
 * The built bot with DATABASE_URL: PostgreSQL keeps everything (purchases, conversations,
 * settings, access lists), no SQLite file is written, and neither a secret nor the URL's
 * password reaches the database or the logs.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { describe, expect, it, onTestFinished } from "vitest";
import { openPostgresStorage } from "../../src/storage/postgres/open.js";
import {
  buttons,
  DEMO_ADMIN,
  DEMO_USER,
  Person,
  spawnBot,
  startBot,
  startWorld,
  WAIT_MS,
} from "../helpers/built-process.js";
import { freshPostgresDatabase } from "../helpers/postgres.js";

/** Trust authentication ignores a password: this one only has to never be seen again. */
const URL_PASSWORD = "pw-canary-7Qx2ZpLm";

function withPassword(url: string): string {
  const parsed = new URL(url);
  parsed.password = URL_PASSWORD;
  return parsed.toString();
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Every row of every table of the bot's schema, as text (for the secret scan). */
async function everyRow(url: string): Promise<string> {
  const tables = await query<{ table_name: string }>(
    url,
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
  );
  let text = "";
  for (const { table_name } of tables) {
    const rows = await query(url, `SELECT * FROM "${table_name}"`);
    text += JSON.stringify(rows);
  }
  return text;
}

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

describe("the bot process on PostgreSQL (DATABASE_URL)", () => {
  it("keeps the purchase, the conversation and the settings in PostgreSQL, writes no SQLite file, and stores no secret", async () => {
    const world = await startWorld();
    const url = await freshPostgresDatabase();
    const bot = await startBot(world, { DATABASE_URL: withPassword(url), LOG_LEVEL: "debug" });
    const uma = new Person(world.emulator, DEMO_USER.id);
    const admin = new Person(world.emulator, DEMO_ADMIN.id);

    // A conversation in progress is kept in PostgreSQL between its steps.
    const ask = await uma.say("/stars");
    expect(ask.text).toMatch(/Who should get the stars/);
    const conversations = await query<{ namespace: string }>(url, "SELECT namespace FROM kv");
    expect(conversations.length).toBeGreaterThan(0);

    const amount = await uma.say("@alice_friend");
    const summary = await uma.pressForMessage(amount, "⭐ 100");
    expect(buttons(summary)[0]).toEqual(["✅ Confirm", "✖️ Cancel"]);
    await uma.press(summary, "✅ Confirm");
    await uma.waitForText(summary.id, /Delivered/);
    expect(world.sandbox.purchaseRequests()).toHaveLength(1);

    const intents = await query<{ recipient: string; status: string }>(
      url,
      "SELECT recipient, status FROM purchase_intents",
    );
    expect(intents).toEqual([{ recipient: "alice_friend", status: "succeeded" }]);

    // An access grant, kept in PostgreSQL.
    const allowed = await admin.say("/allow 777001");
    expect(allowed.text).toMatch(/777001/);
    expect(await query(url, "SELECT id FROM allowed_users")).toEqual([{ id: "777001" }]);

    // The purchase survives a restart: it is the database's, not the process's.
    bot.child.kill("SIGTERM");
    expect((await bot.exited).code).toBe(0);
    await startBot(world, { DATABASE_URL: withPassword(url) });
    const history = await uma.say("/history");
    expect(history.text).toMatch(/100 Telegram Stars to @alice_friend: delivered/);

    expect(existsSync(world.databasePath)).toBe(false);
    expect(readdirSync(world.dir).filter((name) => name.includes("sqlite"))).toEqual([]);
    const stored = await everyRow(url);
    const env = await world.env();
    for (const secret of [env.WALLET_MNEMONIC, env.MARKETPLACE_COOKIE, env.BOT_TOKEN]) {
      expect(stored).not.toContain(secret);
    }
    expect(stored).not.toContain(URL_PASSWORD);
    expect(bot.output()).not.toContain(URL_PASSWORD);
    expect(bot.output()).toMatch(/postgresql:\/\/127\.0\.0\.1:\d+\/t_/);
  });

  it(
    "a database that cannot be reached: one line saying where (no password), exit code 5, no SQLite file",
    async () => {
      const world = await startWorld();
      // A port nobody listens on (the discard port is never a PostgreSQL server here).
      const unreachable = `postgres://giftbot:${URL_PASSWORD}@127.0.0.1:9/giftbot`;
      const bot = spawnBot(await world.env({ DATABASE_URL: unreachable }));
      const { code } = await bot.exited;
      expect(code).toBe(5);
      expect(bot.output()).toMatch(
        /giftbot cannot start: the PostgreSQL database at postgresql:\/\/127\.0\.0\.1:9\/giftbot cannot be reached or migrated/,
      );
      expect(bot.output()).not.toContain(URL_PASSWORD);
      expect(existsSync(world.databasePath)).toBe(false);
    },
    WAIT_MS * 2,
  );

  it("npm run restore refuses to restore a SQLite backup while DATABASE_URL is set, unless --database names the file", () => {
    const restore = spawnSync("node", [join(ROOT, "dist/src/restore.js"), "backup.sqlite"], {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", DATABASE_URL: "postgres://giftbot@127.0.0.1:9/giftbot" },
    });
    expect(restore.status).toBe(2);
    expect(restore.stderr).toMatch(/DATABASE_URL is set: .+ restore it with pg_restore/);
    const named = spawnSync(
      "node",
      [join(ROOT, "dist/src/restore.js"), "missing.sqlite", "--database", "x.sqlite"],
      { encoding: "utf8", env: { PATH: process.env.PATH ?? "", DATABASE_URL: "postgres://h/d" } },
    );
    expect(named.stderr).toMatch(/no such file: .+missing\.sqlite/);
  });
});

describe("npm run restore -- --after-pg-restore", { timeout: 60_000 }, () => {
  function afterPgRestore(url: string) {
    return spawnSync("node", [join(ROOT, "dist/src/restore.js"), "--after-pg-restore"], {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", DATABASE_URL: url },
    });
  }

  it("marks a database pg_restore put back as a restore does, and is refused while a live bot holds the lease there", async () => {
    const url = await freshPostgresDatabase();
    const storage = await openPostgresStorage(url, { maxConnections: 2 });
    onTestFinished(() => storage.close());
    const ledger = storage.openLedger({});
    const person = { userId: DEMO_USER.id, chatId: DEMO_USER.id, chatType: "private" as const };
    const draft = (recipient: string) =>
      ledger.createDraft({
        ...{ kind: "stars", recipient, quantity: 50, paymentMethod: "ton" },
        ...{ requester: person, balanceBefore: undefined },
      });
    // What the dump holds: a purchase in flight, a confirmation queued behind it, a summary
    // open, and a giveaway with 3 recipients left to send.
    const inFlight = await draft("dana_friend");
    const queued = await draft("erin_friend");
    const open = await draft("zed_friend");
    expect((await ledger.claim(inFlight.id, person.userId)).ok).toBe(true);
    expect((await ledger.queue(queued.id, person.userId)).ok).toBe(true);
    const batch = await storage.giveaways.createBatch(
      {
        ...{ kind: "stars", quantity: 50, paymentMethod: "ton", adminId: DEMO_ADMIN.id },
        ...{ chatId: DEMO_ADMIN.id, recipients: ["win_a", "win_b", "win_c"] },
        balanceBefore: undefined,
      },
      Date.now(),
    );
    // A bot on another host holds the lease: the step is refused and changes nothing.
    expect(await storage.senderLease.acquire("elsewhere:1:abc", 60_000)).toMatchObject({
      epoch: 1,
    });
    const refused = afterPgRestore(withPassword(url));
    expect(refused.status, refused.stdout).toBe(5);
    expect(refused.stderr).toMatch(/a bot holds postgresql:\/\/.+ \(elsewhere:1:abc, until .+\)/);
    expect(refused.stderr).not.toContain(URL_PASSWORD);
    expect((await ledger.get(open.id))?.status).toBe("draft");

    await storage.senderLease.release("elsewhere:1:abc", 1);
    const marked = afterPgRestore(withPassword(url));
    expect(marked.status, marked.stderr).toBe(0);
    expect(marked.stdout).toContain(
      "2 purchase(s) in flight or waiting in the backup are now unknown",
    );
    expect(marked.stdout).toContain(`1 giveaway(s) stopped for good`);
    expect(marked.stdout).toContain(`${batch.id} (3 recipient(s) not sent)`);
    expect(marked.stdout).toContain("1 open purchase summary(ies) expired");
    expect(marked.stdout + marked.stderr).not.toContain(URL_PASSWORD);
    expect((await ledger.get(inFlight.id))?.status).toBe("unconfirmed");
    expect((await ledger.get(queued.id))?.outcomeDetail).toContain(
      "restored: the database was restored from a backup;",
    );
    expect((await ledger.get(open.id))?.status).toBe("expired");
    expect(await storage.giveaways.getBatch(batch.id)).toMatchObject({
      status: "stopped",
      stopReason: "restored",
    });
    expect(await storage.giveaways.nextBatchDraft(batch.id, Date.now())).toBeUndefined();
    // The start after it claims nothing from the dump: nothing is queued any more.
    expect(await ledger.queued()).toEqual([]);
    const notice = await storage.keyValues<{ stoppedBatches: unknown[] }>("restore").read("notice");
    expect(notice?.stoppedBatches).toHaveLength(1);
    // A new bot's lease starts past any epoch a bot of before the restore could hold.
    expect((await storage.senderLease.acquire("new", 30_000))?.epoch).toBeGreaterThan(1000);
  });

  it("without DATABASE_URL it says what it needs", () => {
    const bare = spawnSync("node", [join(ROOT, "dist/src/restore.js"), "--after-pg-restore"], {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "" },
    });
    expect(bare.status).toBe(2);
    expect(bare.stderr).toMatch(/--after-pg-restore needs DATABASE_URL/);
  });
});
