/**
 * SQL of a test's own on the bot harness's database, whichever store it runs on (SQLite, or
 * PostgreSQL with GIFTBOT_TEST_STORE=postgres): for writing what no code path writes (rows as
 * an older version left them, many rows at once). The two schemas name the same tables and
 * columns; statements use `?` placeholders, numbered for PostgreSQL here.
 */
import pg from "pg";
import type { BotHarness } from "../../tools/testing/bot-harness.js";

/** `?` placeholders as PostgreSQL's `$1`, `$2`, … (the tests' statements quote no `?`). */
function numbered(statement: string): string {
  let n = 0;
  return statement.replace(/\?/g, () => `$${++n}`);
}

/** Runs `work` on a connection of its own to `url`, closed after. */
export async function onPostgres<T>(url: string, work: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: url });
  // A connection the server ends (the test's database dropped) must not end the process.
  client.on("error", () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Runs `statement` once for each set of parameters, all in one transaction. */
export async function runSql(
  h: BotHarness,
  statement: string,
  ...paramSets: readonly unknown[][]
): Promise<void> {
  const url = h.databaseUrl;
  if (url === undefined) {
    const prepared = h.db.prepare(statement);
    h.db.transaction(() => {
      for (const params of paramSets) prepared.run(...params);
    })();
    return;
  }
  await onPostgres(url, async (client) => {
    await client.query("BEGIN");
    for (const params of paramSets) await client.query(numbered(statement), [...params]);
    await client.query("COMMIT");
  });
}

/** The names of `table`'s columns that a row may be given (not PostgreSQL's generated ones). */
export async function writableColumns(h: BotHarness, table: string): Promise<string[]> {
  const url = h.databaseUrl;
  if (url === undefined) {
    return h.db
      .prepare<[string], { name: string }>("SELECT name FROM pragma_table_info(?)")
      .all(table)
      .map((c) => c.name);
  }
  return onPostgres(url, async (client) => {
    const { rows } = await client.query<{ name: string }>(
      `SELECT column_name AS name FROM information_schema.columns
       WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'NEVER'
         AND is_identity = 'NO'
       ORDER BY ordinal_position`,
      [table],
    );
    return rows.map((c) => c.name);
  });
}
