/**
 * The breaker guard on the real desk: the sandbox refuses purchases as the service does, the
 * ledger is a real SQLite file. The pause must land before the next queued confirmation claims.
 */
import { describe, expect, it } from "vitest";
import type { PauseSwitch } from "../../src/ledger/types.js";
import { silentLogger } from "../../src/shared/logger.js";
import { BreakerGuard } from "../../src/purchases/breaker-guard.js";
import type { BreakerOpening } from "../../src/purchases/breaker.js";
import { type DeskFixture, deskFixture } from "../helpers/desk.js";

function guardOn(f: DeskFixture, threshold = 3): { openings: BreakerOpening[] } {
  const guard = new BreakerGuard({
    desk: f.desk,
    records: f.records,
    threshold,
    clock: () => f.clock.now,
    logger: silentLogger,
  });
  guard.listen();
  const openings: BreakerOpening[] = [];
  guard.onOpened((opening) => openings.push(opening));
  return { openings };
}

const buyer = (userId: number) => ({
  requester: { userId, chatId: userId, chatType: "private" as const },
});

describe("breaker guard on the desk", () => {
  it("an expired session pauses purchases before the confirmation queued behind it claims", async () => {
    const f = await deskFixture();
    const { openings } = guardOn(f);
    f.sandbox.expireSession();
    const first = await f.starsDraft(buyer(1));
    const second = await f.starsDraft(buyer(2));

    // Both confirmations are in the purchase lane at once: the second waits for the first.
    const [firstResult, secondResult] = await Promise.all([
      f.desk.confirm(first.id, 1),
      f.desk.confirm(second.id, 2),
    ]);

    expect(firstResult.kind).toBe("rejected");
    expect(secondResult).toEqual({
      kind: "refused",
      refusal: { reason: "paused", source: "breaker" },
    });
    expect(f.sandbox.purchaseRequests()).toHaveLength(1);
    expect(openings).toHaveLength(1);
    expect(openings[0]?.cause).toBe("session");
    expect((await f.records.pauseReason())?.source).toBe("breaker");
    expect((await f.records.getIntent(second.id))?.status).toBe("draft");
  });

  it("with a store that answers later (PostgreSQL), the confirmation that opened it returns once the pause is written", async () => {
    const f = await deskFixture();
    guardOn(f);
    // The same ledger, as the desk sees it (a pause switch may answer later).
    const pauses: PauseSwitch = f.ledger;
    const write = f.ledger.pauseByBreaker.bind(f.ledger);
    // The write lands a macrotask later, as a pool's answer does.
    pauses.pauseByBreaker = (detail, now) =>
      new Promise<void>((resolve) => setImmediate(() => resolve(write(detail, now))));
    f.sandbox.expireSession();
    const result = await f.desk.confirm((await f.starsDraft(buyer(1))).id, 1);
    expect(result.kind).toBe("rejected");
    expect((await f.records.pauseReason())?.source).toBe("breaker");
  });

  it("refusals about the input never open it; an admin's resume closes it and the same cause reopens it at once", async () => {
    const f = await deskFixture();
    const { openings } = guardOn(f, 2);
    f.sandbox.injectFault(
      { type: "status", status: 400, body: { ok: false, error: "USER_NOT_FOUND" } },
      { path: "/buy-stars/", times: 3 },
    );
    for (const userId of [1, 2, 3]) {
      const result = await f.desk.confirm((await f.starsDraft(buyer(userId))).id, userId);
      expect(result.kind).toBe("rejected");
    }
    expect(openings).toHaveLength(0);
    expect((await f.records.status()).paused).toBe(false);

    f.sandbox.drainWallet();
    await f.desk.confirm((await f.starsDraft(buyer(4))).id, 4);
    expect(openings.map((opening) => opening.cause)).toEqual(["wallet"]);

    await f.desk.admin.resume(99);
    expect((await f.records.status()).paused).toBe(false);
    await f.desk.confirm((await f.starsDraft(buyer(5))).id, 5);
    expect(openings.map((opening) => opening.cause)).toEqual(["wallet", "wallet"]);
    expect((await f.records.status()).paused).toBe(true);
  });
});
