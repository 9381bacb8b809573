import { describe, expect, it } from "vitest";
import { isBelow, scaleDecimal } from "../../../src/bot/admin-notifications/decimal.js";
import { fitsCallbackLimit } from "../../../src/bot/callback-data/index.js";
import {
  decodeAdmin,
  decodeGroup,
  encodeAdmin,
  encodeGroup,
} from "../../../src/bot/features/admin/callback-data.js";
import { nanoToTon } from "../../../src/bot/features/admin/views.js";

describe("decimal thresholds without floats", () => {
  it("compares exactly where floats would not", () => {
    expect(isBelow("0.3", "0.30000000000000004")).toBe(true);
    expect(isBelow("9.999999999999999999", "10")).toBe(true);
    expect(isBelow("10", "10.000")).toBe(false);
    expect(isBelow("10.5", "10.49")).toBe(false);
    expect(isBelow("123456789012345678901234567890.1", "123456789012345678901234567890.2")).toBe(
      true,
    );
    expect(scaleDecimal("1.5")).toBe(1_500_000_000_000_000_000n);
  });

  it("refuses anything that is not a plain non-negative decimal", () => {
    for (const bad of ["", "-1", "1e3", "1,5", "abc", "1.", ".5", "NaN"]) {
      expect(isBelow(bad, "1"), bad).toBeUndefined();
      expect(isBelow("1", bad), bad).toBeUndefined();
    }
  });

  it("shows nanotons as TON", () => {
    expect(nanoToTon("1500000000")).toBe("1.5");
    expect(nanoToTon("1")).toBe("0.000000001");
    expect(nanoToTon("0")).toBe("0");
    expect(nanoToTon("12x")).toBeUndefined();
  });
});

describe("admin and group callback data", () => {
  it("round-trips every shape and fits Telegram's 64 bytes", () => {
    const actions = [
      { type: "page", offset: 0 },
      { type: "page", offset: 10_000 },
      { type: "resolve", intentId: "A".repeat(40), delivered: true },
      { type: "resolve", intentId: "abc_-123", delivered: false },
      { type: "who", userId: 9_007_199_254_740_991, allow: true },
      { type: "who", userId: 1, allow: false },
    ] as const;
    for (const action of actions) {
      const data = encodeAdmin(action);
      expect(fitsCallbackLimit(data), data).toBe(true);
      expect(decodeAdmin(data)).toEqual(action);
    }
    for (const action of [{ type: "duration", months: 12 }, { type: "cancel" }] as const) {
      expect(decodeGroup(encodeGroup(action))).toEqual(action);
    }
  });

  it("rejects anything an encoder would not produce", () => {
    for (const data of [
      "adm:page:3",
      "adm:page:-5",
      "adm:page:05",
      "adm:page:10005",
      "adm:page:5:x",
      "adm:res:yes:abcdefgh",
      "adm:res:y:short",
      "adm:res:y:has space1",
      "adm:res:y",
      "adm:who:allow:0",
      "adm:who:allow:99999999999999999",
      "adm:who:maybe:5",
      "adm:who:allow:5:6",
      "adm:",
      "grp:dur:4",
      "grp:dur:12:x",
      "grp:cancel:1",
    ]) {
      expect(decodeAdmin(data) ?? decodeGroup(data), data).toBeUndefined();
    }
  });
});
