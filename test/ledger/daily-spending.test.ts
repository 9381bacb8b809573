import Database from "better-sqlite3";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Ledger } from "../../src/storage/sqlite/ledger.js";
import { SPENDING_STATUSES } from "../../src/ledger/transitions.js";
import { DAY_MS } from "../../src/shared/utc-day.js";
import type { IntentStatus } from "../../src/ledger/types.js";
import type { Ambiguous, PurchaseOutcome } from "../../src/service/types.js";
import { migrate, openDatabase } from "../../src/storage/sqlite/database.js";
import { migrations } from "../../src/storage/sqlite/migrations.js";
import { tempDir } from "../helpers/temp-dir.js";
import { ledgerFixture, NOON, starsDraft } from "../helpers/ledger.js";

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
const ambiguous: Ambiguous = {
  kind: "ambiguous",
  cause: "timeout",
  detail: "no answer in time",
};

/** What may have spent money, so counts against the daily limits (written out, not imported). */
const SPENDING: readonly IntentStatus[] = ["sending", "succeeded", "unconfirmed", "delivered"];

/** Today's usage summed straight from the intents, as the ledger did before the totals. */
function summedFromIntents(db: Database.Database, day: number, userId: number) {
  const statuses = SPENDING.map((s) => `'${s}'`).join(", ");
  return db
    .prepare<
      { day: number; userId: number },
      { starsBot: number; premiumBot: number; starsUser: number; premiumUser: number }
    >(
      `SELECT
         COALESCE(SUM(CASE WHEN kind = 'stars' THEN quantity END), 0) AS starsBot,
         COUNT(CASE WHEN kind = 'premium' THEN 1 END) AS premiumBot,
         COALESCE(SUM(CASE WHEN kind = 'stars' AND requester_user_id = @userId
           THEN quantity END), 0) AS starsUser,
         COUNT(CASE WHEN kind = 'premium' AND requester_user_id = @userId THEN 1 END) AS premiumUser
       FROM purchase_intents
       WHERE status IN (${statuses}) AND sent_at / ${DAY_MS} = @day`,
    )
    .get({ day, userId })!;
}

function usageOf(ledger: Ledger, userId: number, now: number) {
  const { starsBot, premiumBot, starsUser, premiumUser } = ledger.usage(userId, now);
  return { starsBot, premiumBot, starsUser, premiumUser };
}

describe("the running totals' triggers and the ledger's rule", () => {
  it("count exactly the statuses the ledger counts as spending (SPENDING_STATUSES)", () => {
    const { db } = ledgerFixture();
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
  it("match the intents through every kind of outcome, per person and for the bot, day by day", () => {
    const { db, ledger, clock } = ledgerFixture({
      limits: { starsPerBotDay: 1_000_000, starsPerUserDay: 1_000_000, premiumPerUserDay: 100 },
    });
    const outcomes = ["success", "rejected", "ambiguous", "not_sent", "resolved"] as const;
    for (let i = 0; i < 40; i++) {
      // Two days, three people, both kinds, every way a purchase can end.
      clock.now = NOON + (i >= 20 ? DAY_MS : 0) + i * 1_000;
      const userId = 1 + (i % 3);
      const premium = i % 4 === 3;
      const intent = ledger.createDraft(
        premium
          ? {
              ...starsDraft({ requester: { userId, chatId: userId, chatType: "private" } }),
              kind: "premium",
              quantity: 3,
            }
          : starsDraft({
              quantity: 50 + i,
              requester: { userId, chatId: userId, chatType: "private" },
            }),
      );
      if (i % 7 === 6) continue; // a draft never claimed counts nothing
      expect(ledger.claim(intent.id, userId).ok).toBe(true);
      const outcome = outcomes[i % outcomes.length]!;
      if (outcome === "success") ledger.recordOutcome(intent.id, success);
      if (outcome === "rejected") ledger.recordOutcome(intent.id, rejected);
      if (outcome === "not_sent") ledger.recordNotSent(intent.id, "not sent: test");
      if (outcome === "ambiguous" || outcome === "resolved") {
        ledger.recordOutcome(intent.id, ambiguous);
        ledger.resolve(intent.id, 99, outcome === "resolved" && i % 2 === 0);
      }
      for (const who of [1, 2, 3]) {
        expect(usageOf(ledger, who, clock.now)).toEqual(
          summedFromIntents(db, Math.floor(clock.now / DAY_MS), who),
        );
      }
    }
    // The first day's figures are kept as they were once the second day began.
    expect(usageOf(ledger, 1, NOON)).toEqual(summedFromIntents(db, Math.floor(NOON / DAY_MS), 1));
    expect(usageOf(ledger, 1, NOON).starsBot).toBeGreaterThan(0);
  });

  it("count exactly the spending statuses, whoever writes the row", () => {
    const { db, ledger } = ledgerFixture();
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
    expect(ledger.usage(5, NOON)).toMatchObject({ starsBot: expected, starsUser: expected });
    // Deleting a counted row takes it out again.
    db.prepare("DELETE FROM purchase_intents WHERE status = 'delivered'").run();
    expect(ledger.usage(5, NOON).starsUser).toBe(expected - 10 ** all.indexOf("delivered"));
  });

  it("are filled from the purchases already in a file the migration carries forward", () => {
    const path = join(tempDir(), "before-totals.sqlite");
    const previous = migrations.findIndex((m) => m.sql.includes("daily_spending"));
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

    const db = openDatabase(path);
    const ledger = new Ledger(db);
    expect(usageOf(ledger, 2, NOON)).toEqual({
      starsBot: 200,
      premiumBot: 1,
      starsUser: 80,
      premiumUser: 1,
    });
    db.close();
  });

  it("let the claim judge the bot's daily limit from the totals", () => {
    const { ledger, draft } = ledgerFixture({ limits: { starsPerBotDay: 250 } });
    const first = draft({ quantity: 200 });
    expect(ledger.claim(first.id, 1).ok).toBe(true);
    ledger.recordOutcome(first.id, success);
    const second = draft({
      quantity: 100,
      requester: { userId: 2, chatId: 2, chatType: "private" },
    });
    expect(ledger.claim(second.id, 2)).toMatchObject({
      ok: false,
      reason: "limit",
      limit: "stars_per_bot_day",
    });
    // A refused purchase gives its share back: after one of 50 is refused, 50 more still fit.
    const third = draft({ quantity: 50 });
    expect(ledger.claim(third.id, 1).ok).toBe(true);
    ledger.recordOutcome(third.id, rejected);
    expect(ledger.usage(undefined).starsBot).toBe(200);
    const fourth = draft({ quantity: 50 });
    expect(ledger.claim(fourth.id, 1).ok).toBe(true);
  });
});
