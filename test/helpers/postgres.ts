/**
 * A fresh PostgreSQL database for a test (empty, or already migrated), on the run's throwaway cluster
 * (tools/postgres/cluster.ts, started when a test first asks: ./postgres-on-demand.ts), dropped when
 * the test finishes.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { onTestFinished } from "vitest";
import { openPool } from "../../src/storage/postgres/connection.js";
import { migratePostgres } from "../../src/storage/postgres/migrate.js";
import { postgresClusterUrl } from "./postgres-on-demand.js";

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: await postgresClusterUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The URL of database `name` on the run's cluster. */
async function urlOf(name: string): Promise<string> {
  const url = new URL(await postgresClusterUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A copy of `template` as a new database, dropped (its connections closed) after the test.
 * FILE_COPY copies the template's files in one go (with fsync off, about twice as fast as the
 * default, which writes every page to the WAL).
 */
async function copyOf(template: string): Promise<string> {
  return givenToThisTest(await newCopy(template));
}

/** A new database copied from `template`; its name. */
async function newCopy(template: string): Promise<string> {
  const name = `t_${randomBytes(6).toString("hex")}`;
  await admin((client) =>
    client.query(`CREATE DATABASE ${name} TEMPLATE ${template} STRATEGY FILE_COPY`),
  );
  return name;
}

/** Database `name`'s URL, the database dropped when the test finishes. */
function givenToThisTest(name: string): Promise<string> {
  onTestFinished(async () => {
    await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  });
  return urlOf(name);
}

/** A new, empty database's URL; the database is dropped after the test. */
export function freshPostgresDatabase(): Promise<string> {
  return copyOf("template1");
}

/**
 * This test file's database with every migration applied (vitest loads modules anew for each
 * file), made once and then only copied: a template must have no connection while it is
 * copied, so its pool is closed at once. Left to the cluster's removal at the end of the run.
 */
let migratedTemplate: Promise<string> | undefined;

function migratedTemplateName(): Promise<string> {
  migratedTemplate ??= (async () => {
    const name = `template_${randomBytes(6).toString("hex")}`;
    await admin((client) => client.query(`CREATE DATABASE ${name} STRATEGY FILE_COPY`));
    const pool = openPool(await urlOf(name), { max: 1 });
    try {
      await migratePostgres(pool);
    } finally {
      await pool.end();
    }
    return name;
  })();
  return migratedTemplate;
}

/**
 * The next test's migrated database, copied while this one runs (`copyNextAhead`): a copy
 * takes about 150 ms (the checkpoint CREATE DATABASE makes), which every bot test on
 * PostgreSQL would otherwise wait for. One left over at the end of the file is removed with
 * the cluster.
 */
let spareMigrated: Promise<string> | undefined;

/**
 * A new database already migrated to the latest schema (what a store opening it would make),
 * dropped after the test: a copy of this file's migrated template, faster than migrating.
 * `copyNextAhead` makes the next one meanwhile: for files of many short tests (the bot's),
 * not for tests that time connections (the copy's checkpoint slows the server a moment).
 */
export async function freshMigratedPostgresDatabase(
  options: { copyNextAhead?: boolean } = {},
): Promise<string> {
  const template = await migratedTemplateName();
  const spare = spareMigrated;
  spareMigrated = undefined;
  const name = await (spare ?? newCopy(template));
  if (options.copyNextAhead === true) {
    spareMigrated = newCopy(template);
    // Its failure, if any, is met by the test that takes it.
    spareMigrated.catch(() => undefined);
  }
  return givenToThisTest(name);
}
