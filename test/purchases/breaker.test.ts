import { describe, expect, it } from "vitest";
import {
  classifyRefusal,
  MAX_QUOTED_REASON,
  PurchaseBreaker,
  REFUSAL_RULES,
} from "../../src/purchases/breaker.js";
import type { FailureBody, PurchaseOutcome } from "../../src/service/types.js";

const T0 = Date.UTC(2030, 0, 1, 12);

function refused(fields: Partial<FailureBody>, status = 400): PurchaseOutcome {
  const body: FailureBody = { ok: false, ...fields };
  const detail = [body.error, body.reason].find((value) => typeof value === "string");
  return { kind: "rejected", status, body, detail };
}

const success: PurchaseOutcome = {
  kind: "success",
  value: { txHash: "abc", data: undefined },
  body: { ok: true },
};

const unknownRefusal = (n: number) => refused({ error: `upstream purchase failed (${n})` });

describe("classifyRefusal: what a refusal's words point at", () => {
  it.each([
    [{ error: "session expired" }, "session"],
    [{ reason: "Invalid stel_ssid cookie" }, "session"],
    [{ error: "AUTH_REQUIRED" }, "session"],
    [{ error: "unauthorized" }, "session"],
    [{ error: "please log in again" }, "session"],
    [{ error: "KYC verification required" }, "session"],
    [{ error: "insufficient funds" }, "wallet"],
    [{ error: "not enough TON on the wallet" }, "wallet"],
    [{ error: "purchase failed", insufficient: true }, "wallet"],
    [{ error: "purchase failed", insufficient: { need: "3.1", have: "0.2" } }, "wallet"],
    [{ error: "invalid username" }, "input"],
    [{ error: "INVALID_AMOUNT" }, "input"],
    [{ error: "invalid duration: must be 3, 6 or 12" }, "input"],
    [{ error: "user not found" }, "input"],
    [{ error: "recipient already has premium" }, "input"],
    [{ reason: "daily spending limit exceeded" }, "input"],
    [{ error: "SESSION_EXPIRED", reason: "marketplace session expired" }, "session"],
    [{ error: "INSUFFICIENT_BALANCE" }, "wallet"],
    [{ error: "USER_NOT_FOUND", reason: "No account has this username" }, "input"],
    [{ error: "ALREADY_PREMIUM" }, "input"],
    [{ error: "The recipient already has Telegram Premium" }, "input"],
    [{ error: "amount must be between 50 and 1000000" }, "input"],
    [{ error: "upstream purchase failed" }, "unknown"],
    [{ error: "PRICE_GUARD", price_guard: true }, "unknown"],
    [{}, "unknown"],
  ] as const)("%j is %s", (body, kind) => {
    expect(classifyRefusal({ ok: false, ...body })).toBe(kind);
  });

  it("reads info when it is not a string", () => {
    expect(classifyRefusal({ ok: false, info: { code: "SESSION_EXPIRED" } })).toBe("session");
  });

  it("does not take insufficient: false for the wallet", () => {
    expect(classifyRefusal({ ok: false, error: "failed", insufficient: false })).toBe("unknown");
  });

  it("checks setup causes before input: an invalid session is about the cookie", () => {
    expect(classifyRefusal({ ok: false, error: "invalid session for user" })).toBe("session");
  });

  it("is one list that can be extended", () => {
    const rules = [{ kind: "wallet" as const, pattern: /dry wallet/i }, ...REFUSAL_RULES];
    expect(classifyRefusal({ ok: false, error: "dry wallet" }, undefined, rules)).toBe("wallet");
    expect(classifyRefusal({ ok: false, error: "dry wallet" })).toBe("unknown");
  });
});

describe("PurchaseBreaker", () => {
  it("opens on the third consecutive refusal that is not about the input, quoting all three", () => {
    const breaker = new PurchaseBreaker();
    expect(breaker.record(unknownRefusal(1), "i1", T0)).toMatchObject({
      kind: "counted",
      consecutive: 1,
    });
    expect(breaker.record(unknownRefusal(2), "i2", T0 + 1)).toMatchObject({ consecutive: 2 });
    const third = breaker.record(unknownRefusal(3), "i3", T0 + 2);
    expect(third).toEqual({
      kind: "opened",
      opening: {
        cause: "unknown",
        at: T0 + 2,
        refusals: [1, 2, 3].map((n) => ({
          intentId: `i${n}`,
          at: T0 + n - 1,
          status: 400,
          reason: `upstream purchase failed (${n})`,
          kind: "unknown",
        })),
      },
    });
    expect(breaker.isOpen).toBe(true);
  });

  it("takes its threshold from the setting", () => {
    const breaker = new PurchaseBreaker({ threshold: 2 });
    breaker.record(unknownRefusal(1), "i1", T0);
    expect(breaker.record(unknownRefusal(2), "i2", T0).kind).toBe("opened");
    expect(() => new PurchaseBreaker({ threshold: 0 })).toThrow(RangeError);
  });

  it("never counts refusals about the input, and they do not break a run either", () => {
    const breaker = new PurchaseBreaker();
    breaker.record(unknownRefusal(1), "i1", T0);
    for (let i = 0; i < 10; i++) {
      expect(breaker.record(refused({ error: "invalid username" }), `x${i}`, T0).kind).toBe(
        "ignored",
      );
    }
    expect(breaker.isOpen).toBe(false);
    expect(breaker.consecutive).toBe(1);
  });

  it("starts counting afresh after a success", () => {
    const breaker = new PurchaseBreaker();
    breaker.record(unknownRefusal(1), "i1", T0);
    breaker.record(unknownRefusal(2), "i2", T0);
    expect(breaker.record(success, "ok", T0).kind).toBe("reset");
    breaker.record(unknownRefusal(3), "i3", T0);
    breaker.record(unknownRefusal(4), "i4", T0);
    expect(breaker.isOpen).toBe(false);
  });

  it("ignores ambiguous outcomes and purchases the client refused before sending", () => {
    const breaker = new PurchaseBreaker({ threshold: 1 });
    const ambiguous: PurchaseOutcome = { kind: "ambiguous", cause: "timeout", detail: "timeout" };
    const invalid: PurchaseOutcome = { kind: "invalid", field: "amount", detail: "too small" };
    expect(breaker.record(ambiguous, "a", T0).kind).toBe("ignored");
    expect(breaker.record(invalid, "b", T0).kind).toBe("ignored");
    expect(breaker.isOpen).toBe(false);
  });

  it.each([
    [{ error: "session expired" }, "session"],
    [{ error: "purchase failed", insufficient: true }, "wallet"],
  ] as const)("opens at once on %j, with the likely cause %s", (body, cause) => {
    const breaker = new PurchaseBreaker();
    const event = breaker.record(refused(body), "i1", T0);
    expect(event).toMatchObject({
      kind: "opened",
      opening: { cause, refusals: [{ kind: cause }] },
    });
  });

  it("stays open, without a second opening, for refusals still in flight when it opened", () => {
    const breaker = new PurchaseBreaker();
    breaker.record(refused({ error: "session expired" }), "i1", T0);
    const late = breaker.record(refused({ error: "session expired" }), "i2", T0);
    expect(late.kind).toBe("refused_while_open");
    expect(breaker.opening?.refusals.map((r) => r.intentId)).toEqual(["i1"]);
  });

  it("closes on an admin's resume; the next refusal of the same kind opens it again at once", () => {
    const breaker = new PurchaseBreaker();
    breaker.record(unknownRefusal(1), "i1", T0);
    breaker.record(unknownRefusal(2), "i2", T0);
    breaker.record(unknownRefusal(3), "i3", T0);
    expect(breaker.close()?.cause).toBe("unknown");
    expect(breaker.isOpen).toBe(false);
    expect(breaker.close()).toBeUndefined();
    expect(breaker.record(unknownRefusal(4), "i4", T0)).toMatchObject({
      kind: "opened",
      opening: { refusals: [{ intentId: "i4" }] },
    });
  });

  it("after a resume and a success, needs the whole run again", () => {
    const breaker = new PurchaseBreaker();
    for (let i = 0; i < 3; i++) breaker.record(unknownRefusal(i), `i${i}`, T0);
    breaker.close();
    breaker.record(success, "ok", T0);
    expect(breaker.record(unknownRefusal(4), "i4", T0).kind).toBe("counted");
  });

  it("starts open when restored from a persisted opening, and its cause stays on probation", () => {
    const opening = {
      cause: "unknown" as const,
      at: T0,
      refusals: [{ intentId: "i1", at: T0, status: 400, reason: "x", kind: "unknown" as const }],
    };
    const breaker = new PurchaseBreaker({ openedBefore: opening });
    expect(breaker.isOpen).toBe(true);
    expect(breaker.opening).toEqual(opening);
    breaker.close();
    expect(breaker.record(unknownRefusal(1), "i2", T0).kind).toBe("opened");
  });

  it("quotes a long reason cut short, and says so when there was none", () => {
    const breaker = new PurchaseBreaker({ threshold: 2 });
    breaker.record(refused({ error: "x".repeat(1000) }), "i1", T0);
    const event = breaker.record(refused({}), "i2", T0);
    expect(event.kind).toBe("opened");
    if (event.kind !== "opened") return;
    const [long, none] = event.opening.refusals;
    expect(long?.reason).toHaveLength(MAX_QUOTED_REASON);
    expect(long?.reason.endsWith("…")).toBe(true);
    expect(none?.reason).toBe("(no reason given)");
  });
});
