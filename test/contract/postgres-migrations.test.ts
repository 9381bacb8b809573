/** Several replicas starting together on one PostgreSQL database migrate it once. */
import { describe, expect, it, onTestFinished } from "vitest";
import { openPool } from "../../src/storage/postgres/connection.js";
import { migratePostgres, POSTGRES_MIGRATIONS } from "../../src/storage/postgres/migrations.js";
import { freshPostgresDatabase } from "../helpers/postgres.js";

describe("PostgreSQL migrations", () => {
  it("run once when four pools start at the same moment, and not again later", async () => {
    const url = await freshPostgresDatabase();
    const pools = Array.from({ length: 4 }, () => openPool(url, { max: 2 }));
    onTestFinished(() => Promise.all(pools.map((pool) => pool.end())).then(() => undefined));
    const ran = await Promise.all(pools.map((pool) => migratePostgres(pool)));
    expect(ran.reduce((sum, n) => sum + n, 0)).toBe(POSTGRES_MIGRATIONS.length);
    expect(await migratePostgres(pools[0]!)).toBe(0);
    const applied = await pools[1]!.query("SELECT version FROM schema_migrations ORDER BY version");
    expect(applied.rows.map((row: { version: number }) => row.version)).toEqual(
      POSTGRES_MIGRATIONS.map((_, index) => index + 1),
    );
  });
});
