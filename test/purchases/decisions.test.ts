/** The desk's pure decisions, each on its own inputs: no client, no ledger, no clock. */
import { describe, expect, it } from "vitest";
import type { PurchaseIntent } from "../../src/ledger/types.js";
import {
  balanceReadAt,
  balanceSnapshot,
  confirmResultOf,
  freshPremiumCheck,
  isPassingRefusal,
  isSent,
  needsPremiumCheck,
  premiumVerdict,
} from "../../src/purchases/decisions.js";
import type { BalanceRead, RecipientCheck } from "../../src/purchases/types.js";
import { testIntent } from "../helpers/intent.js";
import { username } from "../helpers/username.js";

const NOW = Date.UTC(2030, 0, 1, 12);

const intent = (overrides: Partial<PurchaseIntent> = {}): PurchaseIntent =>
  testIntent({
    kind: "premium",
    recipient: "bob_gift",
    quantity: 3,
    paymentMethod: "ton",
    createdAt: NOW - 61_000,
    expiresAt: NOW + 60_000,
    ...overrides,
  });

const ok = (ton: string, recognised = true): BalanceRead => ({
  kind: "ok",
  balance: { ton, usdt: "5", recognised },
});

describe("the balance a draft keeps", () => {
  it("is the read's figure, or none when the read failed", () => {
    expect(balanceSnapshot(ok("1.5"))).toEqual({ ton: "1.5", usdt: "5" });
    expect(balanceSnapshot({ kind: "unavailable" })).toBeUndefined();
  });

  it("knows when it was read only while the cache holds that very, recognised figure", () => {
    const shown = { ton: "1.5", usdt: "5" };
    expect(balanceReadAt(shown, { value: ok("1.5"), at: NOW })).toBe(NOW);
    expect(balanceReadAt(shown, { value: ok("2"), at: NOW })).toBeUndefined();
    expect(balanceReadAt(shown, { value: ok("1.5", false), at: NOW })).toBeUndefined();
    expect(balanceReadAt(undefined, { value: ok("1.5"), at: NOW })).toBeUndefined();
    expect(balanceReadAt(shown, undefined)).toBeUndefined();
  });
});

describe("the premium check at confirmation", () => {
  it("is needed for the requester's own open, unexpired premium intent only", () => {
    expect(needsPremiumCheck(intent(), 1, NOW)).toBe(true);
    // However fresh the draft: the age that counts is the is_premium read's.
    expect(needsPremiumCheck(intent({ createdAt: NOW }), 1, NOW)).toBe(true);
    expect(needsPremiumCheck(intent({ status: "queued" }), 1, NOW)).toBe(true);
    expect(needsPremiumCheck(intent(), 2, NOW)).toBe(false);
    expect(needsPremiumCheck(intent({ kind: "stars", quantity: 50 }), 1, NOW)).toBe(false);
    expect(needsPremiumCheck(intent({ expiresAt: NOW }), 1, NOW)).toBe(false);
    expect(needsPremiumCheck(intent({ status: "cancelled" }), 1, NOW)).toBe(false);
  });

  it("reuses only a read younger than the limit that said is_premium plainly", () => {
    const ok = (isPremium: boolean | undefined): RecipientCheck => ({
      kind: "ok",
      username: username("bob_gift"),
      isPremium,
    });
    expect(freshPremiumCheck({ value: ok(false), at: NOW - 60_000 }, NOW, 60_000)).toEqual(
      ok(false),
    );
    expect(freshPremiumCheck({ value: ok(false), at: NOW - 60_001 }, NOW, 60_000)).toBeUndefined();
    expect(freshPremiumCheck({ value: ok(undefined), at: NOW }, NOW, 60_000)).toBeUndefined();
    expect(
      freshPremiumCheck({ value: { kind: "not_found" }, at: NOW }, NOW, 60_000),
    ).toBeUndefined();
    expect(freshPremiumCheck(undefined, NOW, 60_000)).toBeUndefined();

    expect(premiumVerdict(ok(false))).toBeUndefined();
    expect(premiumVerdict(ok(true))).toBe("has_premium");
    expect(premiumVerdict(ok(undefined))).toEqual({ reason: "recipient_premium_unknown" });
    expect(premiumVerdict({ kind: "unavailable" })).toEqual({ reason: "recipient_unverified" });
  });

  it("a queued confirmation refused for a passing reason may be pressed again", () => {
    expect(isPassingRefusal({ reason: "paused", source: "admin" })).toBe(true);
    expect(isPassingRefusal({ reason: "frozen", unconfirmed: 1 })).toBe(true);
    expect(isPassingRefusal({ reason: "expired" })).toBe(false);
    expect(isPassingRefusal({ reason: "no_access" })).toBe(false);
  });
});

describe("what a Confirm came to", () => {
  const sent = intent({ status: "succeeded" });

  it("follows the recorded outcome", () => {
    const success = confirmResultOf({ kind: "success", value: { txHash: "abc" } } as never, {
      recorded: true,
      intent: sent,
    });
    expect(success).toEqual({ kind: "succeeded", intent: sent, txHash: "abc" });
    expect(isSent(success)).toBe(true);
    const ambiguous = { kind: "ambiguous", cause: "timeout", detail: "late" } as const;
    expect(confirmResultOf(ambiguous, { recorded: true, intent: sent })).toEqual({
      kind: "unconfirmed",
      intent: sent,
      ambiguity: ambiguous,
    });
  });

  it("stays unconfirmed when a recovery got there first and the answer did not settle it", () => {
    const late = confirmResultOf({ kind: "success", value: { txHash: "abc" } } as never, {
      recorded: false,
      late: "kept",
      intent: intent({ status: "unconfirmed" }),
    });
    expect(late.kind).toBe("unconfirmed");
    expect(isSent({ kind: "refused", refusal: { reason: "paused", source: "admin" } })).toBe(false);
  });
});
