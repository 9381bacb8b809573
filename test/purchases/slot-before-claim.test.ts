/**
 * A confirmation holds its quota slot before it is claimed (#35): while it waits for the
 * service's quota it is `queued` in the ledger, never `sending`, and the claim comes only once
 * the slot is its own, so the request follows the claim at once. A stop during that wait finds
 * nothing claimed: the confirmation goes back to an open draft, to be pressed again. Through
 * the real client, the sandbox on 127.0.0.1 and a real SQLite ledger; the quota is filled by
 * slots the test itself holds, so each wait ends on the test's own event.
 */
import { describe, expect, it, vi } from "vitest";
import type { PurchaseIntent } from "../../src/ledger/types.js";
import type { GiftServiceClientWithQuota, PurchaseSlot } from "../../src/service/types.js";
import { deskFixture, type DeskFixture } from "../helpers/desk.js";
import { username } from "../helpers/username.js";

const STARS = "/buy-stars/";

/** Takes every free slot of the window, as other requests would; the slots are returned. */
async function fillQuota(f: DeskFixture): Promise<PurchaseSlot[]> {
  const slots: PurchaseSlot[] = [];
  for (let i = 0; i < 100 && f.client.estimateWait("purchase") === 0; i++) {
    slots.push(await f.client.reservePurchase());
  }
  return slots;
}

/** A promise kept the first time the desk says the confirmation waits. */
function waitNotice(): { waiting: Promise<void>; onQueued: () => void } {
  let onQueued!: () => void;
  const waiting = new Promise<void>((resolve) => (onQueued = resolve));
  return { waiting, onQueued };
}

/** Every status the intent has had, in order. */
async function statuses(f: DeskFixture, intent: PurchaseIntent): Promise<string[]> {
  return (await f.records.history(intent.id)).map((change) => change.to);
}

describe("the quota slot before the claim", () => {
  it("with the quota full, a confirmation waits queued, unclaimed, and is claimed only once its slot is free", async () => {
    const f = await deskFixture({ client: { quota: { limit: 2, windowMs: 60_000 } } });
    const blockers = await fillQuota(f);
    expect(blockers).toHaveLength(2);
    const intent = await f.starsDraft();
    const steps: string[] = [];
    const claim = f.ledger.claim.bind(f.ledger);
    f.ledger.claim = (...args) => {
      steps.push("claim");
      return claim(...args);
    };
    const notice = waitNotice();
    let statusWhenTold: string | undefined;
    const result = f.desk.confirm(intent.id, 1, {
      onQueued: () => {
        if (steps.length > 0) return;
        steps.push("waiting");
        // Read as the person is told: the claim waits for the slot the test holds.
        void f.ledger.get(intent.id).then((read) => {
          statusWhenTold = read?.status;
          notice.onQueued();
        });
      },
    });
    await notice.waiting;
    expect(statusWhenTold).toBe("queued");

    steps.push("a slot is free");
    blockers[0]?.giveBack();
    expect(await result).toMatchObject({ kind: "succeeded" });
    expect(steps).toEqual(["waiting", "a slot is free", "claim"]);
    expect(await statuses(f, intent)).toEqual(["draft", "queued", "sending", "succeeded"]);
    expect(f.sandbox.purchaseRequests()).toHaveLength(1);
  });

  it("a stop while it waits for its slot leaves it unclaimed: an open draft again, nothing sent", async () => {
    const f = await deskFixture({ client: { quota: { limit: 1, windowMs: 60_000 } } });
    await fillQuota(f);
    const intent = await f.starsDraft();
    const notice = waitNotice();
    const result = f.desk.confirm(intent.id, 1, { onQueued: notice.onQueued });
    await notice.waiting;
    f.client.stopPurchases();
    expect(await result).toEqual({ kind: "refused", refusal: { reason: "stopping" } });
    expect(await f.ledger.get(intent.id)).toMatchObject({
      status: "draft",
      expiresAt: intent.expiresAt,
    });
    expect(await statuses(f, intent)).toEqual(["draft", "queued", "draft"]);

    // A confirmation after the stop is refused at once, just as unclaimed.
    const later = await f.starsDraft();
    expect(await f.desk.confirm(later.id, 1)).toEqual({
      kind: "refused",
      refusal: { reason: "stopping" },
    });
    expect((await f.ledger.get(later.id))?.status).toBe("draft");
    expect((await f.records.status()).unconfirmed).toBe(0);
    expect(f.sandbox.purchaseRequests()).toHaveLength(0);
  });

  it("a stop while a confirmation waits its turn behind one in flight: that one finishes, this one is reopened", async () => {
    const f = await deskFixture();
    const first = await f.starsDraft();
    const second = await f.starsDraft({ requester: { userId: 2, chatId: 2, chatType: "private" } });
    f.sandbox.injectFault({ type: "delay", ms: 300 }, { path: STARS });
    const sending = f.desk.confirm(first.id, 1);
    await f.sandbox.waitForRequests(1, STARS);
    const notice = waitNotice();
    const waiting = f.desk.confirm(second.id, 2, { onQueued: notice.onQueued });
    await notice.waiting;
    expect((await f.ledger.get(second.id))?.status).toBe("queued");

    f.client.stopPurchases();
    expect(await sending).toMatchObject({ kind: "succeeded" });
    expect(await waiting).toEqual({ kind: "refused", refusal: { reason: "stopping" } });
    expect(await statuses(f, second)).toEqual(["draft", "queued", "draft"]);
    expect(f.sandbox.purchaseRequests().map((r) => r.form?.username)).toEqual(["alice_1"]);
  });

  it("a giveaway's recipient asks for its slot only once no person's confirmation is on its way", async () => {
    // Four slots: the person's purchase, then the recipient's balance read, purchase and the
    // balance read after it.
    const f = await deskFixture({ client: { quota: { limit: 4, windowMs: 60_000 } } });
    const quota = () => (f.client as GiftServiceClientWithQuota).quotaSnapshot();
    const blockers = await fillQuota(f);
    const person = await f.starsDraft({ recipient: username("person_gift") });
    const recipient = await f.starsDraft({
      recipient: username("giveaway_winner"),
      requester: { userId: 9, chatId: 9, chatType: "private" },
    });
    const notice = waitNotice();
    const confirming = f.desk.confirm(person.id, 1, { onQueued: notice.onQueued });
    await notice.waiting;
    const giving = f.desk.sendBatchItem(recipient);
    // Every step the recipient could take without waiting for an answer is done by now: it
    // asks the quota for nothing, neither its balance read nor its slot.
    await new Promise((resolve) => setImmediate(resolve));
    expect(quota().queued).toEqual({ purchase: 1, shared_read: 0, read: 0, bulk: 0 });

    blockers[0]?.giveBack();
    expect(await confirming).toMatchObject({ kind: "succeeded" });
    // Only now does the recipient ask (its balance read first): the window is full again.
    await vi.waitFor(() => expect(quota().queued.shared_read + quota().queued.bulk).toBe(1), {
      timeout: 5_000,
      interval: 5,
    });
    for (const slot of blockers.slice(1)) slot.giveBack();
    expect(await giving).toMatchObject({ kind: "succeeded" });
    expect(f.sandbox.purchaseRequests().map((r) => r.form?.username)).toEqual([
      "person_gift",
      "giveaway_winner",
    ]);
  });
});
