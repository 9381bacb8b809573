import { describe, expect, it } from "vitest";
import { Ledger } from "../../src/storage/sqlite/ledger.js";
import { createPurchaseRecords } from "../../src/purchases/records.js";
import { ledgerFixture, NOON } from "../helpers/ledger.js";

describe("the pause with its reason", () => {
  it("a breaker pause refuses claims and keeps its detail for the next process on the file", () => {
    const { ledger, draft, db } = ledgerFixture();
    const intent = draft();
    const detail = { cause: "session", refusals: [{ intentId: "x", reason: "SESSION_EXPIRED" }] };
    ledger.pauseByBreaker(detail);
    expect(ledger.claim(intent.id, 1)).toEqual({ ok: false, reason: "paused", source: "breaker" });
    expect(ledger.pauseState()).toEqual({ paused: true, by: undefined, at: NOON });

    const restarted = new Ledger(db);
    expect(restarted.pauseReason()).toEqual({ source: "breaker", detail });
  });

  it("an admin's pause is the admin's, and resuming forgets any reason", () => {
    const { ledger, draft } = ledgerFixture();
    expect(ledger.pauseReason()).toBeUndefined();
    ledger.pauseByBreaker({ cause: "wallet" });
    ledger.setPaused(false, 7);
    expect(ledger.pauseReason()).toBeUndefined();
    expect(ledger.claim(draft().id, 1).ok).toBe(true);
    ledger.setPaused(true, 7);
    expect(ledger.pauseReason()).toEqual({ source: "admin", detail: undefined });
  });

  it("a pause written before reasons were kept reads as an admin's", () => {
    const { ledger, db } = ledgerFixture();
    db.prepare(
      "INSERT INTO ledger_settings (key, value, updated_by, updated_at) VALUES ('purchases_paused', 'true', 5, 1)",
    ).run();
    expect(ledger.pauseReason()).toEqual({ source: "admin", detail: undefined });
  });
});

describe("the status the bot and the metrics read", () => {
  it("says who paused: the breaker, an admin, or nobody once purchases reopen", async () => {
    const { ledger } = ledgerFixture();
    const records = createPurchaseRecords(ledger);
    expect(await records.status()).toEqual({ paused: false, pausedBy: undefined, unconfirmed: 0 });
    ledger.pauseByBreaker({ cause: "session" });
    expect(await records.status()).toEqual({ paused: true, pausedBy: "breaker", unconfirmed: 0 });
    ledger.setPaused(true, 7);
    expect(await records.status()).toEqual({ paused: true, pausedBy: "admin", unconfirmed: 0 });
    ledger.setPaused(false, 7);
    expect(await records.status()).toEqual({ paused: false, pausedBy: undefined, unconfirmed: 0 });
  });
});

describe("limits replaced while running", () => {
  it("apply from the next claim on", () => {
    const { ledger, draft } = ledgerFixture();
    const big = draft({ quantity: 5000 });
    ledger.setLimits({ ...ledger.limits, starsPerPurchase: 1000 });
    expect(ledger.claim(big.id, 1)).toMatchObject({ ok: false, reason: "limit" });
    ledger.setLimits({ ...ledger.limits, starsPerPurchase: 6000 });
    expect(ledger.claim(big.id, 1).ok).toBe(true);
  });
});
