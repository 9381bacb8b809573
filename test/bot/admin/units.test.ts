import type { TranslationVariables } from "@grammyjs/i18n";
import { describe, expect, it } from "vitest";
import { isBelow, scaleDecimal } from "../../../src/bot/admin-notifications/decimal.js";
import type { Translate } from "../../../src/bot/context.js";
import {
  decodeAdmin,
  decodeGroup,
  encodeAdmin,
  encodeGroup,
} from "../../../src/bot/callback-data/index.js";
import { evidenceText } from "../../../src/bot/admin-views.js";
import { testIntent } from "../../helpers/intent.js";
import type { ReconciliationEvidence } from "../../../src/purchases/types.js";

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
});

describe("on-chain transfers in the evidence", () => {
  it("shows nanotons as TON, exactly", () => {
    const intent = testIntent({
      id: "intent1",
      paymentMethod: "ton",
      status: "unconfirmed",
      sentAt: 0,
    });
    const transfer = (amountNano: string | undefined) => ({
      hash: "ab",
      at: 0,
      destination: "EQ",
      amountNano,
      comment: undefined,
    });
    const evidence: ReconciliationEvidence = {
      intent,
      balanceBefore: undefined,
      balanceNow: undefined,
      recipientHasPremiumNow: undefined,
      txHash: undefined,
      onChainTransfers: ["1500000000", "1", "0", "123456789012345678901", undefined].map(transfer),
    };
    // Only the amounts matter here: every other key renders as its name.
    const t: Translate = (key: string, variables?: TranslationVariables) =>
      key === "admin-evidence-transfer" ? `amount=${String(variables?.amount)}` : key;
    const amounts = evidenceText(t, "en", intent, evidence, "notification", undefined)
      .split("\n")
      .filter((line) => line.startsWith("amount="));
    expect(amounts).toEqual([
      "amount=1.5",
      "amount=0.000000001",
      "amount=0",
      "amount=123,456,789,012.345678901",
      "amount=unknown-value",
    ]);
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
      // Telegram refuses callback data over 64 bytes (UTF-8).
      expect(Buffer.byteLength(data, "utf8"), data).toBeLessThanOrEqual(64);
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
