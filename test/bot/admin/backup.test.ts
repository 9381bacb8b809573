/**
 * /backup for admins, through the real bot on a real SQLite file: a backup now, where it went
 * and how large (never the file itself through Telegram); a backup that cannot be made is said
 * to the admin, every admin is told once per run of failures, and nothing else changes. On
 * PostgreSQL (GIFTBOT_TEST_STORE=postgres) it says to use pg_dump instead.
 */
import { existsSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatPerson } from "../../../tools/testing/chat-person.js";
import { TEST_STORE } from "../../helpers/bot.js";
import { tempDir } from "../../helpers/temp-dir.js";
import { ADMIN, ADMIN2, adminWorld, BUYER, sentTexts } from "../../helpers/admin-bot.js";

describe("/backup", () => {
  // The SQLite file's own backup: PostgreSQL is backed up by its own tools (the test below).
  it.skipIf(TEST_STORE === "postgres")(
    "takes a backup now and says where it went and how large it is",
    async () => {
      const dir = join(tempDir("giftbot-backups-"), "backups");
      const { h } = await adminWorld({ backups: { dir } });
      await chatPerson(h, BUYER).giftStars("bob_gifts", "⭐ 50");
      const ada = chatPerson(h, ADMIN);
      const mark = h.telegram.mark();
      await ada.command("backup");
      const text = ada.lastMessage().text ?? "";
      expect(text).toMatch(
        new RegExp(
          `^💾 Backed up: ${dir}/giftbot-\\d{8}T\\d{6}Z\\.sqlite \\(\\d+ KB\\)\\. The file stays on the server`,
        ),
      );
      const path = /Backed up: (\S+) \(/.exec(text)?.[1] ?? "";
      expect(statSync(path).size).toBeGreaterThan(0);
      expect(h.telegram.callsSince(mark).some((c) => c.method === "sendDocument")).toBe(false);
    },
  );

  // The SQLite file's own backup: PostgreSQL is backed up by its own tools (the test below).
  it.skipIf(TEST_STORE === "postgres")(
    "into a folder that cannot be written: the admin is told why, every admin once, purchases go on",
    async () => {
      const root = tempDir("giftbot-backups-");
      writeFileSync(join(root, "a-file"), "");
      const dir = join(root, "a-file", "backups");
      const { h } = await adminWorld({ backups: { dir } });
      const ada = chatPerson(h, ADMIN);
      await ada.command("backup");
      await h.app.notifier.idle();
      // The answer and the admins' alert both arrive; the alert is sent in the background.
      expect(sentTexts(h, ADMIN.id).find((t) => t.startsWith("❌"))).toMatch(
        new RegExp(`^❌ The backup into ${dir} failed: .*ENOTDIR`),
      );
      await ada.command("backup");
      await h.app.notifier.idle();
      for (const admin of [ADMIN, ADMIN2]) {
        expect(sentTexts(h, admin.id).filter((t) => t.startsWith("⚠️")).length).toBe(1);
      }
      expect(sentTexts(h, ADMIN.id).find((t) => t.startsWith("⚠️"))).toContain(
        "The bot tries again every 15 minutes; purchases are not affected.",
      );
      // Nothing else changed: a gift goes through.
      await chatPerson(h, BUYER).giftStars("bob_gifts", "⭐ 50");
      expect((await h.records.recent({ limit: 1 }))[0]?.status).toBe("succeeded");
    },
  );

  it.runIf(TEST_STORE === "postgres")(
    "on PostgreSQL: says to use pg_dump, and writes no file",
    async () => {
      const dir = join(tempDir("giftbot-backups-"), "backups");
      const { h } = await adminWorld({ backups: { dir } });
      const ada = chatPerson(h, ADMIN);
      await ada.command("backup");
      expect(ada.lastMessage().text).toBe(
        "This bot keeps its data in PostgreSQL: back it up with pg_dump or your database service's own backups.",
      );
      expect(existsSync(dir)).toBe(false);
    },
  );
});
