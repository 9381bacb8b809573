import { Address } from "@ton/core";
import { describe, expect, it, onTestFinished } from "vitest";
import { createTonEvidence } from "../../src/purchases/on-chain.js";
import { startFakeToncenter } from "./toncenter-fake.js";

const wallet = Address.parse(`0:${"11".repeat(32)}`);
const fragment = Address.parse(`0:${"22".repeat(32)}`);
const other = Address.parse(`0:${"33".repeat(32)}`);
const T0 = 1_900_000_000; // seconds

describe("on-chain evidence through TonClient", () => {
  it("lists the wallet's outgoing transfers since a time, across pages, newest first", async () => {
    const fake = await startFakeToncenter(wallet, [
      { now: T0 - 100, lt: 10n, transfers: [{ destination: other, amountNano: 1n }] },
      {
        now: T0 + 10,
        lt: 20n,
        transfers: [{ destination: fragment, amountNano: 1_500_000_000n, comment: "Ref#abc" }],
      },
      { now: T0 + 20, lt: 30n, transfers: [] },
      {
        now: T0 + 30,
        lt: 40n,
        transfers: [
          { destination: fragment, amountNano: 2n },
          { destination: other, amountNano: 3n, comment: "second" },
        ],
      },
    ]);
    onTestFinished(() => fake.close());
    const evidence = createTonEvidence({
      endpoint: fake.endpoint,
      apiKey: "canary-ton-api-key",
      walletAddress: wallet.toString(),
      pageSize: 2,
    });

    const transfers = await evidence.outgoingTransfersSince(T0 * 1000);
    expect(transfers.map((t) => [t.at, t.amountNano, t.comment])).toEqual([
      [(T0 + 30) * 1000, "2", undefined],
      [(T0 + 30) * 1000, "3", "second"],
      [(T0 + 10) * 1000, "1500000000", "Ref#abc"],
    ]);
    expect(transfers[2]?.destination).toBe(fragment.toString({ bounceable: false, urlSafe: true }));
    expect(transfers[2]?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(fake.calls.length).toBeGreaterThanOrEqual(2);
    expect(fake.calls.every((c) => c.method === "getTransactions")).toBe(true);
    expect(fake.calls[0]?.apiKey).toBe("canary-ton-api-key");
  });

  it("asks for the key on every call, so a rotated TON_API_KEY is used from the next call on", async () => {
    const fake = await startFakeToncenter(wallet, []);
    onTestFinished(() => fake.close());
    let key = "first-ton-key";
    const evidence = createTonEvidence({
      endpoint: fake.endpoint,
      apiKey: () => key,
      walletAddress: wallet.toString(),
    });
    await evidence.outgoingTransfersSince(0);
    key = "second-ton-key";
    await evidence.outgoingTransfersSince(0);
    expect(fake.calls.map((call) => call.apiKey)).toEqual(["first-ton-key", "second-ton-key"]);
  });

  it("an empty wallet gives no transfers; an unreachable endpoint rejects", async () => {
    const fake = await startFakeToncenter(wallet, []);
    const evidence = createTonEvidence({
      endpoint: fake.endpoint,
      walletAddress: wallet.toString(),
    });
    await expect(evidence.outgoingTransfersSince(0)).resolves.toEqual([]);
    await fake.close();
    await expect(evidence.outgoingTransfersSince(0)).rejects.toThrow();
  });
});
