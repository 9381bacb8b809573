/**
 * The database's clock decides who holds the sender lease (issue #35), done to real processes:
 * two built bots on one PostgreSQL database, one of them with its clock running ahead. A
 * standby whose clock runs ahead never takes the lease from a healthy holder.
 */
import { setTimeout as delay } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { describe, expect, it } from "vitest";
import {
  DEMO_USER,
  Person,
  spawnBot,
  starsSummary,
  startBot,
  startWorld,
} from "../helpers/built-process.js";
import { freshPostgresDatabase } from "../helpers/postgres.js";

const CLOCK_OFFSET_MODULE = pathToFileURL(
  new URL("../helpers/clock-offset.mjs", import.meta.url).pathname,
).href;

async function postgresRows<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe("the database's clock decides (PostgreSQL)", { timeout: 60_000 }, () => {
  it("a standby whose clock runs 8 s ahead never takes the lease from a healthy holder", async () => {
    const url = await freshPostgresDatabase();
    const world = await startWorld({ env: { DATABASE_URL: url } });
    const lease = { LEASE_SECONDS: "5" };
    const old = await startBot(world, lease);
    const ahead = spawnBot(
      await world.env({
        ...lease,
        NODE_OPTIONS: `--import ${CLOCK_OFFSET_MODULE}`,
        GIFTBOT_TEST_CLOCK_OFFSET_MS: "8000",
      }),
    );
    const verdict = await Promise.race([
      ahead
        .waitForLog((line) => line.msg === "another process holds the sender lease: standing by")
        .then(() => "standby"),
      ahead
        .waitForLog((line) => line.msg === "holding the sender lease")
        .then(() => "took the lease"),
    ]);
    expect(verdict, ahead.output()).toBe("standby");

    // Two renewals by the holder later (the standby asked several times meanwhile), it still
    // holds the lease, and serves.
    const renewals = async () =>
      postgresRows<{ owner: string; renewed_at: number }>(
        url,
        "SELECT owner, renewed_at FROM sender_lease",
      );
    const [before] = await renewals();
    const seen = new Set<number>();
    for (let i = 0; i < 100 && seen.size < 3; i++) {
      const [row] = await renewals();
      if (row !== undefined && row.owner === before?.owner) seen.add(Number(row.renewed_at));
      await delay(100);
    }
    expect(seen.size).toBeGreaterThanOrEqual(3);
    const uma = new Person(world.emulator, DEMO_USER.id);
    const summary = await starsSummary(uma, "alice_friend");
    await uma.press(summary, "✅ Confirm");
    await uma.waitForText(summary.id, /Delivered: 50 Telegram Stars to @alice_friend/);
    expect(old.child.exitCode).toBeNull();
    expect(ahead.logs.some((line) => line.msg === "holding the sender lease")).toBe(false);
  });
});
