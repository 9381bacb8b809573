/** The progress message's words: the count, the bar and the time left at the pace so far. */
import { describe, expect, it } from "vitest";
import { checkingText, timeLeftMs } from "../../../src/bot/features/giveaway/progress-view.js";
import { translators } from "../../helpers/translators.js";

describe("the giveaway's progress text", () => {
  it("says the count, the bar and the minutes left, in English and Russian, with plurals", async () => {
    const { en, ru } = await translators();
    const at37 = { done: 37, total: 120, startedAt: 0, now: 37 * 2_000 };
    expect(timeLeftMs(at37)).toBe(83 * 2_000);
    expect(checkingText(en, at37)).toBe("Checking 37/120 ▓▓▓░░░░░░░ ~3 minutes left");
    expect(checkingText(ru, at37)).toBe("Проверка 37/120 ▓▓▓░░░░░░░ осталось ~3 минуты");
    const at119 = { ...at37, done: 119, now: 119 * 2_000 };
    expect(checkingText(en, at119)).toBe("Checking 119/120 ▓▓▓▓▓▓▓▓▓░ less than a minute left");
    expect(checkingText(ru, { ...at37, done: 1, now: 2_500 })).toContain("~5 минут");
    expect(checkingText(en, { ...at37, done: 60, now: 60 * 1_000 })).toContain("~1 minute left");
  });

  it("says no time before the first check, nor at the end", async () => {
    const { en } = await translators();
    expect(checkingText(en, { done: 0, total: 5, startedAt: 0, now: 9_000 })).toBe(
      "Checking 0/5 ░░░░░░░░░░",
    );
    expect(checkingText(en, { done: 5, total: 5, startedAt: 0, now: 9_000 })).toBe(
      "Checking 5/5 ▓▓▓▓▓▓▓▓▓▓",
    );
  });
});
