import { describe, expect, it } from "vitest";
import { createMetrics } from "../../src/metrics/metrics.js";

/** The value of `giftbot_purchases_paused{reason="..."}` in the exposition text. */
function paused(text: string, reason: string): number | undefined {
  const line = text
    .split("\n")
    .find((l) => l.startsWith(`giftbot_purchases_paused{reason="${reason}"}`));
  return line === undefined ? undefined : Number(line.split(" ")[1]);
}

describe("purchases_paused by reason", () => {
  it("tells a breaker pause from an admin's, and an open unconfirmed purchase from both", async () => {
    let status = {
      paused: false,
      pausedBy: undefined as "admin" | "breaker" | undefined,
      unconfirmed: 0,
    };
    const metrics = createMetrics({ deskStatus: () => Promise.resolve(status) });
    const scrape = async () => (await metrics.expose()).body;

    let text = await scrape();
    expect([paused(text, "admin"), paused(text, "breaker"), paused(text, "unconfirmed")]).toEqual([
      0, 0, 0,
    ]);

    status = { paused: true, pausedBy: "breaker", unconfirmed: 0 };
    text = await scrape();
    expect([paused(text, "admin"), paused(text, "breaker"), paused(text, "unconfirmed")]).toEqual([
      0, 1, 0,
    ]);

    status = { paused: true, pausedBy: "admin", unconfirmed: 2 };
    text = await scrape();
    expect([paused(text, "admin"), paused(text, "breaker"), paused(text, "unconfirmed")]).toEqual([
      1, 0, 1,
    ]);
  });
});
