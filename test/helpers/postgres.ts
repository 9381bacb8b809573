/**
 * A fresh, empty PostgreSQL database for a test, on the run's throwaway cluster
 * (./postgres-cluster.ts, started by test/global-setup.ts), dropped when the test finishes.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { onTestFinished } from "vitest";

/** The variable through which the global setup hands the cluster's URL to the test workers. */
export const POSTGRES_URL_VARIABLE = "GIFTBOT_TEST_POSTGRES_URL";

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const url = process.env[POSTGRES_URL_VARIABLE];
  if (url === undefined) throw new Error("the test run's PostgreSQL cluster is not running");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A new database's URL; the database is dropped (its connections closed) after the test. */
export async function freshPostgresDatabase(): Promise<string> {
  const name = `t_${randomBytes(6).toString("hex")}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  onTestFinished(async () => {
    await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  });
  const url = new URL(process.env[POSTGRES_URL_VARIABLE] ?? "");
  url.pathname = `/${name}`;
  return url.toString();
}
