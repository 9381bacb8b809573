import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import type { Translate } from "../../src/bot/context.js";
import { createI18n, UserSettingsStore } from "../../src/bot/i18n.js";
import { outcomeText } from "../../src/bot/views.js";
import type { ConfirmRefusal } from "../../src/purchases/types.js";
import { openSqliteStorage } from "../../src/storage/sqlite.js";
import { testIntent } from "../helpers/intent.js";
import { tempDir } from "../helpers/temp-dir.js";

function english(): Translate {
  const storage = openSqliteStorage(join(tempDir(), "db.sqlite"));
  onTestFinished(() => {
    storage.close();
  });
  const i18n = createI18n(new UserSettingsStore(storage.keyValues));
  return (key, variables) => i18n.t("en", key, variables);
}

const limit: ConfirmRefusal = {
  reason: "limit",
  limit: "stars_per_bot_day",
  max: 10_000,
  used: 9_900,
  resetsAt: Date.UTC(2030, 0, 2),
};

describe("a queued confirmation closed for a limit", () => {
  it("says the figures in a private chat, and only the limit's name and reset in a group", () => {
    const t = english();
    const closed = (chatType: "private" | "supergroup") =>
      outcomeText(
        t,
        "en",
        {
          kind: "closed",
          intent: testIntent({ requester: { userId: 1, chatId: -100, chatType } }),
          refusal: limit,
        },
        undefined,
      );
    expect(closed("private")).toContain("100 of 10,000 left");
    expect(closed("supergroup")).not.toMatch(/10,000|100 left/);
    expect(closed("supergroup")).toContain("Jan 2, 2030");
  });
});
