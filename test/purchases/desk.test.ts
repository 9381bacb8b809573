import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Address } from "@ton/core";
import { describe, expect, it, onTestFinished } from "vitest";
import type { PurchaseIntent, PurchaseLedger } from "../../src/ledger/types.js";
import { createTonEvidence } from "../../src/purchases/on-chain.js";
import type { ConfirmResult } from "../../src/purchases/types.js";
import type { Fault } from "../../tools/sandbox/server.js";
import type { Ambiguous } from "../../src/service/types.js";
import { CANARY, CANARY_FRAGMENTS, deskFixture, NOON } from "../helpers/desk.js";
import { startFakeToncenter } from "./toncenter-fake.js";
import { username } from "../helpers/username.js";
import { capturingLogger } from "../helpers/log-capture.js";

const STARS = "/buy-stars/";

function userInfoRequests(f: { sandbox: { requests: { path: string }[] } }): number {
  return f.sandbox.requests.filter((r) => r.path === "/get-user-info/").length;
}

describe("PurchaseDesk reads", () => {
  it("normalises, validates, shares and caches recipient checks", async () => {
    const f = await deskFixture();
    expect(await f.desk.checkRecipient("no")).toEqual({ kind: "invalid_username" });
    expect(await f.desk.checkRecipient("@@alice")).toEqual({ kind: "invalid_username" });
    expect(userInfoRequests(f)).toBe(0);

    const checks = await Promise.all([
      f.desk.checkRecipient("@alice_1"),
      f.desk.checkRecipient("alice_1"),
      f.desk.checkRecipient("https://t.me/Alice_1"),
      f.desk.checkRecipient("  @ALICE_1 "),
    ]);
    for (const check of checks) expect(check).toMatchObject({ kind: "ok", isPremium: false });
    expect(userInfoRequests(f)).toBe(1);
    await f.desk.checkRecipient("alice_1");
    expect(userInfoRequests(f)).toBe(1);
    f.clock.now += 60_001;
    await f.desk.checkRecipient("alice_1");
    expect(userInfoRequests(f)).toBe(2);

    expect(await f.desk.checkRecipient("nobody_here")).toEqual({ kind: "not_found" });
    expect(await f.desk.checkRecipient("premium_pal")).toMatchObject({
      kind: "ok",
      isPremium: true,
    });
  });

  it("shares and caches balance reads for 15 seconds", async () => {
    const f = await deskFixture({ sandbox: { balance: { ton: "12.5", usdt: "40" } } });
    const balanceReads = () =>
      f.sandbox.requests.filter((r) => r.path === "/wallet-balance/").length;
    const reads = await Promise.all([f.desk.readBalance(), f.desk.readBalance()]);
    expect(reads[0]).toMatchObject({ kind: "ok", balance: { ton: "12.5", usdt: "40" } });
    expect(balanceReads()).toBe(1);
    f.clock.now += 14_000;
    await f.desk.readBalance();
    expect(balanceReads()).toBe(1);
    f.clock.now += 2_000;
    await f.desk.readBalance();
    expect(balanceReads()).toBe(2);
  });
});

describe("PurchaseDesk.confirm", () => {
  it("buys stars once, records the full response, and answers repeats without sending", async () => {
    const f = await deskFixture();
    const intent = await f.starsDraft();
    const result = await f.desk.confirm(intent.id, 1);
    expect(result.kind).toBe("succeeded");
    expect(f.sandbox.purchaseRequests()).toHaveLength(1);
    expect(f.sandbox.purchaseRequests()[0]?.form).toMatchObject({
      username: "alice_1",
      amount: "100",
      payment_method: "ton",
    });
    const stored = await f.records.getIntent(intent.id);
    expect(stored?.status).toBe("succeeded");
    expect(stored?.response).toMatchObject({ ok: true });
    if (result.kind === "succeeded") expect(stored?.txHash).toBe(result.txHash);

    expect(await f.desk.confirm(intent.id, 1)).toEqual({
      kind: "refused",
      refusal: { reason: "already_done", status: "succeeded" },
    });
    expect(await f.desk.confirm(intent.id, 2)).toEqual({
      kind: "refused",
      refusal: { reason: "not_owner" },
    });
    expect(f.sandbox.purchaseRequests()).toHaveLength(1);
  });

  it("tells onConfirmed of every press, sent or not, with the gift's kind; onPurchaseSent only of those sent", async () => {
    const f = await deskFixture();
    const confirmed: [string, string | undefined][] = [];
    const sent: string[] = [];
    f.desk.events.on("confirmed", (result, giftKind) => confirmed.push([result.kind, giftKind]));
    f.desk.events.on("sent", (result) => {
      sent.push(result.kind);
    });
    f.desk.events.on("confirmed", () => {
      throw new Error("a failing listener disturbs nothing");
    });
    const intent = await f.starsDraft();
    expect((await f.desk.confirm(intent.id, 1)).kind).toBe("succeeded");
    expect((await f.desk.confirm(intent.id, 1)).kind).toBe("refused");
    expect((await f.desk.confirm("no-such-intent", 1)).kind).toBe("refused");
    expect(confirmed).toEqual([
      ["succeeded", "stars"],
      ["refused", "stars"],
      ["refused", undefined],
    ]);
    expect(sent).toEqual(["succeeded"]);
  });

  it("1,000 concurrent confirmations (one desk) send exactly one request", async () => {
    const f = await deskFixture();
    const intent = await f.starsDraft();
    const results = await Promise.all(
      Array.from({ length: 1000 }, () => f.desk.confirm(intent.id, 1)),
    );
    expect(results.filter((r) => r.kind === "succeeded")).toHaveLength(1);
    expect(results.filter((r) => r.kind === "refused")).toHaveLength(999);
    expect(f.sandbox.purchaseRequests()).toHaveLength(1);
  });

  it("1,000 concurrent confirmations over several connections send exactly one request", async () => {
    const f = await deskFixture();
    const intent = await f.starsDraft();
    const desks = [f.desk, await f.secondDesk(), await f.secondDesk(), await f.secondDesk()];
    const results = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => desks[i % desks.length]!.confirm(intent.id, 1)),
    );
    expect(results.filter((r) => r.kind === "succeeded")).toHaveLength(1);
    expect(f.sandbox.purchaseRequests()).toHaveLength(1);
  });

  const ambiguousFaults: [string, Fault][] = [
    [
      "429",
      {
        type: "status",
        status: 429,
        body: { ok: false, error: "FLOOD_WAIT", retry_after: 1 },
        headers: { "retry-after": "1" },
      },
    ],
    [
      "503",
      {
        type: "status",
        status: 503,
        body: { ok: false, error: "RATE_LIMIT_UNAVAILABLE" },
        headers: { "retry-after": "1" },
      },
    ],
    ["timeout", { type: "delay", ms: 5_000 }],
    ["dropped connection", { type: "drop" }],
    ["malformed body", { type: "malformed" }],
    ["unconfirmed: true", { type: "unconfirmed", executed: true }],
  ];

  it.each(ambiguousFaults)(
    "%s ends unconfirmed, notifies once, freezes claims until resolved, never resends",
    async (_name, fault) => {
      const f = await deskFixture({ client: { timeouts: { headersMs: 300, bodyMs: 300 } } });
      const told: [string, Ambiguous][] = [];
      f.desk.events.on("unconfirmed", (intent, ambiguity) => told.push([intent.id, ambiguity]));
      f.desk.events.on("unconfirmed", () => {
        throw new Error("a broken listener must not break the purchase");
      });
      const intent = await f.starsDraft();
      const next = await f.starsDraft({ requester: { userId: 2, chatId: 2, chatType: "private" } });
      f.sandbox.injectFault(fault, { path: STARS });

      const result = await f.desk.confirm(intent.id, 1);
      expect(result.kind).toBe("unconfirmed");
      expect((await f.records.getIntent(intent.id))?.status).toBe("unconfirmed");
      expect((await f.records.getIntent(intent.id))?.response).toBeDefined();
      expect(told.map(([id]) => id)).toEqual([intent.id]);
      expect(await f.records.status()).toEqual({ paused: false, unconfirmed: 1 });

      expect(await f.desk.confirm(intent.id, 1)).toMatchObject({ kind: "refused" });
      expect(await f.desk.confirm(next.id, 2)).toEqual({
        kind: "refused",
        refusal: { reason: "frozen", unconfirmed: 1 },
      });
      expect(f.sandbox.purchaseRequests()).toHaveLength(1);

      expect(await f.desk.admin.resolve(intent.id, 99, true)).toMatchObject({
        ok: true,
        unconfirmedLeft: 0,
      });
      expect(await f.desk.admin.resolve(intent.id, 99, true)).toEqual({
        ok: false,
        reason: "not_unconfirmed",
      });
      expect((await f.desk.confirm(next.id, 2)).kind).toBe("succeeded");
      expect(f.sandbox.purchaseRequests()).toHaveLength(2);
      expect(told).toHaveLength(1);
    },
  );

  it("a rejected outcome (400) ends rejected, freezes nothing and notifies no one", async () => {
    const f = await deskFixture();
    const told: string[] = [];
    f.desk.events.on("unconfirmed", (intent) => told.push(intent.id));
    const intent = await f.starsDraft();
    f.sandbox.injectFault(
      { type: "status", status: 400, body: { ok: false, error: "PRICE_GUARD", price_guard: true } },
      { path: STARS },
    );
    const result = await f.desk.confirm(intent.id, 1);
    expect(result.kind).toBe("rejected");
    if (result.kind === "rejected") expect(result.rejection.detail).toContain("PRICE_GUARD");
    expect((await f.records.getIntent(intent.id))?.status).toBe("rejected");
    expect((await f.records.status()).unconfirmed).toBe(0);
    expect(told).toEqual([]);
    expect((await f.desk.confirm((await f.starsDraft()).id, 1)).kind).toBe("succeeded");
  });

  it("an invalid answer from the client after the claim is not sent, recorded as rejected", async () => {
    const f = await deskFixture({
      wrapClient: (client) => ({
        ...client,
        buyStars: () =>
          Promise.resolve({ kind: "invalid", field: "amount", detail: "out of range" } as const),
      }),
    });
    const intent = await f.starsDraft();
    const result = await f.desk.confirm(intent.id, 1);
    expect(result).toMatchObject({ kind: "not_sent", reason: "invalid" });
    expect(await f.records.getIntent(intent.id)).toMatchObject({
      status: "rejected",
      outcomeDetail: "not sent: refused by the client before sending (invalid amount)",
    });
    expect(f.sandbox.purchaseRequests()).toHaveLength(0);
  });

  it("limits, the pause switch and expiry are enforced through the desk", async () => {
    const f = await deskFixture({
      ledger: { limits: { starsPerPurchase: 200 }, draftTtlMs: 60_000 },
    });
    expect(await f.desk.confirm((await f.starsDraft({ quantity: 250 })).id, 1)).toMatchObject({
      kind: "refused",
      refusal: { reason: "limit", limit: "stars_per_purchase", max: 200 },
    });
    await f.desk.admin.pause(99);
    const intent = await f.starsDraft();
    expect(await f.desk.confirm(intent.id, 1)).toEqual({
      kind: "refused",
      refusal: { reason: "paused", source: "admin" },
    });
    await f.desk.admin.resume(99);
    f.clock.now += 60_000;
    expect(await f.desk.confirm(intent.id, 1)).toEqual({
      kind: "refused",
      refusal: { reason: "expired" },
    });
    expect(await f.desk.expireDrafts()).toBe(2);
    expect(f.sandbox.purchaseRequests()).toHaveLength(0);
    expect(await f.records.usageToday(1)).toMatchObject({
      starsUser: 0,
      resetsAt: Date.UTC(2030, 0, 2),
    });
  });
});

describe("PurchaseDesk premium", () => {
  const premiumDraft = (ledger: PurchaseLedger, recipient = "bob_gift") =>
    ledger.createDraft({
      kind: "premium",
      recipient: username(recipient),
      quantity: 3,
      paymentMethod: "usdt_ton",
      requester: { userId: 1, chatId: 1, chatType: "private" },
      balanceBefore: undefined,
    });

  it("an old summary re-checks is_premium (bypassing the cache) and cancels without buying", async () => {
    const f = await deskFixture();
    expect(await f.desk.checkRecipient("bob_gift")).toMatchObject({ isPremium: false });
    const intent = await premiumDraft(f.ledger);
    f.sandbox.setUser("bob_gift", { isPremium: true });
    f.clock.now += 60_001;
    const results = await Promise.all([f.desk.confirm(intent.id, 1), f.desk.confirm(intent.id, 1)]);
    expect(results.map((r) => r.kind).sort()).toEqual(["recipient_has_premium", "refused"]);
    expect((await f.records.getIntent(intent.id))?.status).toBe("cancelled");
    expect(f.sandbox.purchaseRequests()).toHaveLength(0);
    expect(userInfoRequests(f)).toBe(2);
  });

  it("a fresh summary buys without re-checking; an old one re-checks then buys", async () => {
    const f = await deskFixture();
    // The flows check each recipient at the username step: is_premium's age counts from there.
    await f.desk.checkRecipient("carol_gift");
    await f.desk.checkRecipient("dave_gift");
    const fresh = await premiumDraft(f.ledger, "carol_gift");
    expect((await f.desk.confirm(fresh.id, 1)).kind).toBe("succeeded");
    expect(userInfoRequests(f)).toBe(2);
    const old = await premiumDraft(f.ledger, "dave_gift");
    f.clock.now += 61_000;
    expect((await f.desk.confirm(old.id, 1)).kind).toBe("succeeded");
    expect(userInfoRequests(f)).toBe(3);
    expect(f.sandbox.purchaseRequests().map((r) => r.form?.duration)).toEqual(["3", "3"]);
  });

  it("gathers evidence for an unconfirmed premium: balances, premium now, tx_hash, chain", async () => {
    const wallet = Address.parse(`0:${"44".repeat(32)}`);
    const chain = await startFakeToncenter(wallet, [
      {
        now: Math.floor(NOON / 1000) + 5,
        lt: 100n,
        transfers: [{ destination: Address.parse(`0:${"55".repeat(32)}`), amountNano: 7n }],
      },
    ]);
    onTestFinished(() => chain.close());
    const f = await deskFixture({
      desk: {
        onChain: createTonEvidence({ endpoint: chain.endpoint, walletAddress: wallet.toString() }),
      },
    });
    const intent = await premiumDraft(f.ledger);
    f.sandbox.injectFault({ type: "unconfirmed", executed: true }, { path: "/buy-premium/" });
    const result: ConfirmResult = await f.desk.confirm(intent.id, 1);
    expect(result.kind).toBe("unconfirmed");
    const evidence = await f.desk.admin.evidence(intent.id);
    expect(evidence?.recipientHasPremiumNow).toBe(true);
    expect(evidence?.balanceNow?.usdt).toBeDefined();
    expect(evidence?.onChainTransfers).toEqual([
      expect.objectContaining({ amountNano: "7", at: (Math.floor(NOON / 1000) + 5) * 1000 }),
    ]);
    expect(evidence?.txHash).toBe((await f.records.getIntent(intent.id))?.txHash);
    expect(await f.desk.admin.evidence("missing")).toBeUndefined();
    expect(f.sandbox.purchaseRequests()).toHaveLength(1);
  });
});

describe("secrets and the database", () => {
  it("no canary secret reaches the database file (or a log line) after every kind of outcome", async () => {
    const { logger, lines } = capturingLogger();
    const f = await deskFixture({
      client: { timeouts: { headersMs: 300, bodyMs: 300 }, logger },
      desk: { logger },
    });
    await f.desk.checkRecipient("alice_1");
    await f.desk.readBalance();
    expect((await f.desk.confirm((await f.starsDraft()).id, 1)).kind).toBe("succeeded");
    f.sandbox.injectFault({ type: "status", status: 400, body: { ok: false, error: "NOPE" } });
    expect((await f.desk.confirm((await f.starsDraft()).id, 1)).kind).toBe("rejected");
    for (const fault of [
      { type: "unconfirmed", executed: true },
      { type: "malformed" },
      { type: "drop" },
      { type: "delay", ms: 3_000 },
      { type: "status", status: 429, body: { ok: false }, headers: { "retry-after": "1" } },
    ] as Fault[]) {
      f.sandbox.injectFault(fault, { path: STARS });
      const intent = await f.starsDraft();
      expect((await f.desk.confirm(intent.id, 1)).kind).toBe("unconfirmed");
      await f.desk.admin.resolve(intent.id, 99, false);
    }
    // A service or proxy that echoes the request's secrets back in its error body: the body is
    // stored as the intent's response, so this is the path from the wire to the database.
    const echo = {
      error: `Mnemonic rejected: ${CANARY.mnemonic}`,
      reason: `Cookie: ${CANARY.cookie}; Proxy: ${CANARY.proxy}`,
      info: { mnemonic: CANARY.mnemonic, cookie: CANARY.cookie, proxy: CANARY.proxy },
    };
    const echoed: string[] = [];
    f.sandbox.injectFault(
      { type: "status", status: 400, body: { ok: false, ...echo } },
      { path: STARS },
    );
    const echoRejected = await f.starsDraft();
    expect((await f.desk.confirm(echoRejected.id, 1)).kind).toBe("rejected");
    echoed.push(echoRejected.id);
    f.sandbox.injectFault(
      {
        type: "status",
        status: 400,
        body: { ok: false, unconfirmed: true, transient: true, ...echo },
      },
      { path: STARS },
    );
    const echoUnconfirmed = await f.starsDraft();
    expect((await f.desk.confirm(echoUnconfirmed.id, 1)).kind).toBe("unconfirmed");
    echoed.push(echoUnconfirmed.id);
    await f.desk.admin.evidence(echoUnconfirmed.id);
    await f.desk.admin.resolve(echoUnconfirmed.id, 99, false);
    for (const id of echoed) {
      // The bodies did reach the response column, with the secrets scrubbed out of them.
      const stored = JSON.stringify((await f.records.getIntent(id))?.response);
      expect(stored).toContain("Mnemonic rejected");
      expect(stored).toContain("[redacted]");
    }

    await f.desk.admin.evidence((await f.records.recent({ limit: 1 }))[0]?.id ?? "");
    f.db.close();

    expect(lines.some((l) => l.includes("purchase outcome recorded"))).toBe(true);
    for (const canary of CANARY_FRAGMENTS) {
      expect(
        lines.some((l) => l.includes(canary)),
        `${canary} in a log line`,
      ).toBe(false);
    }

    const files = readdirSync(f.dir);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const bytes = readFileSync(join(f.dir, file)).toString("latin1");
      for (const canary of CANARY_FRAGMENTS)
        expect(bytes.includes(canary), `${canary} in ${file}`).toBe(false);
    }
  });
});

describe("purchase desk: one purchase in flight at a time", () => {
  it("a purchase queued behind one that ends ambiguous is never sent", async () => {
    const f = await deskFixture({ client: { timeouts: { headersMs: 300, bodyMs: 300 } } });
    const first = await f.starsDraft();
    const second = await f.starsDraft({ requester: { userId: 2, chatId: 2, chatType: "private" } });
    // The first purchase is held past the client's timeout: its outcome becomes unknown.
    f.sandbox.injectFault({ type: "delay", ms: 5_000 }, { path: STARS });
    const queued: number[] = [];

    const firstResult = f.desk.confirm(first.id, 1);
    await f.sandbox.waitForRequests(1, STARS);
    const secondResult = f.desk.confirm(second.id, 2, { onQueued: (ms) => queued.push(ms) });

    expect((await firstResult).kind).toBe("unconfirmed");
    expect(await secondResult).toEqual({
      kind: "refused",
      refusal: { reason: "frozen", unconfirmed: 1 },
    });
    expect(queued).toHaveLength(1);
    expect(f.sandbox.purchaseRequests()).toHaveLength(1);
    expect((await f.records.getIntent(second.id))?.status).toBe("draft");
  });

  it("another connection's confirmation is refused as busy while a purchase is in flight", async () => {
    const f = await deskFixture();
    const first = await f.starsDraft();
    const second = await f.starsDraft({ requester: { userId: 2, chatId: 2, chatType: "private" } });
    f.sandbox.injectFault({ type: "delay", ms: 300 }, { path: STARS });

    const firstResult = f.desk.confirm(first.id, 1);
    await f.sandbox.waitForRequests(1, STARS);
    expect(await (await f.secondDesk()).confirm(second.id, 2)).toEqual({
      kind: "refused",
      refusal: { reason: "busy" },
    });
    expect((await firstResult).kind).toBe("succeeded");
    expect((await (await f.secondDesk()).confirm(second.id, 2)).kind).toBe("succeeded");
    expect(f.sandbox.purchaseRequests()).toHaveLength(2);
  });

  it("a confirmation still waiting for its quota slot when the client closes is never claimed", async () => {
    const f = await deskFixture({ client: { quota: { limit: 1, windowMs: 60_000 } } });
    // The only request of the window goes to a read; the purchase must wait for the next one.
    await f.desk.readBalance();
    const intent = await f.starsDraft();
    let queued!: (ms: number) => void;
    const queuedFor = new Promise<number>((resolve) => (queued = resolve));
    const result = f.desk.confirm(intent.id, 1, { onQueued: (ms) => queued(ms) });
    expect(await queuedFor).toBeGreaterThan(0);
    await f.client.close();
    expect(await result).toEqual({ kind: "refused", refusal: { reason: "stopping" } });
    expect((await f.records.history(intent.id)).map((change) => change.to)).toEqual([
      "draft",
      "queued",
      "draft",
    ]);
    expect((await f.records.status()).unconfirmed).toBe(0);
    expect(f.sandbox.purchaseRequests()).toHaveLength(0);
  });

  it("an old premium summary whose recipient cannot be re-checked buys nothing", async () => {
    const f = await deskFixture({ client: { readRetries: 0 } });
    const intent = await f.ledger.createDraft({
      kind: "premium",
      recipient: username("erin_gift"),
      quantity: 3,
      paymentMethod: "usdt_ton",
      requester: { userId: 1, chatId: 1, chatType: "private" },
      balanceBefore: undefined,
    });
    f.clock.now += 61_000;
    f.sandbox.injectFault({ type: "status", status: 503 }, { path: "/get-user-info/" });
    expect(await f.desk.confirm(intent.id, 1)).toEqual({
      kind: "refused",
      refusal: { reason: "recipient_unverified" },
    });
    expect((await f.records.getIntent(intent.id))?.status).toBe("draft");
    expect(f.sandbox.purchaseRequests()).toHaveLength(0);
  });
});

describe("the balance before a purchase, for reconciliation", () => {
  const UNCONFIRMED: Fault = { type: "unconfirmed", executed: true };
  const balanceReads = (f: { sandbox: { requests: { path: string }[] } }) =>
    f.sandbox.requests.filter((r) => r.path === "/wallet-balance/").length;
  /** What the bot does for a summary: the desk reads the balance and records the draft with it. */
  async function draftWithBalance(
    f: Awaited<ReturnType<typeof deskFixture>>,
    userId: number,
  ): Promise<PurchaseIntent> {
    return await f.desk.createDraft({
      kind: "stars",
      recipient: username("alice_1"),
      quantity: 100,
      paymentMethod: "ton",
      requester: { userId, chatId: userId, chatType: "private" },
    });
  }

  it("is replaced at send time by the desk's newer read, without an extra request", async () => {
    const f = await deskFixture({ sandbox: { balance: { ton: "100", usdt: "1000" } } });
    const slow = await draftWithBalance(f, 1);
    expect(slow.balanceBefore).toEqual({ ton: "100", usdt: "1000" });
    // The cache held the very figure the draft shows: its read time is known.
    expect(slow.balanceBeforeAt).toBe(NOON);

    // Another person's purchase goes through while the first summary waits.
    f.clock.now = NOON + 60_000;
    const other = await draftWithBalance(f, 2);
    expect((await f.desk.confirm(other.id, 2)).kind).toBe("succeeded");
    // Someone looks at the balance afterwards: the desk now knows a newer figure.
    f.clock.now = NOON + 120_000;
    const after = await f.desk.readBalance();
    if (after.kind !== "ok") throw new Error("the sandbox balance read failed");
    expect(after.balance.ton).not.toBe("100");

    f.clock.now = NOON + 180_000;
    const readsBefore = balanceReads(f);
    f.sandbox.injectFault(UNCONFIRMED, { path: STARS });
    expect((await f.desk.confirm(slow.id, 1)).kind).toBe("unconfirmed");
    expect(balanceReads(f)).toBe(readsBefore);

    const stored = await f.records.getIntent(slow.id);
    expect(stored?.balanceBefore).toEqual({ ton: after.balance.ton, usdt: after.balance.usdt });
    expect(stored?.balanceBeforeAt).toBe(NOON + 120_000);
    const evidence = await f.desk.admin.evidence(slow.id);
    expect(evidence?.balanceBefore).toEqual(stored?.balanceBefore);
    expect(evidence?.balanceBeforeAt).toBe(NOON + 120_000);
    expect(evidence?.balanceNowAt).toBe(NOON + 180_000);
    // The other purchase was over before the "before" read: it explains none of the drop.
    expect(evidence?.sentSinceBalanceBefore).toEqual([]);
  });

  it("keeps the draft's figure when nothing newer is known, and names the purchase sent in between", async () => {
    const f = await deskFixture({ sandbox: { balance: { ton: "100", usdt: "1000" } } });
    const slow = await draftWithBalance(f, 1);
    f.clock.now = NOON + 60_000;
    const other = await draftWithBalance(f, 2);
    expect((await f.desk.confirm(other.id, 2)).kind).toBe("succeeded");
    const rejected = await f.starsDraft({
      requester: { userId: 3, chatId: 3, chatType: "private" },
    });
    f.sandbox.injectFault({ type: "status", status: 400, body: { ok: false, error: "NOPE" } });
    expect((await f.desk.confirm(rejected.id, 3)).kind).toBe("rejected");

    f.clock.now = NOON + 120_000;
    f.sandbox.injectFault(UNCONFIRMED, { path: STARS });
    expect((await f.desk.confirm(slow.id, 1)).kind).toBe("unconfirmed");
    const stored = await f.records.getIntent(slow.id);
    expect(stored?.balanceBefore).toEqual({ ton: "100", usdt: "1000" });
    expect(stored?.balanceBeforeAt).toBe(NOON);

    const evidence = await f.desk.admin.evidence(slow.id);
    expect(evidence?.balanceBeforeAt).toBe(NOON);
    // The succeeded purchase may explain part of the drop; the rejected one spent nothing.
    expect(evidence?.sentSinceBalanceBefore?.map((i) => [i.id, i.status])).toEqual([
      [other.id, "succeeded"],
    ]);
  });

  it("a draft without a known read time takes a newer read made after the draft", async () => {
    const f = await deskFixture({ sandbox: { balance: { ton: "100", usdt: "1000" } } });
    const draft = await f.starsDraft({ balanceBefore: { ton: "7", usdt: "7" } });
    expect(draft.balanceBeforeAt).toBeUndefined();
    f.clock.now = NOON + 1_000;
    await f.desk.readBalance();
    f.clock.now = NOON + 2_000;
    expect((await f.desk.confirm(draft.id, 1)).kind).toBe("succeeded");
    expect(await f.records.getIntent(draft.id)).toMatchObject({
      balanceBefore: { ton: "100", usdt: "1000" },
      balanceBeforeAt: NOON + 1_000,
    });
  });
});
