import { Address, beginCell } from "@ton/core";
import { describe, expect, it, onTestFinished } from "vitest";
import type { PurchaseCost } from "../../src/costs/types.js";
import { silentLogger } from "../../src/shared/logger.js";
import { CostMeter } from "../../src/purchases/cost-meter.js";
import {
  costFromChain,
  createTonEvidence,
  jettonTransferAmount,
  type OnChainEvidence,
} from "../../src/purchases/on-chain.js";
import type { PurchaseOutcome } from "../../src/service/types.js";
import { ledgerFixture, NOON } from "../helpers/ledger.js";
import { startFakeToncenter } from "./toncenter-fake.js";

const success: PurchaseOutcome = {
  kind: "success",
  value: { txHash: undefined, data: undefined },
  body: { ok: true },
};

async function fixture(options: { onChain?: OnChainEvidence } = {}) {
  const fx = await ledgerFixture();
  const accounts = fx.storage.openAccounts();
  const meter = new CostMeter({
    ledger: fx.ledger,
    accounts,
    ...(options.onChain ? { onChain: options.onChain } : {}),
    clock: () => fx.clock.now,
    logger: silentLogger,
    waitForReadingMs: 60_000,
  });
  /** A purchase whose "balance before" was read at the clock's time, delivered a second later. */
  const deliver = async (usdtBefore: string) => {
    const draft = await fx.draft({ balanceBefore: { ton: "100", usdt: usdtBefore } });
    const readAt = fx.clock.now;
    fx.clock.now += 1_000;
    const claim = await fx.ledger.claim(draft.id, 1);
    if (!claim.ok) throw new Error(claim.reason);
    await fx.ledger.recordBalanceBefore(draft.id, draft.balanceBefore!, readAt);
    fx.clock.now += 1_000;
    const intent = (await fx.ledger.recordOutcome(draft.id, success)).intent;
    fx.clock.now += 1_000;
    return intent;
  };
  const reading = (usdt: string) => ({ balance: { ton: "100", usdt }, at: fx.clock.now });
  return { ...fx, accounts, meter, deliver, reading };
}

describe("the cost meter", () => {
  it("takes the desk's read right after the purchase as its reading after, and waits for it", async () => {
    const { ledger, meter, deliver, reading } = await fixture();
    const intent = await deliver("1000");
    meter.delivered(intent);
    // The desk starts its one read after the purchase; the meter only hears its answer.
    let answer: () => void = () => undefined;
    const read = new Promise<void>((resolve) => {
      answer = () => {
        meter.observe(reading("998.5"));
        resolve();
      };
    });
    meter.readingAfter([intent.id], read);
    const waiting = meter.settled(intent.id, 60_000);
    expect((await ledger.get(intent.id))?.cost).toBeUndefined();
    answer();
    await waiting;
    expect((await ledger.get(intent.id))?.cost).toMatchObject({
      measured: true,
      amount: "1.5",
      currency: "usdt",
      source: "balance_after",
    });
    expect(meter.pendingCount).toBe(0);
  });

  it("waits for a store that answers later (PostgreSQL): the judgement and its write after the read", async () => {
    const { ledger, accounts, meter, deliver, reading } = await fixture();
    // Each answer a macrotask later, as a pool's round trip arrives.
    const later = <T>(value: () => T) =>
      new Promise<T>((resolve) => setImmediate(() => resolve(value())));
    const outBetween = ledger.outBetween.bind(ledger);
    ledger.outBetween = ((from: number, to: number) =>
      later(() => outBetween(from, to))) as unknown as typeof ledger.outBetween;
    const recordCost = accounts.recordCost.bind(accounts);
    accounts.recordCost = ((id: string, cost: PurchaseCost) =>
      later(() => recordCost(id, cost))) as unknown as typeof accounts.recordCost;
    const intent = await deliver("1000");
    meter.delivered(intent);
    const read = Promise.resolve().then(() => meter.observe(reading("998.5")));
    meter.readingAfter([intent.id], read);
    await meter.settled(intent.id, 60_000);
    expect((await ledger.get(intent.id))?.cost).toMatchObject({ measured: true, amount: "1.5" });
  });

  it("without a read after the purchase (the quota was busy), a later shared read serves", async () => {
    const { ledger, meter, deliver, reading, clock } = await fixture();
    const intent = await deliver("1000");
    meter.delivered(intent);
    // Nothing to wait for: no measurement is under way.
    await meter.settled(intent.id, 60_000);
    expect((await ledger.get(intent.id))?.cost).toBeUndefined();
    // A read that started before the answer says nothing about this purchase.
    meter.observe({ balance: { ton: "100", usdt: "1000" }, at: intent.finishedAt! - 1 });
    await meter.idle();
    // The transfer has not settled yet: wait for a later reading.
    meter.observe(reading("1000"));
    await meter.idle();
    expect((await ledger.get(intent.id))?.cost).toBeUndefined();
    clock.now += 5_000;
    meter.observe(reading("999.25"));
    await meter.idle();
    expect((await ledger.get(intent.id))?.cost).toMatchObject({
      measured: true,
      amount: "0.75",
      source: "later_balance",
    });
  });

  it("records no figure when another purchase went out before the reading after", async () => {
    const { ledger, meter, deliver, reading } = await fixture();
    const first = await deliver("1000");
    meter.delivered(first);
    const second = await deliver("999.25");
    meter.delivered(second);
    meter.observe(reading("998.5"));
    await meter.idle();
    expect((await ledger.get(first.id))?.cost).toMatchObject({
      measured: false,
      reason: "other_purchase",
    });
    // The second's own "before" was read after the first finished: it is measured.
    expect((await ledger.get(second.id))?.cost).toMatchObject({ measured: true, amount: "0.75" });
  });

  it("counts a purchase finished in the millisecond the reading before started, unless that reading is known to show it", async () => {
    for (const known of [false, true]) {
      const { ledger, meter, deliver, reading, clock } = await fixture();
      const first = await deliver("1000");
      // The reading before the second started in the millisecond the first's outcome was
      // written: in it or not, the times cannot say. The desk knows when its cached reading
      // started after the first finished (a giveaway's next recipient).
      clock.now = first.finishedAt ?? clock.now;
      const second = await deliver("999.25");
      clock.now += 1_000;
      meter.delivered(second, known ? [first.id] : []);
      meter.observe(reading("998.5"));
      await meter.idle();
      expect((await ledger.get(second.id))?.balanceBeforeAt).toBe(first.finishedAt);
      expect((await ledger.get(second.id))?.cost).toMatchObject(
        known ? { measured: true, amount: "0.75" } : { measured: false, reason: "other_purchase" },
      );
    }
  });

  it("judges every purchase waiting for one reading by its own window, from one read of the ledger", async () => {
    const { ledger, meter, deliver, reading, clock } = await fixture();
    // Three purchases back to back while no balance was read (the quota was busy): each one's
    // "before" was read while the previous one was still out, or after it.
    const first = await deliver("1000");
    clock.now -= 2_000;
    const second = await deliver("999");
    const third = await deliver("998");
    for (const intent of [first, second, third]) meter.delivered(intent);
    let reads = 0;
    const outBetween = ledger.outBetween.bind(ledger);
    ledger.outBetween = (from, to) => {
      reads++;
      return outBetween(from, to);
    };
    meter.observe(reading("997"));
    await meter.idle();
    expect(reads).toBe(1);
    expect((await ledger.get(first.id))?.cost).toMatchObject({
      measured: false,
      reason: "other_purchase",
    });
    expect((await ledger.get(second.id))?.cost).toMatchObject({
      measured: false,
      reason: "other_purchase",
    });
    // The third's "before" was read after the second finished: only its own transfer follows.
    expect((await ledger.get(third.id))?.cost).toMatchObject({ measured: true, amount: "1" });
    expect(meter.pendingCount).toBe(0);
  });

  it("gives up, saying why, when no reading comes in time", async () => {
    const { ledger, meter, deliver, reading, clock } = await fixture();
    const intent = await deliver("1000");
    meter.delivered(intent);
    clock.now += 61_000;
    meter.observe(reading("999"));
    await meter.idle();
    expect((await ledger.get(intent.id))?.cost).toMatchObject({
      measured: false,
      reason: "no_reading_after",
    });
  });
});

/** A chain that answers (with nothing for the purchase) only when told to. */
function slowChain(): { onChain: OnChainEvidence; answerChain: () => void } {
  let answerChain: () => void = () => undefined;
  const chainAsked = new Promise<void>((resolve) => (answerChain = resolve));
  const onChain: OnChainEvidence = {
    outgoingTransfersSince: async () => {
      await chainAsked;
      return [];
    },
  };
  return { onChain, answerChain: () => answerChain() };
}

describe("the cost meter with the chain", () => {
  it("keeps the reading that came while the chain was asked, and judges it when the chain has no figure", async () => {
    const { onChain, answerChain } = slowChain();
    const { ledger, meter, deliver, reading } = await fixture({ onChain });
    const intent = await deliver("1000");
    meter.delivered(intent);
    meter.observe(reading("999.25"));
    // The chain is the better source: the reading waits for its answer.
    expect((await ledger.get(intent.id))?.cost).toBeUndefined();
    answerChain();
    await meter.idle();
    expect((await ledger.get(intent.id))?.cost).toMatchObject({
      measured: true,
      amount: "0.75",
      source: "later_balance",
    });
  });
});

describe("a stop while the chain is still asked", () => {
  it("waits at most the time it is given, says the measurement did not finish, and finishes later", async () => {
    const { onChain, answerChain } = slowChain();
    const { meter, deliver } = await fixture({ onChain });
    meter.delivered(await deliver("1000"));
    expect(await meter.idle(20)).toBe(false);
    answerChain();
    expect(await meter.idle(60_000)).toBe(true);
    expect(await meter.idle()).toBe(true);
  });
});

describe("the cost on chain", () => {
  const wallet = Address.parse(`0:${"11".repeat(32)}`);
  const fragment = Address.parse(`0:${"22".repeat(32)}`);

  it("reads a TEP-74 jetton transfer's amount", () => {
    const body = beginCell()
      .storeUint(0x0f8a7ea5, 32)
      .storeUint(7, 64)
      .storeCoins(750_000n)
      .endCell();
    expect(jettonTransferAmount(body)).toBe("750000");
    expect(jettonTransferAmount(beginCell().storeUint(0, 32).endCell())).toBeUndefined();
  });

  it("takes the only outgoing TON transfer while the request was out", async () => {
    const sentAt = Math.floor(NOON / 1000) * 1000;
    const fake = await startFakeToncenter(wallet, [
      { now: sentAt / 1000 - 3600, lt: 1n, transfers: [{ destination: fragment, amountNano: 9n }] },
      {
        now: sentAt / 1000 + 2,
        lt: 2n,
        transfers: [{ destination: fragment, amountNano: 187_500_000n }],
      },
    ]);
    onTestFinished(() => fake.close());
    const chain = createTonEvidence({ endpoint: fake.endpoint, walletAddress: wallet.toString() });
    const { draft } = await fixture();
    const intent = {
      ...(await draft({ paymentMethod: "ton" })),
      status: "succeeded" as const,
      sentAt,
      finishedAt: sentAt + 3_000,
    };
    const none = () => Promise.resolve(0);
    expect(await costFromChain(chain, intent, sentAt + 4_000, none)).toEqual({
      measured: true,
      amount: "0.1875",
      currency: "ton",
      source: "on_chain",
      at: sentAt + 4_000,
    });
    // A hash the service gave that matches nothing on chain: no figure from the chain.
    expect(
      await costFromChain(chain, { ...intent, txHash: "ff".repeat(32) }, 0, none),
    ).toBeUndefined();
    // Another purchase sent in the window: the only transfer found by time may be its.
    let asked: [number, number] | undefined;
    const another = (from: number, to: number) => {
      asked = [from, to];
      return Promise.resolve(1);
    };
    expect(await costFromChain(chain, intent, sentAt + 4_000, another)).toBeUndefined();
    expect(asked).toEqual([sentAt - 60_000, sentAt + 3_000 + 60_000]);
  });
});
