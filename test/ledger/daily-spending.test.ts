/**
 * SQLite's running daily totals: the triggers that keep them (the same statuses as the ledger's
 * rule), rows written by hand, and the totals filled from the purchases of a file the migration
 * carries forward. The totals through every kind of outcome, on both databases, are in the
 * ledger's suite (test/contract/ledger-queue-and-books.test.ts).
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { SPENDING_STATUSES } from "../../src/ledger/transitions.js";
import type { IntentStatus, PurchaseLedger } from "../../src/ledger/types.js";
import type { PurchaseOutcome } from "../../src/service/types.js";
import { migrationsFor } from "../../src/storage/migrations.js";
import { migrate, openSqliteStorage } from "../../src/storage/sqlite/open.js";
import { ledgerFixture, NOON } from "../helpers/ledger.js";
import { tempDir } from "../helpers/temp-dir.js";

const success: PurchaseOutcome = {
  kind: "success",
  value: { txHash: "abc123", data: {} },
  body: { ok: true, tx_hash: "abc123" },
};
const rejected: PurchaseOutcome = {
  kind: "rejected",
  status: 400,
  body: { ok: false, error: "BAD_RECIPIENT" },
  detail: "BAD_RECIPIENT",
};
/** What may have spent money, so counts against the daily limits (written out, not imported). */
const SPENDING: readonly IntentStatus[] = ["sending", "succeeded", "unconfirmed", "delivered"];

async function usageOf(ledger: PurchaseLedger, userId: number, now: number) {
  const { starsBot, premiumBot, starsUser, premiumUser } = await ledger.usage(userId, now);
  return { starsBot, premiumBot, starsUser, premiumUser };
}

describe("the running totals' triggers and the ledger's rule", () => {
  it("count exactly the statuses the ledger counts as spending (SPENDING_STATUSES)", async () => {
    const { db } = await ledgerFixture();
    const triggers = db
      .prepare<[], string>(
        "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'daily_spending%'",
      )
      .pluck()
      .all();
    expect(triggers).toHaveLength(3);
    // Every status list in a trigger is the same set as the ledger's: a migration that changed
    // one without the other would make the claim and the reports disagree.
    for (const sql of triggers) {
      const lists = [...sql.matchAll(/status IN \(([^)]*)\)/g)].map((m) =>
        (m[1] ?? "")
          .split(",")
          .map((s) => s.trim().replace(/'/g, ""))
          .sort(),
      );
      expect(lists.length).toBeGreaterThan(0);
      for (const list of lists) expect(list).toEqual([...SPENDING_STATUSES].sort());
    }
    expect([...SPENDING].sort()).toEqual([...SPENDING_STATUSES].sort());
  });
});

describe("the running daily totals", () => {
  it("count exactly the spending statuses, whoever writes the row", async () => {
    const { db, ledger } = await ledgerFixture();
    const all: IntentStatus[] = [
      "draft",
      "queued",
      "sending",
      "succeeded",
      "rejected",
      "unconfirmed",
      "delivered",
      "not_delivered",
      "cancelled",
      "expired",
    ];
    all.forEach((status, i) => {
      // Written by hand, as another process or a repair would: the triggers still count it.
      db.prepare(
        `INSERT INTO purchase_intents (id, kind, recipient, quantity, payment_method,
           requester_user_id, requester_chat_id, requester_chat_type, status, created_at,
           expires_at, sent_at, updated_at)
         VALUES (?, 'stars', 'alice_1', ?, 'usdt_ton', 5, 5, 'private', ?, ?, ?, ?, ?)`,
      ).run(`HandWritten_${i}_0123456789`, 10 ** i, status, NOON, NOON + 1, NOON, NOON);
    });
    const counted = all.filter((s) => SPENDING.includes(s));
    const expected = all.reduce((sum, s, i) => sum + (counted.includes(s) ? 10 ** i : 0), 0);
    expect(await ledger.usage(5, NOON)).toMatchObject({ starsBot: expected, starsUser: expected });
    // Deleting a counted row takes it out again.
    db.prepare("DELETE FROM purchase_intents WHERE status = 'delivered'").run();
    expect((await ledger.usage(5, NOON)).starsUser).toBe(expected - 10 ** all.indexOf("delivered"));
  });

  it("are filled from the purchases already in a file the migration carries forward", async () => {
    const path = join(tempDir(), "before-totals.sqlite");
    const totals = migrationsFor("sqlite").find((m) => m.sql.includes("daily_spending"));
    const previous = (totals?.version ?? 0) - 1;
    expect(previous).toBeGreaterThan(0);
    const old = new Database(path);
    old.pragma("journal_mode = WAL");
    migrate(old, previous);
    const insert = old.prepare(
      `INSERT INTO purchase_intents (id, kind, recipient, quantity, payment_method,
         requester_user_id, requester_chat_id, requester_chat_type, status, created_at,
         expires_at, sent_at, updated_at)
       VALUES (?, ?, 'alice_1', ?, 'usdt_ton', ?, ?, 'private', ?, ?, ?, ?, ?)`,
    );
    insert.run("OldStars_A_0123456789", "stars", 120, 1, 1, "succeeded", NOON, NOON, NOON, NOON);
    insert.run("OldStars_B_0123456789", "stars", 80, 2, 2, "unconfirmed", NOON, NOON, NOON, NOON);
    insert.run("OldStars_C_0123456789", "stars", 999, 2, 2, "rejected", NOON, NOON, NOON, NOON);
    insert.run("OldPremium_0123456789", "premium", 6, 2, 2, "delivered", NOON, NOON, NOON, NOON);
    old.close();

    const storage = await openSqliteStorage(path);
    expect(await usageOf(storage.openLedger({}), 2, NOON)).toEqual({
      starsBot: 200,
      premiumBot: 1,
      starsUser: 80,
      premiumUser: 1,
    });
    await storage.close();
  });

  it("let the claim judge the bot's daily limit from the totals", async () => {
    const { ledger, draft } = await ledgerFixture({ limits: { starsPerBotDay: 250 } });
    const first = await draft({ quantity: 200 });
    expect((await ledger.claim(first.id, 1)).ok).toBe(true);
    await ledger.recordOutcome(first.id, success);
    const second = await draft({
      quantity: 100,
      requester: { userId: 2, chatId: 2, chatType: "private" },
    });
    expect(await ledger.claim(second.id, 2)).toMatchObject({
      ok: false,
      reason: "limit",
      limit: "stars_per_bot_day",
    });
    // A refused purchase gives its share back: after one of 50 is refused, 50 more still fit.
    const third = await draft({ quantity: 50 });
    expect((await ledger.claim(third.id, 1)).ok).toBe(true);
    await ledger.recordOutcome(third.id, rejected);
    expect((await ledger.usage(undefined)).starsBot).toBe(200);
    const fourth = await draft({ quantity: 50 });
    expect((await ledger.claim(fourth.id, 1)).ok).toBe(true);
  });
});
