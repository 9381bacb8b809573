import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type AccessConfig, AccessList } from "../../src/access/access-list.js";
import { SqliteAccessStore } from "../../src/storage/access-store.js";
import { openDatabase } from "../../src/storage/database.js";
import { tempDir } from "../helpers/temp-dir.js";

const config: AccessConfig = {
  adminIds: [1],
  allowedUserIds: [2],
  allowedChatIds: [-100],
  publicPurchases: false,
};

function open(path: string, overrides: Partial<AccessConfig> = {}) {
  const db = openDatabase(path);
  return { db, access: new AccessList(new SqliteAccessStore(db), { ...config, ...overrides }) };
}

describe("AccessList", () => {
  it("mayBuy (asked on every update) says yes exactly when buyerGrant names a grant", () => {
    for (const publicPurchases of [false, true]) {
      const { db, access } = open(join(tempDir(), "bot.sqlite"), { publicPurchases });
      access.allowUser(3, 1, "@carol");
      for (const userId of [1, 2, 3, 4]) {
        expect(access.mayBuy(userId), `${userId} public=${publicPurchases}`).toBe(
          access.buyerGrant(userId) !== undefined,
        );
      }
      expect(access.mayBuy(4)).toBe(publicPurchases);
      db.close();
    }
  });

  it("grants buying to admins, configured buyers and buyers added in the bot, and no one else", () => {
    const { db, access } = open(join(tempDir(), "bot.sqlite"));
    expect(access.buyerGrant(1)).toBe("admin");
    expect(access.buyerGrant(2)).toBe("config");
    expect(access.mayBuy(3)).toBe(false);

    access.allowUser(3, 1, "@carol");
    expect(access.buyerGrant(3)).toBe("bot");
    expect(access.isAdmin(3)).toBe(false);
    db.close();
  });

  it("lets public purchases open buying to anyone without making them admins", () => {
    const { db, access } = open(join(tempDir(), "bot.sqlite"), { publicPurchases: true });
    expect(access.buyerGrant(99)).toBe("public");
    expect(access.isAdmin(99)).toBe(false);
    db.close();
  });

  it("keeps the lists admins edit across restarts, and says what /deny cannot undo", () => {
    const path = join(tempDir(), "bot.sqlite");
    const first = open(path);
    first.access.allowUser(5, 1);
    first.access.allowChat(-200, 1, "Family");
    first.db.close();

    const { db, access } = open(path);
    expect(access.mayBuy(5)).toBe(true);
    expect(access.isChatAllowed(-200)).toBe(true);
    expect(access.isChatAllowed(-100)).toBe(true);
    expect(access.isChatAllowed(-300)).toBe(false);
    expect(access.allowedChats().map((c) => [c.id, c.source, c.label])).toEqual([
      [-100, "config", undefined],
      [-200, "bot", "Family"],
    ]);

    expect(access.denyUser(5)).toBe("removed");
    expect(access.mayBuy(5)).toBe(false);
    expect(access.denyUser(5)).toBe("not_listed");
    expect(access.denyUser(2)).toBe("configured");
    expect(access.mayBuy(2)).toBe(true);
    expect(access.denyChat(-200)).toBe("removed");
    expect(access.isChatAllowed(-200)).toBe(false);
    db.close();
  });
});
