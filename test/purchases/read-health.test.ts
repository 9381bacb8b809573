import { describe, expect, it } from "vitest";
import { ReadHealth, readVerdict } from "../../src/purchases/read-health.js";
import type { ReadOutcome } from "../../src/service/types.js";

const T0 = Date.UTC(2030, 0, 1, 12);
const MINUTE = 60_000;

const answered: ReadOutcome<unknown> = { kind: "success", value: {}, body: { ok: true } };
const timeout: ReadOutcome<unknown> = { kind: "unavailable", cause: "timeout", detail: "timeout" };
const transport: ReadOutcome<unknown> = {
  kind: "unavailable",
  cause: "transport",
  detail: "ECONNREFUSED",
};
const unavailable503: ReadOutcome<unknown> = {
  kind: "rate_limited",
  status: 503,
  retryAfterSeconds: 5,
  body: undefined,
};
const flood429: ReadOutcome<unknown> = {
  kind: "rate_limited",
  status: 429,
  retryAfterSeconds: 5,
  body: undefined,
};

describe("readVerdict", () => {
  it("counts any answer, a refusal too, as the service being there", () => {
    expect(readVerdict(answered)).toBe("answered");
    expect(
      readVerdict({ kind: "rejected", status: 400, body: { ok: false }, detail: undefined }),
    ).toBe("answered");
  });

  it("counts timeouts, transport errors, malformed answers and 503s as unreachable", () => {
    expect(readVerdict(timeout)).toBe("unreachable");
    expect(readVerdict(transport)).toBe("unreachable");
    expect(readVerdict({ kind: "unavailable", cause: "malformed", detail: "x" })).toBe(
      "unreachable",
    );
    expect(readVerdict(unavailable503)).toBe("unreachable");
    expect(
      readVerdict({ kind: "unavailable", cause: "wait_too_long", status: 503, detail: "x" }),
    ).toBe("unreachable");
  });

  it("says nothing on a 429 (the service is there, asking to wait) or a read never sent", () => {
    expect(readVerdict(flood429)).toBe("neutral");
    expect(
      readVerdict({ kind: "unavailable", cause: "wait_too_long", status: 429, detail: "x" }),
    ).toBe("neutral");
    expect(readVerdict({ kind: "invalid", field: "username", detail: "x" })).toBe("neutral");
  });
});

describe("ReadHealth", () => {
  it("announces one outage once reads have failed for the whole alert time, and one recovery", () => {
    const health = new ReadHealth({ alertAfterMs: 2 * MINUTE });
    expect(health.record(timeout, T0)).toBeUndefined();
    expect(health.record(transport, T0 + MINUTE)).toBeUndefined();
    expect(health.record(unavailable503, T0 + 2 * MINUTE)).toEqual({
      kind: "outage",
      since: T0,
      failures: 3,
    });
    expect(health.inOutage).toBe(true);
    // Still failing: no second alert.
    expect(health.record(timeout, T0 + 3 * MINUTE)).toBeUndefined();
    expect(health.check(T0 + 10 * MINUTE)).toBeUndefined();
    expect(health.record(answered, T0 + 11 * MINUTE)).toEqual({
      kind: "recovered",
      since: T0,
      downForMs: 11 * MINUTE,
      failures: 4,
    });
    expect(health.inOutage).toBe(false);
    expect(health.record(answered, T0 + 12 * MINUTE)).toBeUndefined();
  });

  it("says nothing about a blip shorter than the alert time", () => {
    const health = new ReadHealth({ alertAfterMs: 2 * MINUTE });
    health.record(timeout, T0);
    health.record(timeout, T0 + MINUTE);
    expect(health.record(answered, T0 + MINUTE + 1)).toBeUndefined();
    // The next run of failures starts its own clock.
    expect(health.record(timeout, T0 + 2 * MINUTE + 1)).toBeUndefined();
    expect(health.check(T0 + 4 * MINUTE)).toBeUndefined();
    expect(health.check(T0 + 4 * MINUTE + 1)).toMatchObject({ kind: "outage", failures: 1 });
  });

  it("announces through check() even when nobody reads any more", () => {
    const health = new ReadHealth({ alertAfterMs: 2 * MINUTE });
    health.record(timeout, T0);
    expect(health.check(T0 + MINUTE)).toBeUndefined();
    expect(health.check(T0 + 2 * MINUTE)).toMatchObject({ kind: "outage", since: T0 });
    expect(health.check(T0 + 3 * MINUTE)).toBeUndefined();
  });

  it("is not moved by 429s either way", () => {
    const health = new ReadHealth({ alertAfterMs: MINUTE });
    health.record(timeout, T0);
    expect(health.record(flood429, T0 + MINUTE)).toMatchObject({ kind: "outage" });
    expect(health.record(flood429, T0 + 2 * MINUTE)).toBeUndefined();
    expect(health.inOutage).toBe(true);
  });

  it("defaults to 120 seconds", () => {
    const health = new ReadHealth();
    health.record(timeout, T0);
    expect(health.check(T0 + 119_999)).toBeUndefined();
    expect(health.check(T0 + 120_000)).toMatchObject({ kind: "outage" });
  });
});
