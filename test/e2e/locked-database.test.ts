/**
 * The built bot while another connection (this test's) holds its database's write lock: the
 * process keeps answering its probes, a Confirm pressed meanwhile buys nothing and says so,
 * and once the lock goes the same summary is confirmed and bought once.
 */
import { describe, expect, it, onTestFinished } from "vitest";
import { openDatabase } from "../../src/storage/sqlite/open.js";
import { DEMO_USER, Person, starsSummary, startBot, startWorld } from "../helpers/built-process.js";

describe("the bot process on a locked database", { timeout: 40_000 }, () => {
  it("/livez keeps answering while another connection holds the write lock; the Confirm meanwhile buys nothing and says so", async () => {
    const world = await startWorld();
    const bot = await startBot(world, { HEALTH_PORT: "0" });
    const serving = await bot.waitForLog((line) => line.msg === "serving health and metrics");
    const base = String(serving.listening);
    const uma = new Person(world.emulator, DEMO_USER.id);
    const summary = await starsSummary(uma, "alice_friend");

    const holder = openDatabase(world.databasePath);
    onTestFinished(() => {
      if (holder.inTransaction) holder.exec("ROLLBACK");
      holder.close();
    });
    holder.exec("BEGIN IMMEDIATE");
    const pressed = uma.press(summary, "✅ Confirm");
    // While the bot retries its claim (about 3 s), its probe answers at once every time.
    const latencies: number[] = [];
    const until = Date.now() + 2_000;
    while (Date.now() < until) {
      const started = performance.now();
      const live = await fetch(`${base}/livez`);
      latencies.push(performance.now() - started);
      expect(live.status).toBe(200);
    }
    const answer = await pressed;
    expect(answer.text).toMatch(/could not record your confirmation/);
    const refused = await uma.waitForText(summary.id, /Nothing was bought/);
    expect(refused.text).toMatch(/could not record your confirmation/);
    // A locked database used to stop the whole process for 5 s at each statement.
    expect(Math.max(...latencies)).toBeLessThan(1_000);
    expect(world.sandbox.purchaseRequests()).toHaveLength(0);

    holder.exec("COMMIT");
    await uma.press(summary, "✅ Confirm");
    await uma.waitForText(summary.id, /Delivered: 50 Telegram Stars to @alice_friend/);
    expect(world.sandbox.purchaseRequests()).toHaveLength(1);
  });
});
