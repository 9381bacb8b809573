/**
 * Counts are said through Fluent's plural selectors in both languages, never as a number glued
 * to a plural noun ("1 Premium gifts").
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { localesDirectory } from "../../src/bot/i18n.js";
import { translators } from "../helpers/translators.js";

/** A number followed by a plural noun outside a selector's variant. */
const GLUED_EN =
  /\{ \$\w+ \} (stars|months|purchases|gifts|Premium gifts|requests|balance reads|recipient checks|outcomes|refusals)\b/;
const GLUED_RU = /\{ \$\w+ \} (звёзд|покупок|покупки|запросов|подарков|месяцев|отказов)/;

function gluedLines(file: string, pattern: RegExp): string[] {
  return readFileSync(join(localesDirectory(), file), "utf8")
    .split("\n")
    .filter((line) => !/^\s*\*?\[/.test(line) && pattern.test(line));
}

describe("plural rules", () => {
  it("no locale line glues a count to a plural noun outside a selector", () => {
    expect(gluedLines("en.ftl", GLUED_EN)).toEqual([]);
    expect(gluedLines("ru.ftl", GLUED_RU)).toEqual([]);
  });

  it("says one of a thing in the singular, in English and Russian", async () => {
    const { en, ru } = await translators();
    expect(en("admin-today", { count: 1, stars: 50, premium: 1 })).toContain(
      "50 stars and 1 Premium gift counted",
    );
    expect(en("admin-quota-queued", { purchases: 1, shared: 1, reads: 2 })).toBe(
      "Waiting: 1 purchase, 1 balance read, 2 recipient checks",
    );
    expect(en("admin-quota-used", { used: 1, limit: 1 })).toContain("1 of 1 request");
    expect(en("report-limits", { stars: 0, starsMax: 100, premium: 1, premiumMax: 1 })).toContain(
      "1 of 1 Premium gift",
    );
    expect(en("button-duration", { months: 3 })).toBe("3 months");
    expect(ru("admin-breaker-opened", { count: 5 })).toContain("5 покупок подряд");
    expect(ru("admin-breaker-opened", { count: 3 })).toContain("3 покупки подряд");
    expect(ru("admin-breaker-opened", { count: 1 })).toContain("отклонил покупку по");
    expect(ru("refusal-limit-per-purchase", { max: 51 })).toBe(
      "в одной покупке можно не больше 51 звезды.",
    );
    expect(ru("admin-quota-used", { used: 0, limit: 1 })).toContain("из 1 запроса");
  });
});
