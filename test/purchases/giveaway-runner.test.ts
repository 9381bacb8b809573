/**
 * The giveaway runner's own rules, on a real SQLite ledger with a desk that answers as told:
 * what stops a batch and with which reason, no draft tried twice in a row, and a recipient
 * given up at a stop left to send.
 */
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import type { PurchaseIntent } from "../../src/ledger/types.js";
import { GiveawayRunner } from "../../src/purchases/giveaway-runner.js";
import type { ConfirmResult } from "../../src/purchases/types.js";
import { silentLogger } from "../../src/shared/logger.js";
import { openSqliteStorage } from "../../src/storage/sqlite/open.js";
import { tempDir } from "../helpers/temp-dir.js";

async function world(answer: (intent: PurchaseIntent) => ConfirmResult) {
  const storage = await openSqliteStorage(join(tempDir(), "runner.sqlite"));
  onTestFinished(() => storage.close());
  const sent: string[] = [];
  const runner = new GiveawayRunner({
    batches: storage.giveaways,
    desk: {
      sendBatchItem: (intent) => {
        sent.push(intent.recipient);
        return Promise.resolve(answer(intent));
      },
    },
    clock: Date.now,
    logger: silentLogger,
  });
  const start = async (recipients: string[]) => {
    const batch = await runner.create({
      kind: "stars",
      quantity: 50,
      paymentMethod: "usdt_ton",
      adminId: 1,
      chatId: 1,
      recipients,
      balanceBefore: undefined,
    });
    runner.send(batch.id);
    await runner.idle();
    return (await runner.state(batch.id))?.batch;
  };
  return { runner, sent, start };
}

describe("the giveaway runner", () => {
  it("stops with the reason a refusal gives, before the next recipient", async () => {
    const reasons = [
      [{ reason: "limit", limit: "stars_per_bot_day", max: 1, used: 1, resetsAt: 0 }, "limit"],
      [{ reason: "frozen", unconfirmed: 1 }, "on_hold"],
      [{ reason: "paused", source: "breaker" }, "purchases_paused"],
      [{ reason: "storage" }, "storage"],
      [{ reason: "recipient_unverified" }, "service_unreachable"],
    ] as const;
    for (const [refusal, stop] of reasons) {
      const { sent, start } = await world(() => ({ kind: "refused", refusal }));
      const batch = await start(["first_one", "second_one"]);
      expect(batch).toMatchObject({ status: "stopped", stopReason: stop });
      expect(sent).toEqual(["first_one"]);
    }
  });

  it("never tries the same draft twice in a row: a refusal that leaves it a draft stops the batch", async () => {
    const { sent, start } = await world(() => ({
      kind: "refused",
      refusal: { reason: "already_processing" },
    }));
    const batch = await start(["stuck_one", "next_one"]);
    expect(sent).toEqual(["stuck_one"]);
    expect(batch).toMatchObject({ status: "stopped", stopReason: "storage" });
  });

  it("a recipient given up at a stop, still waiting for its slot, ends the loop: the batch stays running, the draft stays to send", async () => {
    const progress: string[] = [];
    const { runner, sent, start } = await world(() => ({
      kind: "refused",
      refusal: { reason: "stopping" },
    }));
    runner.progress.add((state) => progress.push(state.batch.status));
    const batch = await start(["waiting_one", "next_one"]);
    expect(sent).toEqual(["waiting_one"]);
    expect(batch?.status).toBe("running");
    expect(progress).toEqual([]);
    const drafts = await runner.intents(batch?.id ?? "");
    expect(drafts.map((intent) => intent.status)).toEqual(["draft", "draft"]);
  });

  it("a Resume that comes as the paused loop is ending still gets the rest sent", async () => {
    const storage = await openSqliteStorage(join(tempDir(), "runner.sqlite"));
    onTestFinished(() => storage.close());
    const sent: string[] = [];
    let runner: GiveawayRunner | undefined;
    let resumed = false;
    // The loop reads the batch paused; the admin's Resume lands right then, before it ends.
    const ledger = storage.openLedger({});
    const real = storage.giveaways;
    const batches = new Proxy(real, {
      get: (target, key: keyof typeof real) =>
        key !== "getBatch"
          ? target[key].bind(target)
          : async (id: string) => {
              const batch = await target.getBatch(id);
              // The loop's own read of the paused batch (reads after the pause: the progress
              // told for the recipient, then the loop's), not the progress's.
              if (told) readsAfterPause += 1;
              if (batch?.status === "paused" && !resumed && readsAfterPause === 2) {
                resumed = true;
                await runner?.resume(id);
              }
              return batch;
            },
    });
    let told = false;
    let readsAfterPause = 0;
    runner = new GiveawayRunner({
      batches,
      desk: {
        sendBatchItem: async (intent) => {
          sent.push(intent.recipient);
          // This recipient's turn is over: its draft is no longer one.
          await ledger.cancel(intent.id, intent.requester.userId);
          if (sent.length === 1) {
            await runner?.pause(intent.batchId ?? "");
            told = true;
          }
          return { kind: "refused", refusal: { reason: "cancelled" } };
        },
      },
      clock: Date.now,
      logger: silentLogger,
    });
    const batch = await runner.create({
      kind: "stars",
      quantity: 50,
      paymentMethod: "usdt_ton",
      adminId: 1,
      chatId: 1,
      recipients: ["first_one", "second_one", "third_one"],
      balanceBefore: undefined,
    });
    runner.send(batch.id);
    await runner.idle();
    expect(resumed).toBe(true);
    expect(sent).toEqual(["first_one", "second_one", "third_one"]);
  });
});
