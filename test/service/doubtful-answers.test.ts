import { describe, expect, it } from "vitest";
import { toAnswer } from "../../src/service/answer.js";
import { classifyPurchaseAnswer } from "../../src/service/classify-purchase.js";
import { SecretScrubber } from "../../src/service/secrets.js";
import { clientFor, sandboxForTest } from "../helpers/service.js";

/**
 * Answers that look like a success or a plain refusal but carry a sign that money may have
 * moved (docs/service-contract.md §5.1). Each is ambiguous: recorded unconfirmed, never resent.
 */
const DOUBTFUL_SUCCESSES: [string, object][] = [
  ['unconfirmed: "true"', { ok: true, unconfirmed: "true", tx_hash: "h1" }],
  ["unconfirmed: 1", { ok: true, unconfirmed: 1 }],
  ['unconfirmed: "yes"', { ok: true, unconfirmed: "yes" }],
  ['unconfirmed: "false" (a string)', { ok: true, unconfirmed: "false" }],
  ["unconfirmed: true", { ok: true, unconfirmed: true }],
  ["unconfirmed in data", { ok: true, data: { price: "3", unconfirmed: true } }],
  ["unconfirmed deep in data", { ok: true, data: { transfer: { unconfirmed: "1" } } }],
  ["unconfirmed in info", { ok: true, info: { unconfirmed: true } }],
  ["unconfirmed in a list", { ok: true, data: { steps: [{ unconfirmed: "yes" }] } }],
  ["a tx_hash in info", { ok: true, info: { tx_hash: "h2" } }],
  ["a tx_hash deep in info", { ok: true, info: { transfer: { tx_hash: "h3" } } }],
];

const DOUBTFUL_REFUSALS: [string, object][] = [
  ["a tx_hash at the top", { ok: false, error: "UPSTREAM", tx_hash: "h4" }],
  ["a tx_hash in data", { ok: false, error: "UPSTREAM", data: { tx_hash: "h5" } }],
  ["a tx_hash in info", { ok: false, info: { tx_hash: "h6" } }],
  ["a tx_hash deep in info", { ok: false, info: { transfer: { result: { tx_hash: "h7" } } } }],
  ["a tx_hash in a list in info", { ok: false, info: [{ tx_hash: "h8" }] }],
  ["a hash that is a number", { ok: false, tx_hash: 12345 }],
  ["a hash spelled txHash", { ok: false, info: { txHash: "h9" } }],
  ["a hash spelled transaction_hash", { ok: false, transaction_hash: "h10" }],
  ['unconfirmed: "true"', { ok: false, error: "TIMEOUT", unconfirmed: "true" }],
  ["unconfirmed: 1", { ok: false, unconfirmed: 1 }],
  ["unconfirmed in info", { ok: false, info: { unconfirmed: true } }],
  ['unconfirmed: "yes" in data', { ok: false, data: { unconfirmed: "yes" } }],
];

const PLAIN_SUCCESSES: [string, object][] = [
  ["a hash at the top and unconfirmed: false", { ok: true, tx_hash: "h", unconfirmed: false }],
  ["a hash in data", { ok: true, data: { tx_hash: "h" } }],
  ["unconfirmed: null and 0", { ok: true, unconfirmed: null, data: { unconfirmed: 0 } }],
];

const PLAIN_REFUSALS: [string, object][] = [
  ["an empty tx_hash", { ok: false, error: "BAD", tx_hash: "" }],
  ["unconfirmed: false", { ok: false, error: "BAD", unconfirmed: false }],
  ["a null hash in info", { ok: false, error: "BAD", info: { tx_hash: null, note: "x" } }],
];

describe("doubtful purchase answers are ambiguous (through the sandbox over HTTP)", () => {
  it.each([
    ...DOUBTFUL_SUCCESSES.map(([name, body]) => [`200 with ${name}`, 200, body] as const),
    ...DOUBTFUL_REFUSALS.map(([name, body]) => [`400 with ${name}`, 400, body] as const),
  ])("%s: ambiguous (unconfirmed), body kept, sent once", async (_name, status, body) => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox);
    sandbox.injectFault({ type: "status", status, body });
    const outcome = await client.buyStars({ username: "alice", amount: 50 });
    expect(outcome).toMatchObject({ kind: "ambiguous", cause: "unconfirmed", status, body });
    expect(sandbox.purchaseRequests()).toHaveLength(1);
  });

  it("the hash found is reported, the shallowest first", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox);
    sandbox.injectFault({
      type: "status",
      status: 400,
      body: { ok: false, info: { deeper: { tx_hash: "second" }, tx_hash: "first" } },
    });
    expect(await client.buyStars({ username: "alice", amount: 50 })).toMatchObject({
      kind: "ambiguous",
      txHash: "first",
      detail: expect.stringContaining("in info"),
    });
  });

  it.each(PLAIN_SUCCESSES)("200 with %s stays a success", async (_name, body) => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox);
    sandbox.injectFault({ type: "status", status: 200, body });
    expect(await client.buyStars({ username: "alice", amount: 50 })).toMatchObject({
      kind: "success",
    });
  });

  it.each(PLAIN_REFUSALS)("400 with %s stays a refusal", async (_name, body) => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox);
    sandbox.injectFault({ type: "status", status: 400, body });
    expect(await client.buyStars({ username: "alice", amount: 50 })).toMatchObject({
      kind: "rejected",
      detail: "BAD",
    });
  });
});

/**
 * JSON oddities a hostile or broken service may send, as raw text: what the parse keeps is not
 * all there is. Each doubt marker written anywhere must still make the answer ambiguous.
 */
const deeplyNested = (depth: number, inner: string) =>
  `{"ok":true,"data":${'{"a":'.repeat(depth)}${inner}${"}".repeat(depth)}}`;
const ODD_DOUBTFUL: [string, number, string][] = [
  [
    "a refusal hiding its doubt under __proto__",
    400,
    '{"ok":false,"error":"BAD","__proto__":{"unconfirmed":true,"tx_hash":"h11"}}',
  ],
  [
    "a success hiding unconfirmed under __proto__",
    200,
    '{"ok":true,"__proto__":{"unconfirmed":true}}',
  ],
  [
    "a duplicate unconfirmed whose last value is false",
    200,
    '{"ok":true,"unconfirmed":true,"unconfirmed":false}',
  ],
  [
    "a duplicate tx_hash whose last value is empty",
    400,
    '{"ok":false,"error":"BAD","tx_hash":"h12","tx_hash":""}',
  ],
  ["unconfirmed under constructor", 200, '{"ok":true,"constructor":{"unconfirmed":1}}'],
  [
    "unconfirmed nested deeper than the markers are looked for",
    200,
    deeplyNested(20, '{"unconfirmed":true}'),
  ],
];

describe("JSON oddities in a purchase answer (through the sandbox over HTTP)", () => {
  it.each(ODD_DOUBTFUL)("%s: ambiguous (unconfirmed), sent once", async (_name, status, text) => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox);
    sandbox.injectFault({ type: "status", status, body: text });
    const outcome = await client.buyStars({ username: "alice", amount: 50 });
    expect(outcome).toMatchObject({ kind: "ambiguous", cause: "unconfirmed" });
    expect(sandbox.purchaseRequests()).toHaveLength(1);
  });

  it("nesting too deep to read is ambiguous (malformed), never a crash or a refusal", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox);
    const depth = 200_000;
    sandbox.injectFault({
      type: "status",
      status: 400,
      body: `{"ok":false,"error":"BAD","d":${"[".repeat(depth)}${"]".repeat(depth)}}`,
    });
    const outcome = await client.buyStars({ username: "alice", amount: 50 });
    expect(outcome.kind).toBe("ambiguous");
  });

  it("huge numbers change nothing: a plain refusal stays one, a success stays one", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox);
    sandbox.injectFault({
      type: "status",
      status: 400,
      body: '{"ok":false,"error":"BAD","amount":1e400,"id":123456789012345678901234567890}',
    });
    expect(await client.buyStars({ username: "alice", amount: 50 })).toMatchObject({
      kind: "rejected",
      detail: "BAD",
    });
    sandbox.injectFault({
      type: "status",
      status: 200,
      body: '{"ok":true,"tx_hash":"h13","data":{"price":1e400,"unconfirmed":false}}',
    });
    expect(await client.buyStars({ username: "alice", amount: 50 })).toMatchObject({
      kind: "success",
    });
  });

  it("a copy of the answer keeps a __proto__ key as a key, never as a prototype", async () => {
    const sandbox = await sandboxForTest();
    const client = clientFor(sandbox);
    sandbox.injectFault({
      type: "status",
      status: 400,
      body: '{"ok":false,"error":"BAD","__proto__":{"unconfirmed":true}}',
    });
    const outcome = await client.buyStars({ username: "alice", amount: 50 });
    const body = (outcome as { body?: object }).body ?? {};
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect(Object.keys(body)).toContain("__proto__");
  });
});

describe("doubtful purchase answers are ambiguous (the pure classifier)", () => {
  const classify = (status: number, body: object) =>
    classifyPurchaseAnswer(
      toAnswer(
        { kind: "response", status, headers: {}, text: JSON.stringify(body) },
        new SecretScrubber([]),
      ),
      { maxBodyBytes: 1024 },
    );

  it.each(DOUBTFUL_SUCCESSES)("200 with %s", (_name, body) => {
    expect(classify(200, body)).toMatchObject({ kind: "ambiguous", cause: "unconfirmed" });
  });

  it.each(DOUBTFUL_REFUSALS)("400 with %s", (_name, body) => {
    expect(classify(400, body)).toMatchObject({ kind: "ambiguous", cause: "unconfirmed" });
  });

  it.each(PLAIN_SUCCESSES)("200 with %s: success", (_name, body) => {
    expect(classify(200, body).kind).toBe("success");
  });

  it.each(PLAIN_REFUSALS)("400 with %s: rejected", (_name, body) => {
    expect(classify(400, body).kind).toBe("rejected");
  });
});
