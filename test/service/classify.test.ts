import { describe, expect, it } from "vitest";
import { type Answer, toAnswer } from "../../src/service/answer.js";
import { classifyBalanceAnswer } from "../../src/service/balance.js";
import { classifyPurchaseAnswer } from "../../src/service/classify-purchase.js";
import { classifyReadAnswer, classifyUserInfoAnswer } from "../../src/service/classify-read.js";
import { SecretScrubber } from "../../src/service/secrets.js";

const NO_SECRETS = new SecretScrubber([]);
const LIMITS = { maxBodyBytes: 1024 };

/** An answer as the sender builds it from a response: JSON bodies serialised, text kept. */
function answer(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return toAnswer({ kind: "response", status, headers, text }, NO_SECRETS);
}

const purchase = (status: number, body: unknown, headers?: Record<string, string>) =>
  classifyPurchaseAnswer(answer(status, body, headers), LIMITS);

describe("classifyPurchaseAnswer", () => {
  it("200 with ok: true is the only success; the hash comes from the top or from data", () => {
    expect(purchase(200, { ok: true, tx_hash: "h1", data: { price: "3" } })).toEqual({
      kind: "success",
      value: { txHash: "h1", data: { price: "3" } },
      body: { ok: true, tx_hash: "h1", data: { price: "3" } },
    });
    expect(purchase(200, { ok: true, data: { tx_hash: "h2" } })).toMatchObject({
      kind: "success",
      value: { txHash: "h2" },
    });
    expect(purchase(200, { ok: true })).toMatchObject({
      kind: "success",
      value: { txHash: undefined, data: undefined },
    });
  });

  it("a 400 failure body without doubt is a definite refusal, with its detail", () => {
    expect(purchase(400, { ok: false, error: "USER_NOT_FOUND", reason: "no one" })).toEqual({
      kind: "rejected",
      status: 400,
      body: { ok: false, error: "USER_NOT_FOUND", reason: "no one" },
      detail: "USER_NOT_FOUND: no one",
    });
    expect(purchase(400, { ok: false, info: { required: "1" } })).toMatchObject({
      kind: "rejected",
      detail: '{"required":"1"}',
    });
    expect(purchase(400, { ok: false, tx_hash: "" })).toMatchObject({ kind: "rejected" });
  });

  it.each<[string, number, unknown, object]>([
    ["429", 429, { ok: false, retry_after: 7 }, { cause: "rate_limited", retryAfterSeconds: 7 }],
    ["503", 503, { ok: false }, { cause: "rate_limited", retryAfterSeconds: 2 }],
    ["a non-JSON 200", 200, '{"ok":tr', { cause: "malformed", body: '{"ok":tr' }],
    ["a JSON array", 200, [1, 2], { cause: "malformed" }],
    ["200 without ok: true", 200, { ok: false }, { cause: "malformed" }],
    ["200 with a data that is not an object", 200, { ok: true, data: 5 }, { cause: "malformed" }],
    ["a 400 that is not a failure body", 400, { ok: true }, { cause: "malformed" }],
    ["a 500", 500, { ok: false }, { cause: "unexpected_status", status: 500 }],
    [
      "unconfirmed: true",
      400,
      { ok: false, unconfirmed: true, tx_hash: "h3" },
      { cause: "unconfirmed", txHash: "h3" },
    ],
    ["a 400 with a tx_hash", 400, { ok: false, tx_hash: "h4" }, { cause: "unconfirmed" }],
  ])("ambiguous on %s", (_name, status, body, expected) => {
    expect(purchase(status, body)).toMatchObject({ kind: "ambiguous", status, ...expected });
  });

  it("no answer at all is ambiguous, whatever the reason", () => {
    const none = (cause: "timeout" | "transport" | "too_large") =>
      classifyPurchaseAnswer({ kind: "failure", cause, code: "X_CODE" }, LIMITS);
    expect(none("timeout")).toMatchObject({ kind: "ambiguous", cause: "timeout" });
    expect(none("transport")).toMatchObject({
      kind: "ambiguous",
      cause: "transport",
      detail: expect.stringContaining("X_CODE"),
    });
    expect(none("too_large")).toMatchObject({
      kind: "ambiguous",
      cause: "malformed",
      detail: expect.stringContaining("larger than 1024 bytes"),
    });
  });
});

describe("classifyUserInfoAnswer", () => {
  it("reads found, username and premium; a missing is_premium stays unknown", () => {
    expect(
      classifyUserInfoAnswer("a", answer(200, { ok: true, username: "a", is_premium: true })),
    ).toEqual({
      kind: "success",
      value: { found: true, username: "a", isPremium: true },
      body: { ok: true, username: "a", is_premium: true },
    });
    expect(classifyUserInfoAnswer("a", answer(200, { ok: false }))).toMatchObject({
      kind: "success",
      value: { found: false, username: undefined, isPremium: undefined },
    });
  });

  it("a body that is not user info is unavailable (malformed), not a guess", () => {
    for (const body of [{ ok: "yes" }, { ok: true, is_premium: "no" }, {}]) {
      expect(classifyUserInfoAnswer("a", answer(200, body))).toMatchObject({
        kind: "unavailable",
        cause: "malformed",
      });
    }
  });
});

describe("classifyUserInfoAnswer: whose account", () => {
  it("takes the service's spelling of the asked name (case, @), never another account", () => {
    const about = (asked: string, username: string) =>
      classifyUserInfoAnswer(asked, answer(200, { ok: true, username, is_premium: false }));
    expect(about("alice_friend", "Alice_Friend")).toMatchObject({
      kind: "success",
      value: { username: "Alice_Friend" },
    });
    expect(about("@alice_friend", "alice_friend")).toMatchObject({ kind: "success" });
    for (const other of ["mallory_x", "alice_friend2", "alice"]) {
      expect(about("alice_friend", other)).toEqual({
        kind: "unavailable",
        cause: "malformed",
        status: 200,
        detail: "the answer names another account than the one asked about",
      });
    }
  });
});

describe("classifyBalanceAnswer", () => {
  it("reads the balances as decimal strings; a failure body is a refusal", () => {
    expect(
      classifyBalanceAnswer(answer(200, { ok: true, data: { ton: "1.5", usdt: 2 } })),
    ).toMatchObject({ kind: "success", value: { ton: "1.5", usdt: "2", recognised: true } });
    expect(classifyBalanceAnswer(answer(200, { ok: false, error: "NO_WALLET" }))).toMatchObject({
      kind: "rejected",
      detail: "NO_WALLET",
    });
    expect(classifyBalanceAnswer(answer(200, { ok: true, wallet: [] }))).toMatchObject({
      kind: "success",
      value: { recognised: false },
    });
  });
});

describe("classifyReadAnswer", () => {
  const attempt = { attempt: 0, readRetries: 2, maxRetryWaitSeconds: 60, maxBodyBytes: 1024 };
  const read = (a: Answer, at = attempt) =>
    classifyReadAnswer(a, at, (answered) => classifyUserInfoAnswer("a", answered));

  it("retries a 429/503 within the retries and the longest wait, then reports rate limited", () => {
    const flood = answer(429, { ok: false, retry_after: 3 });
    expect(read(flood)).toEqual({ action: "retry", retryAfterSeconds: 3 });
    expect(read(flood, { ...attempt, attempt: 2 })).toMatchObject({
      action: "return",
      outcome: { kind: "rate_limited", status: 429, retryAfterSeconds: 3 },
    });
    expect(read(answer(503, { ok: false }, { "retry-after": "61" }))).toMatchObject({
      action: "return",
      outcome: { kind: "unavailable", cause: "wait_too_long", retryAfterSeconds: 61 },
    });
  });

  it("a read's 400 is a refusal even with a transaction hash: no money moves on a read", () => {
    expect(read(answer(400, { ok: false, error: "BAD", tx_hash: "h" }))).toMatchObject({
      action: "return",
      outcome: { kind: "rejected", detail: "BAD" },
    });
  });

  it("no answer, a malformed body or an odd status is unavailable", () => {
    expect(
      classifyReadAnswer({ kind: "failure", cause: "timeout", code: "T" }, attempt, () => {
        throw new Error("not reached");
      }),
    ).toMatchObject({ outcome: { kind: "unavailable", cause: "timeout" } });
    expect(read(answer(200, "<html>"))).toMatchObject({
      outcome: { kind: "unavailable", cause: "malformed", status: 200 },
    });
    expect(read(answer(302, { ok: true }))).toMatchObject({
      outcome: { kind: "unavailable", cause: "unexpected_status", status: 302 },
    });
  });
});
