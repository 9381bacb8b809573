/**
 * The desk keeps its promises: a confirmation that waits is recorded before the person hears
 * "queued", queued ones left by a dead process are resolved at start, an outcome the database
 * refuses is held and written as soon as it can be (purchases on hold meanwhile), and premium
 * is bought only on a fresh, known `is_premium`. Real SQLite files, the sandbox over HTTP.
 */
import { describe, expect, it } from "vitest";
import type { PurchaseIntent } from "../../src/ledger/types.js";
import type { PurchaseOutcome } from "../../src/service/types.js";
import { username } from "../helpers/username.js";
import { installWriteFault } from "../helpers/write-fault.js";
import { CANARY, deskFixture, NOON } from "../helpers/desk.js";

const STARS = "/buy-stars/";
const PREMIUM = "/buy-premium/";
const USER_INFO = "/get-user-info/";

function premiumRequest(recipient: string, userId = 1) {
  return {
    kind: "premium" as const,
    recipient: username(recipient),
    quantity: 3,
    paymentMethod: "ton" as const,
    requester: { userId, chatId: userId, chatType: "private" as const },
  };
}

describe("a confirmation that waits its turn", () => {
  it("is recorded as queued before the person is told, then sent in its turn", async () => {
    const f = await deskFixture();
    const first = await f.starsDraft();
    const second = await f.starsDraft({ requester: { userId: 2, chatId: 2, chatType: "private" } });
    f.sandbox.injectFault({ type: "delay", ms: 300 }, { path: STARS });
    const firstResult = f.desk.confirm(first.id, 1);
    await f.sandbox.waitForRequests(1, STARS);
    let told!: (status: string | undefined) => void;
    const statusWhenTold = new Promise<string | undefined>((resolve) => (told = resolve));
    const secondResult = f.desk.confirm(second.id, 2, {
      onQueued: () => void f.ledger.get(second.id).then((i) => told(i?.status)),
    });
    expect(await statusWhenTold).toBe("queued");
    expect((await firstResult).kind).toBe("succeeded");
    expect((await secondResult).kind).toBe("succeeded");
    expect((await f.ledger.history(second.id)).map((e) => e.to)).toEqual([
      "draft",
      "queued",
      "sending",
      "succeeded",
    ]);
  });
});

describe("queued confirmations at start", () => {
  it("each is sent in its turn if every rule holds, or closed unsent with the reason", async () => {
    const f = await deskFixture();
    const sendable = await f.starsDraft();
    const stranger = await f.starsDraft({
      requester: { userId: 7, chatId: 7, chatType: "private" },
    });
    const stale = await f.starsDraft();
    // Queued by a process that died (the desk of this test never saw them).
    f.clock.now = NOON + 1_000;
    for (const intent of [sendable, stranger])
      expect((await f.ledger.queue(intent.id, intent.requester.userId)).ok).toBe(true);
    expect((await f.ledger.queue(stale.id, 1)).ok).toBe(true);
    // One of them expired while the bot was down.
    f.db.prepare("UPDATE purchase_intents SET expires_at = ? WHERE id = ?").run(NOON, stale.id);

    const desk = await f.secondDesk();
    const resolved = await desk.resolveQueued({
      mayBuy: (intent: PurchaseIntent) => intent.requester.userId !== 7,
      isAdmin: () => false,
    });
    expect(resolved.map((r) => [r.intent.id, r.result.kind])).toEqual([
      [sendable.id, "succeeded"],
      [stranger.id, "closed"],
      [stale.id, "closed"],
    ]);
    expect(await f.ledger.get(stranger.id)).toMatchObject({
      status: "rejected",
      outcomeDetail: "not sent: no_access",
    });
    expect((await f.ledger.get(stale.id))?.status).toBe("expired");
    expect(await f.ledger.queued()).toEqual([]);
    expect(f.sandbox.purchaseRequests()).toHaveLength(1);
  });

  it("behind an intent recovered as unconfirmed, all are closed as on hold; nothing is sent", async () => {
    const f = await deskFixture();
    const inFlight = await f.starsDraft();
    const waiting = await f.starsDraft({
      requester: { userId: 2, chatId: 2, chatType: "private" },
    });
    expect((await f.ledger.claim(inFlight.id, 1)).ok).toBe(true);
    expect((await f.ledger.queue(waiting.id, 2)).ok).toBe(true);

    const desk = await f.secondDesk();
    expect((await desk.recoverInterrupted()).map((i) => i.id)).toEqual([inFlight.id]);
    const [only] = await desk.resolveQueued({ mayBuy: () => true, isAdmin: () => false });
    expect(only?.result).toMatchObject({ kind: "closed", refusal: { reason: "frozen" } });
    expect(await f.ledger.get(waiting.id)).toMatchObject({
      status: "rejected",
      outcomeDetail: "not sent: frozen",
    });
    expect(f.sandbox.purchaseRequests()).toHaveLength(0);
  });
});

describe("an outcome the database refuses after the request went out", () => {
  it("is held: admins told at once, purchases on hold, then written as unconfirmed without a restart", async () => {
    const f = await deskFixture({
      desk: {
        outcomeWriteRetry: { attempts: 2, firstDelayMs: 1, maxDelayMs: 1 },
        unrecordedRetry: { firstDelayMs: 5, maxDelayMs: 20 },
      },
    });
    const setFault = installWriteFault(f.db);
    const told: { intent: PurchaseIntent; answer: PurchaseOutcome }[] = [];
    f.desk.events.on("outcomeUnrecorded", (intent, answer) => told.push({ intent, answer }));
    const unconfirmed = new Promise<PurchaseIntent>((resolve) => {
      f.desk.events.on("unconfirmed", (intent) => resolve(intent));
    });
    const first = await f.starsDraft();
    const next = await f.starsDraft({ requester: { userId: 2, chatId: 2, chatType: "private" } });
    // The request leaves (the claim is written), then the database refuses every status write.
    f.sandbox.injectFault({ type: "delay", ms: 200 }, { path: STARS });
    const result = f.desk.confirm(first.id, 1);
    await f.sandbox.waitForRequests(1, STARS);
    setFault(true);

    expect((await result).kind).toBe("unconfirmed");
    expect(told).toHaveLength(1);
    expect(told[0]?.intent.id).toBe(first.id);
    expect(told[0]?.answer).toMatchObject({ kind: "success" });
    // Unknown to the ledger: people are told purchases are on hold, not "busy, press again".
    expect(await f.records.status()).toEqual({ paused: false, unconfirmed: 1 });
    expect(await f.desk.confirm(next.id, 2)).toEqual({
      kind: "refused",
      refusal: { reason: "frozen", unconfirmed: 1 },
    });
    expect((await f.ledger.get(first.id))?.status).toBe("sending");

    setFault(false);
    const recorded = await unconfirmed;
    expect(recorded).toMatchObject({
      id: first.id,
      status: "unconfirmed",
      outcomeDetail: "outcome_unrecorded: succeeded",
      response: { unrecordedOutcome: "succeeded" },
    });
    expect(f.desk.unrecordedCount()).toBe(0);
    expect(f.sandbox.purchaseRequests()).toHaveLength(1);
  });
});

describe("premium is bought only on a fresh, known is_premium", () => {
  it("a recipient checked at the username step and confirmed 5 minutes later is re-checked", async () => {
    const f = await deskFixture();
    expect(await f.desk.checkRecipient("erin_gift")).toMatchObject({ isPremium: false });
    f.sandbox.setUser("erin_gift", { isPremium: true });
    // The person sat at the duration step: the draft is made now, from a 5-minute-old read.
    f.clock.now += 5 * 60_000;
    const intent = await f.desk.createDraft(premiumRequest("erin_gift"));
    const result = await f.desk.confirm(intent.id, 1);
    expect(result.kind).toBe("recipient_has_premium");
    expect(f.sandbox.requests.filter((r) => r.path === USER_INFO)).toHaveLength(2);
    expect(f.sandbox.purchaseRequests()).toHaveLength(0);
    expect((await f.ledger.get(intent.id))?.status).toBe("cancelled");
  });

  it("is_premium missing means unknown: re-checked, and refused while it stays unknown", async () => {
    const f = await deskFixture();
    const noPremiumField = {
      type: "status" as const,
      status: 200,
      body: { ok: true, username: "finn_gift" },
    };
    f.sandbox.injectFault(noPremiumField, { path: USER_INFO, times: 2 });
    expect(await f.desk.checkRecipient("finn_gift")).toMatchObject({
      kind: "ok",
      isPremium: undefined,
    });
    const intent = await f.desk.createDraft(premiumRequest("finn_gift"));
    expect(await f.desk.confirm(intent.id, 1)).toEqual({
      kind: "refused",
      refusal: { reason: "recipient_premium_unknown" },
    });
    expect(f.sandbox.requests.filter((r) => r.path === USER_INFO)).toHaveLength(2);
    expect(f.sandbox.purchaseRequests()).toHaveLength(0);
    expect((await f.ledger.get(intent.id))?.status).toBe("draft");
    // Once the service says it, the same summary buys.
    expect((await f.desk.confirm(intent.id, 1)).kind).toBe("succeeded");
    expect(f.sandbox.requests.filter((r) => r.path === PREMIUM)).toHaveLength(1);
  });
});

describe("a recipient check answered about another account", () => {
  it("is refused as unavailable (malformed): no summary, no purchase for the account the service named", async () => {
    const f = await deskFixture({ client: { readRetries: 0 } });
    f.sandbox.injectFault(
      { type: "status", status: 200, body: { ok: true, username: "mallory_x", is_premium: false } },
      { path: "/get-user-info/" },
    );
    expect(await f.desk.checkRecipient("alice_friend")).toEqual({ kind: "unavailable" });
    // The same service spelling the asked name its own way is fine.
    f.sandbox.injectFault(
      {
        type: "status",
        status: 200,
        body: { ok: true, username: "Alice_Friend", is_premium: false },
      },
      { path: "/get-user-info/" },
    );
    expect(await f.desk.checkRecipient("alice_friend")).toMatchObject({
      kind: "ok",
      username: "Alice_Friend",
    });
    expect(f.sandbox.purchaseRequests()).toHaveLength(0);
  });
});

describe("a request the HTTP client refuses before sending any of it", () => {
  it("is 'not sent' (nothing spent, nothing frozen), not an unknown outcome", async () => {
    // A credential with a character undici refuses, past the config's check (defence in depth).
    const f = await deskFixture({
      client: { credentials: { ...CANARY, cookie: "stel_ssid=Pasted\u200bValue" } },
    });
    const intent = await f.starsDraft();
    expect(await f.desk.confirm(intent.id, 1)).toMatchObject({
      kind: "not_sent",
      reason: "invalid",
    });
    expect(await f.records.getIntent(intent.id)).toMatchObject({
      status: "rejected",
      outcomeDetail: "not sent: refused by the client before sending (invalid request)",
    });
    expect((await f.records.status()).unconfirmed).toBe(0);
    expect(f.sandbox.purchaseRequests()).toHaveLength(0);
  });
});
