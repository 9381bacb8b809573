import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type AccessRules, AccessList } from "../../src/access/access-list.js";
import { openSqliteStorage } from "../../src/storage/sqlite/open.js";
import { tempDir } from "../helpers/temp-dir.js";

const config: AccessRules = {
  adminIds: [1],
  allowedUserIds: [2],
  allowedChatIds: [-100],
  publicPurchases: false,
};

async function open(path: string, overrides: Partial<AccessRules> = {}) {
  const db = await openSqliteStorage(path);
  return { db, access: new AccessList(db.access, { ...config, ...overrides }) };
}

describe("AccessList", () => {
  it("mayBuy (asked on every update) says yes exactly when buyerGrant names a grant", async () => {
    for (const publicPurchases of [false, true]) {
      const { db, access } = await open(join(tempDir(), "bot.sqlite"), { publicPurchases });
      await access.allowUser(3, 1, "@carol");
      for (const userId of [1, 2, 3, 4]) {
        expect(await access.mayBuy(userId), `${userId} public=${publicPurchases}`).toBe(
          (await access.buyerGrant(userId)) !== undefined,
        );
      }
      expect(await access.mayBuy(4)).toBe(publicPurchases);
      await db.close();
    }
  });

  it("grants buying to admins, configured buyers and buyers added in the bot, and no one else", async () => {
    const { db, access } = await open(join(tempDir(), "bot.sqlite"));
    expect(await access.buyerGrant(1)).toBe("admin");
    expect(await access.buyerGrant(2)).toBe("config");
    expect(await access.mayBuy(3)).toBe(false);

    await access.allowUser(3, 1, "@carol");
    expect(await access.buyerGrant(3)).toBe("bot");
    expect(access.isAdmin(3)).toBe(false);
    await db.close();
  });

  it("lets public purchases open buying to anyone without making them admins", async () => {
    const { db, access } = await open(join(tempDir(), "bot.sqlite"), { publicPurchases: true });
    expect(await access.buyerGrant(99)).toBe("public");
    expect(access.isAdmin(99)).toBe(false);
    await db.close();
  });

  it("keeps the lists admins edit across restarts, and says what /deny cannot undo", async () => {
    const path = join(tempDir(), "bot.sqlite");
    const first = await open(path);
    await first.access.allowUser(5, 1);
    await first.access.allowChat(-200, 1, "Family");
    await first.db.close();

    const { db, access } = await open(path);
    expect(await access.mayBuy(5)).toBe(true);
    expect(await access.isChatAllowed(-200)).toBe(true);
    expect(await access.isChatAllowed(-100)).toBe(true);
    expect(await access.isChatAllowed(-300)).toBe(false);
    expect((await access.allowedChats()).map((c) => [c.id, c.source, c.label])).toEqual([
      [-100, "config", undefined],
      [-200, "bot", "Family"],
    ]);

    expect(await access.denyUser(5)).toBe("removed");
    expect(await access.mayBuy(5)).toBe(false);
    expect(await access.denyUser(5)).toBe("not_listed");
    expect(await access.denyUser(2)).toBe("configured");
    expect(await access.mayBuy(2)).toBe(true);
    expect(await access.denyChat(-200)).toBe("removed");
    expect(await access.isChatAllowed(-200)).toBe(false);
    await db.close();
  });
});
