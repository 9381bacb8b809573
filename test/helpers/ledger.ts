/** Shared setup for ledger tests: a real SQLite file in a temp folder, and a movable clock. */
import { join } from "node:path";
import { onTestFinished } from "vitest";
import { Ledger, type LedgerOptions } from "../../src/storage/sqlite/ledger.js";
import type { NewIntent, PurchaseIntent } from "../../src/ledger/types.js";
import { type Db, openDatabase } from "../../src/storage/sqlite/database.js";
import { tempDir } from "./temp-dir.js";

/** 2030-01-01T12:00:00Z: far from a UTC midnight unless a test moves there. */
export const NOON = Date.UTC(2030, 0, 1, 12);

export interface LedgerFixture {
  path: string;
  db: Db;
  ledger: Ledger;
  clock: { now: number };
  /** An arrow, not a method: tests destructure it. */
  draft: (overrides?: Partial<NewIntent>) => PurchaseIntent;
}

/** Opens a fresh database file and a Ledger with a clock the test moves. */
export function ledgerFixture(options: Omit<LedgerOptions, "clock"> = {}): LedgerFixture {
  const path = join(tempDir("giftbot-ledger-"), "bot.sqlite");
  const db = openDatabase(path);
  // Closed before the folder is removed (hooks run last registered, first); closing twice is fine.
  onTestFinished(() => {
    db.close();
  });
  const clock = { now: NOON };
  const ledger = new Ledger(db, { ...options, clock: () => clock.now });
  return {
    path,
    db,
    ledger,
    clock,
    draft: (overrides = {}) => ledger.createDraft({ ...starsDraft(), ...overrides }),
  };
}

/** A plain stars draft for user 1 in their private chat. */
export function starsDraft(overrides: Partial<NewIntent> = {}): NewIntent {
  return {
    kind: "stars",
    recipient: "@alice_1",
    quantity: 100,
    paymentMethod: "usdt_ton",
    requester: { userId: 1, chatId: 1, chatType: "private" },
    balanceBefore: { ton: "10.5", usdt: "20" },
    ...overrides,
  };
}
