/** Shared setup for ledger tests: a real SQLite file in a temp folder, and a movable clock. */
import { join } from "node:path";
import { onTestFinished } from "vitest";
import type { NewIntent, PurchaseIntent, PurchaseLedger } from "../../src/ledger/types.js";
import type { LedgerOptions } from "../../src/storage/types.js";
import type { Db } from "../../src/storage/sqlite/driver.js";
import { openSqliteStorage } from "../../src/storage/sqlite/open.js";
import type { Storage } from "../../src/storage/types.js";
import { tempDir } from "./temp-dir.js";

/** 2030-01-01T12:00:00Z: far from a UTC midnight unless a test moves there. */
export const NOON = Date.UTC(2030, 0, 1, 12);

export interface LedgerFixture {
  path: string;
  /** The very connection the ledger writes on (for SQL of the test's own, and faults). */
  db: Db;
  storage: Storage;
  ledger: PurchaseLedger;
  clock: { now: number };
  /** An arrow, not a method: tests destructure it. */
  draft: (overrides?: Partial<NewIntent>) => Promise<PurchaseIntent>;
}

/** Opens a fresh database file and a ledger with a clock the test moves. */
export async function ledgerFixture(
  options: Omit<LedgerOptions, "clock"> = {},
): Promise<LedgerFixture> {
  const path = join(tempDir("giftbot-ledger-"), "bot.sqlite");
  let db: Db | undefined;
  const storage = await openSqliteStorage(path, (opened) => (db = opened));
  // Closed before the folder is removed (hooks run last registered, first); closing twice is fine.
  onTestFinished(() => storage.close());
  const clock = { now: NOON };
  const ledger = storage.openLedger({ ...options, clock: () => clock.now });
  return {
    path,
    db: db!,
    storage,
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
