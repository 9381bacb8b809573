import { describe, expect, it } from "vitest";
import { parseExportRange } from "../../../src/bot/features/admin/export.js";
import { dueReportDay } from "../../../src/bot/reports/daily-reporter.js";

const NOW = Date.UTC(2026, 10, 23, 12, 30);

describe("/export's dates", () => {
  it("defaults to this UTC month so far, today included", () => {
    expect(parseExportRange("", NOW)).toEqual({
      from: Date.UTC(2026, 10, 1),
      to: Date.UTC(2026, 10, 24),
      firstDay: "2026-11-01",
      lastDay: "2026-11-23",
    });
  });

  it("takes one day or a range of days, both included", () => {
    expect(parseExportRange(" 2026-11-01   2026-11-30 ", NOW)).toMatchObject({
      from: Date.UTC(2026, 10, 1),
      to: Date.UTC(2026, 11, 1),
    });
    expect(parseExportRange("2026-11-05", NOW)).toMatchObject({
      from: Date.UTC(2026, 10, 5),
      to: Date.UTC(2026, 10, 6),
    });
  });

  it("refuses what is not a real range of days", () => {
    for (const bad of ["2026-02-30", "2026-11-30 2026-11-01", "yesterday", "2026-1-1", "a b c"]) {
      expect(parseExportRange(bad, NOW), bad).toBeUndefined();
    }
  });
});

describe("when the daily report is due", () => {
  it("is the day before, from REPORT_HOUR_UTC on", () => {
    expect(dueReportDay(Date.UTC(2026, 10, 23, 6, 59), 7)).toBeUndefined();
    expect(dueReportDay(Date.UTC(2026, 10, 23, 7), 7)).toBe(Date.UTC(2026, 10, 22));
    expect(dueReportDay(Date.UTC(2026, 10, 23, 0, 1), 0)).toBe(Date.UTC(2026, 10, 22));
  });
});
