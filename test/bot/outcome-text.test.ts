import { describe, expect, it } from "vitest";
import { outcomeText } from "../../src/bot/purchase-views.js";
import type { ConfirmRefusal } from "../../src/purchases/types.js";
import { testIntent } from "../helpers/intent.js";
import { translators } from "../helpers/translators.js";

const limit: ConfirmRefusal = {
  reason: "limit",
  limit: "stars_per_bot_day",
  max: 10_000,
  used: 9_900,
  resetsAt: Date.UTC(2030, 0, 2),
};

describe("a queued confirmation closed for a limit", () => {
  it("says the figures in a private chat, and only the limit's name and reset in a group", async () => {
    const t = (await translators()).en;
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
        "hidden",
      );
    expect(closed("private")).toContain("100 of 10,000 left");
    expect(closed("supergroup")).not.toMatch(/10,000|100 left/);
    expect(closed("supergroup")).toContain("Jan 2, 2030");
  });
});
