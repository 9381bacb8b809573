/** Several replicas starting together on one PostgreSQL database migrate it once. */
import { describe, expect, it, onTestFinished } from "vitest";
import { openPool } from "../../src/storage/postgres/connection.js";
import { latestVersion, migrationsFor } from "../../src/storage/migrations.js";
import { migratePostgres } from "../../src/storage/postgres/migrate.js";
import { openPostgresStorage } from "../../src/storage/postgres/open.js";
import { freshMigratedPostgresDatabase, freshPostgresDatabase } from "../helpers/postgres.js";

const POSTGRES_MIGRATIONS = migrationsFor("postgres");

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
      POSTGRES_MIGRATIONS.map((migration) => migration.version),
    );
  });
});

describe("PostgreSQL storages opened together", () => {
  it("three replicas opening at once migrate once and all answer", async () => {
    const url = await freshPostgresDatabase();
    const storages = await Promise.all(
      [1, 2, 3].map(() => openPostgresStorage(url, { maxConnections: 2 })),
    );
    onTestFinished(async () => {
      for (const storage of storages) await storage.close();
    });
    for (const storage of storages) expect(await storage.isUp()).toBe(true);
    const pool = openPool(url, { max: 1 });
    onTestFinished(() => pool.end());
    const applied = await pool.query("SELECT version FROM schema_migrations ORDER BY version");
    expect(applied.rowCount).toBe(POSTGRES_MIGRATIONS.length);
    expect(storages[0]!.backup).toBeUndefined();
    await storages[0]!.close();
    expect(storages[0]!.isOpen()).toBe(false);
    expect(await storages[0]!.isUp()).toBe(false);
    expect(await storages[1]!.isUp()).toBe(true);
  });

  it("a database migrated by a newer bot is refused, as SQLite's is, and left as it was", async () => {
    const url = await freshMigratedPostgresDatabase();
    const pool = openPool(url, { max: 1 });
    onTestFinished(() => pool.end());
    const newer = latestVersion("postgres") + 1;
    await pool.query(
      "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, 'from the future', 0)",
      [newer],
    );
    await expect(openPostgresStorage(url, { maxConnections: 1 })).rejects.toThrow(
      `schema version ${newer}, newer than this bot knows (${latestVersion("postgres")})`,
    );
    const applied = await pool.query("SELECT count(*)::int AS n FROM schema_migrations");
    // Its own steps (PostgreSQL has no 4 to 11: src/storage/migrations.ts) and the newer one.
    expect(applied.rows[0]).toEqual({ n: migrationsFor("postgres").length + 1 });
  });
});
