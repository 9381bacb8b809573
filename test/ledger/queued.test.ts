import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { Ledger } from "../../src/storage/sqlite/ledger.js";
import type { PurchaseOutcome } from "../../src/service/types.js";
import { openDatabase } from "../../src/storage/sqlite/database.js";
import { ledgerFixture, NOON } from "../helpers/ledger.js";
import { nextLine, spawnFixture } from "./processes.js";

const success: PurchaseOutcome = {
  kind: "success",
  value: { txHash: "abc123", data: {} },
  body: { ok: true, tx_hash: "abc123" },
};

describe("Ledger queued confirmations", () => {
  it("records a confirmation as queued: neither a draft nor sending, and lists it in order", () => {
    const { ledger, draft, clock } = ledgerFixture();
    const inFlight = draft();
    expect(ledger.claim(inFlight.id, 1).ok).toBe(true);
    const first = draft();
    const second = draft();
    clock.now = NOON + 1_000;
    expect(ledger.queue(second.id, 1)).toMatchObject({ ok: true, intent: { status: "queued" } });
    clock.now = NOON + 2_000;
    expect(ledger.queue(first.id, 1).ok).toBe(true);

    expect(ledger.queued().map((i) => [i.id, i.queuedAt])).toEqual([
      [second.id, NOON + 1_000],
      [first.id, NOON + 2_000],
    ]);
    // Not a draft: it cannot be cancelled, re-queued, expired as a draft or re-paid.
    expect(ledger.cancel(first.id, 1)).toBe(false);
    expect(ledger.queue(first.id, 1)).toEqual({ ok: false, reason: "already_processing" });
    expect(ledger.changePaymentMethod(first.id, 1, "ton")).toBeUndefined();
    // Not sending: nothing to recover at a restart, and the one in flight is still alone.
    expect(ledger.sendingCount()).toBe(1);
    expect(ledger.recoverInterrupted().map((i) => i.id)).toEqual([inFlight.id]);
    expect(ledger.get(first.id)?.status).toBe("queued");
  });

  it("queues only the requester's own live draft", () => {
    const { ledger, draft, clock } = ledgerFixture();
    const intent = draft();
    expect(ledger.queue(intent.id, 2)).toEqual({ ok: false, reason: "not_owner" });
    expect(ledger.queue("no-such-intent-id-0000", 1)).toEqual({ ok: false, reason: "not_found" });
    clock.now = intent.expiresAt;
    expect(ledger.queue(intent.id, 1)).toEqual({ ok: false, reason: "expired" });
    expect(ledger.get(intent.id)?.status).toBe("draft");
  });

  it("the claim lets a queued confirmation out, re-checking every rule at that moment", () => {
    const { ledger, draft, clock } = ledgerFixture({ limits: { starsPerUserDay: 250 } });
    const inFlight = draft();
    expect(ledger.claim(inFlight.id, 1).ok).toBe(true);
    const queued = draft();
    expect(ledger.queue(queued.id, 1).ok).toBe(true);
    // Something else is sending.
    expect(ledger.claim(queued.id, 1)).toMatchObject({ ok: false, reason: "busy" });
    ledger.recordOutcome(inFlight.id, success);

    ledger.setPaused(true, 42);
    expect(ledger.claim(queued.id, 1)).toMatchObject({ ok: false, reason: "paused" });
    ledger.setPaused(false, 42);
    expect(ledger.claim(queued.id, 2)).toMatchObject({ ok: false, reason: "not_owner" });

    const over = draft({ quantity: 200 });
    expect(ledger.queue(over.id, 1).ok).toBe(true);
    expect(ledger.claim(over.id, 1)).toMatchObject({ ok: false, reason: "limit" });
    expect(ledger.get(over.id)?.status).toBe("queued");

    clock.now = NOON + 1_000;
    const won = ledger.claim(queued.id, 1);
    expect(won).toMatchObject({ ok: true, intent: { status: "sending", sentAt: NOON + 1_000 } });
    expect(ledger.claim(queued.id, 1)).toMatchObject({ ok: false, reason: "already_processing" });
    expect(ledger.history(queued.id).map((e) => [e.from, e.to])).toEqual([
      [undefined, "draft"],
      ["draft", "queued"],
      ["queued", "sending"],
    ]);

    const late = draft();
    expect(ledger.queue(late.id, 1).ok).toBe(true);
    ledger.recordOutcome(queued.id, success);
    clock.now = late.expiresAt;
    expect(ledger.claim(late.id, 1)).toMatchObject({ ok: false, reason: "expired" });
  });

  it("gives a queued confirmation back as an open draft when its claim's refusal passes", () => {
    const { ledger, draft } = ledgerFixture();
    const intent = draft();
    expect(ledger.queue(intent.id, 1).ok).toBe(true);
    ledger.setPaused(true, 42);
    expect(ledger.claim(intent.id, 1)).toMatchObject({ ok: false, reason: "paused" });
    expect(ledger.reopenQueued(intent.id)).toBe(true);
    expect(ledger.reopenQueued(intent.id)).toBe(false);
    expect(ledger.get(intent.id)).toMatchObject({ status: "draft", queuedAt: NOON });
    ledger.setPaused(false, 42);
    expect(ledger.claim(intent.id, 1).ok).toBe(true);
    expect(ledger.history(intent.id).map((e) => e.to)).toEqual([
      "draft",
      "queued",
      "draft",
      "sending",
    ]);
  });

  it("closes a queued confirmation as not sent: rejected with the reason, or expired", () => {
    const { ledger, draft, clock } = ledgerFixture();
    const paused = draft();
    const stale = draft();
    expect(ledger.queue(paused.id, 1).ok).toBe(true);
    expect(ledger.queue(stale.id, 1).ok).toBe(true);

    expect(ledger.closeQueued(paused.id, "paused")).toMatchObject({
      status: "rejected",
      outcomeDetail: "not sent: paused",
      finishedAt: NOON,
    });
    // Closed once: a second close, or a claim, finds nothing queued.
    expect(ledger.closeQueued(paused.id, "paused")).toBeUndefined();
    expect(ledger.claim(paused.id, 1)).toMatchObject({ ok: false, reason: "already_done" });

    clock.now = stale.expiresAt + 1;
    expect(ledger.closeQueued(stale.id, "busy")?.status).toBe("expired");
    expect(ledger.queued()).toEqual([]);
    // Nothing was spent: neither counts against the day's limits.
    expect(ledger.usage(1)).toMatchObject({ starsUser: 0, starsBot: 0 });
  });

  it("a process SIGKILLed with confirmations queued behind its purchase leaves them queued", async () => {
    const { path, draft } = ledgerFixture();
    const inFlight = draft();
    const queued = [draft(), draft(), draft()];
    const child = spawnFixture("queue-and-hang.ts", [
      path,
      "1",
      inFlight.id,
      ...queued.map((i) => i.id),
    ]);
    expect(await nextLine(child)).toBe("queued");
    // The process that queued them (node itself, not a wrapper: see ./processes.ts).
    child.kill("SIGKILL");
    await once(child, "exit");

    const restarted = new Ledger(openDatabase(path));
    expect(restarted.recoverInterrupted().map((i) => i.id)).toEqual([inFlight.id]);
    // Every promise is still there for the start to resolve, in the order it was made.
    expect(restarted.queued().map((i) => i.id)).toEqual(queued.map((i) => i.id));
  });
});
