import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { PurchaseLedger } from "../../src/ledger/types.js";
import { KeyValueStore } from "../../src/storage/key-value-store.js";
import { openLedger } from "../../src/storage/ledger/ledger.js";
import { migrationsFor } from "../../src/storage/migrations.js";
import { SqliteDatabase } from "../../src/storage/sqlite/driver.js";
import { migrate, openDatabase, schemaVersion } from "../../src/storage/sqlite/open.js";
import { tempDir } from "../helpers/temp-dir.js";
import { starsDraft } from "../helpers/ledger.js";

/** SQLite's steps, oldest first: step `i` (0-based) is schema version `i + 1`. */
const migrations = migrationsFor("sqlite");

/** A ledger on an open connection. */
function ledgerOn(db: Database.Database): PurchaseLedger {
  return openLedger(new SqliteDatabase(db));
}

function tables(db: Database.Database): string[] {
  return db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .all()
    .map((r) => r.name);
}

/** An intent as a version-4 ledger wrote it, with one event per status it went through. */
function writeV4Intent(
  db: Database.Database,
  id: string,
  statuses: string[],
  quantity = 100,
): { id: string } {
  const status = statuses.at(-1) ?? "draft";
  const sent = statuses.includes("sending");
  db.prepare(
    `INSERT INTO purchase_intents (id, kind, recipient, quantity, payment_method,
       requester_user_id, requester_chat_id, requester_chat_type, status, created_at,
       expires_at, sent_at, finished_at, outcome_detail, updated_at)
     VALUES (?, 'stars', 'alice_1', ?, 'usdt_ton', 1, 1, 'private', ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    quantity,
    status,
    Date.now(),
    Date.now() + 600_000,
    sent ? Date.now() : null,
    status === "rejected" ? Date.now() : null,
    status === "rejected" ? "not sent: cancelled at shutdown" : null,
    Date.now(),
  );
  statuses.forEach((to, i) => {
    db.prepare(
      `INSERT INTO purchase_intent_events (intent_id, from_status, to_status, at, actor)
       VALUES (?, ?, ?, ?, 1)`,
    ).run(id, statuses[i - 1] ?? null, to, Date.now());
  });
  return { id };
}

describe("ledger migrations", () => {
  it("creates the ledger tables on an empty file", () => {
    const db = openDatabase(join(tempDir(), "empty.sqlite"));
    expect(schemaVersion(db)).toBe(migrations.length);
    expect(migrations.length).toBeGreaterThanOrEqual(2);
    expect(tables(db)).toEqual(
      expect.arrayContaining([
        "kv",
        "ledger_settings",
        "purchase_intent_events",
        "purchase_intents",
      ]),
    );
    db.close();
  });

  it("carries a version-1 file with data forward, keeping its rows", async () => {
    const path = join(tempDir(), "v1.sqlite");
    const old = new Database(path);
    old.pragma("journal_mode = WAL");
    migrate(old, 1);
    expect(schemaVersion(old)).toBe(1);
    await new KeyValueStore<{ step: number }>(new SqliteDatabase(old), "conversations").write(
      "chat:7",
      { step: 3 },
    );
    expect(tables(old)).toEqual(["kv"]);
    old.close();

    const db = openDatabase(path);
    expect(schemaVersion(db)).toBe(migrations.length);
    const kv = new KeyValueStore(new SqliteDatabase(db), "conversations");
    expect(await kv.read("chat:7")).toEqual({ step: 3 });
    const ledger = ledgerOn(db);
    const intent = await ledger.createDraft(starsDraft());
    expect((await ledger.claim(intent.id, 1)).ok).toBe(true);
    db.close();
  });

  it("carries an unconfirmed intent from the version before balance_before_at forward, unchanged", async () => {
    const path = join(tempDir(), "v3.sqlite");
    const previous = migrations.findIndex((m) => m.sql.includes("balance_before_at"));
    expect(previous).toBeGreaterThan(0);
    const old = new Database(path);
    old.pragma("journal_mode = WAL");
    migrate(old, previous);
    expect(schemaVersion(old)).toBe(previous);
    // Written as the previous version wrote it: its own columns only.
    const row = {
      id: "OldIntentId_0123456789",
      kind: "stars",
      recipient: "alice_1",
      quantity: 250,
      payment_method: "ton",
      requester_user_id: 7,
      requester_chat_id: -100,
      requester_chat_type: "supergroup",
      status: "unconfirmed",
      created_at: 1_000,
      expires_at: 601_000,
      sent_at: 2_000,
      finished_at: 3_000,
      balance_before: JSON.stringify({ ton: "12.5", usdt: "40" }),
      response: JSON.stringify({
        cause: "unconfirmed",
        body: { ok: false, unconfirmed: true, extra: 1 },
      }),
      tx_hash: "abc123",
      outcome_detail: "unconfirmed: the transfer was not confirmed",
      updated_at: 3_000,
    };
    const columns = Object.keys(row);
    old
      .prepare(
        `INSERT INTO purchase_intents (${columns.join(", ")})
         VALUES (${columns.map((c) => `@${c}`).join(", ")})`,
      )
      .run(row);
    old
      .prepare(
        `INSERT INTO purchase_intent_events (intent_id, from_status, to_status, at, actor)
         VALUES (?, 'sending', 'unconfirmed', 3000, NULL)`,
      )
      .run(row.id);
    old.close();

    const db = openDatabase(path);
    expect(schemaVersion(db)).toBe(migrations.length);
    const columnNames = db
      .prepare<[], { name: string }>("SELECT name FROM pragma_table_info('purchase_intents')")
      .all()
      .map((c) => c.name);
    expect(columnNames).toContain("balance_before_at");
    const ledger = ledgerOn(db);
    expect(await ledger.get(row.id)).toEqual({
      id: row.id,
      kind: "stars",
      recipient: "alice_1",
      quantity: 250,
      paymentMethod: "ton",
      requester: { userId: 7, chatId: -100, chatType: "supergroup" },
      status: "unconfirmed",
      createdAt: 1_000,
      expiresAt: 601_000,
      sentAt: 2_000,
      finishedAt: 3_000,
      balanceBefore: { ton: "12.5", usdt: "40" },
      balanceBeforeAt: undefined,
      response: { cause: "unconfirmed", body: { ok: false, unconfirmed: true, extra: 1 } },
      txHash: "abc123",
      outcomeDetail: "unconfirmed: the transfer was not confirmed",
      resolvedBy: undefined,
      resolvedAt: undefined,
    });
    expect(await ledger.history(row.id)).toEqual([
      { from: "sending", to: "unconfirmed", at: 3_000, actor: undefined },
    ]);
    // Still unconfirmed in effect: it freezes new claims until an admin reconciles it.
    const draft = await ledger.createDraft(starsDraft());
    expect(await ledger.claim(draft.id, 1)).toMatchObject({ ok: false, reason: "frozen" });
    expect((await ledger.resolve(row.id, 99, true)).unconfirmedLeft).toBe(0);
    expect((await ledger.claim(draft.id, 1)).ok).toBe(true);
    db.close();
  });

  it("carries a version-4 file forward to queued confirmations, keeping rows, history and keys", async () => {
    const path = join(tempDir(), "v4.sqlite");
    const previous = migrations.findIndex((m) => m.sql.includes("queued_at"));
    expect(previous).toBeGreaterThan(0);
    const old = new Database(path);
    old.pragma("journal_mode = WAL");
    old.pragma("foreign_keys = ON");
    migrate(old, previous);
    // Written as version 4 wrote them (today's Ledger speaks a newer schema).
    const settled = writeV4Intent(old, "SettledIntent_012345678", ["draft", "sending", "rejected"]);
    const open = writeV4Intent(old, "OpenIntent_012345678901", ["draft"], 300);
    const before = old.prepare("SELECT * FROM purchase_intents ORDER BY rowid").all();
    // The old schema refuses the new status.
    expect(() =>
      old.prepare("UPDATE purchase_intents SET status = 'queued' WHERE id = ?").run(open.id),
    ).toThrow(/CHECK/);
    old.close();

    const db = openDatabase(path);
    expect(schemaVersion(db)).toBe(migrations.length);
    expect(db.pragma("foreign_keys", { simple: true })).toBe(1);
    expect(db.pragma("foreign_key_check")).toEqual([]);
    const after = db
      .prepare<[], Record<string, unknown>>("SELECT * FROM purchase_intents ORDER BY rowid")
      .all();
    // Later migrations' columns (the measured cost, the giveaway batch, how it is paid) start
    // empty too: every older intent went through the service.
    const costColumns = {
      paid_via: "service",
      recipient_user_id: null,
      cost_amount: null,
      cost_currency: null,
      cost_source: null,
      cost_unmeasured: null,
      cost_at: null,
      batch_id: null,
      batch_position: null,
    };
    expect(after).toEqual(
      before.map((row) => ({ ...(row as object), queued_at: null, ...costColumns })),
    );
    const ledger = ledgerOn(db);
    expect((await ledger.history(settled.id)).map((e) => e.to)).toEqual([
      "draft",
      "sending",
      "rejected",
    ]);
    // The history still points at its intents: an event for an unknown intent is refused.
    expect(() =>
      db
        .prepare(
          "INSERT INTO purchase_intent_events (intent_id, to_status, at) VALUES ('nope', 'draft', 1)",
        )
        .run(),
    ).toThrow(/FOREIGN KEY/);
    expect(await ledger.queue(open.id, 1)).toMatchObject({
      ok: true,
      intent: { status: "queued" },
    });
    expect(await ledger.claim(open.id, 1)).toMatchObject({
      ok: true,
      intent: { status: "sending" },
    });
    const indexes = db
      .prepare<[], { name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'purchase_intents'",
      )
      .all()
      .map((r) => r.name);
    expect(indexes).toEqual(
      expect.arrayContaining([
        "purchase_intents_status",
        "purchase_intents_sent",
        "purchase_intents_user_created",
        "purchase_intents_created",
      ]),
    );
    db.close();
  });

  it("keeps the database's constraints: unknown statuses and kinds cannot be written", async () => {
    const db = openDatabase(join(tempDir(), "c.sqlite"));
    const ledger = ledgerOn(db);
    const intent = await ledger.createDraft(starsDraft());
    expect(() =>
      db.prepare("UPDATE purchase_intents SET status = 'resent' WHERE id = ?").run(intent.id),
    ).toThrow(/CHECK/);
    db.close();
  });
});
