/**
 * No secret reaches the PostgreSQL database: the desk over the PostgreSQL ledger and accounts, the
 * real client configured with canary secrets, the sandbox answering every kind of outcome
 * (and echoing the secrets back in its error bodies, the path from the wire to the database),
 * then every row of every table read back as text and searched for each canary. The same
 * check as the SQLite file's in test/purchases/desk.test.ts.
 */
import pg from "pg";
import { describe, expect, it, onTestFinished } from "vitest";
import { createPurchaseDesk } from "../../src/purchases/desk.js";
import { createGiftServiceClient } from "../../src/service/client.js";
import { openPostgresStorage } from "../../src/storage/postgres/open.js";
import { startSandbox, type Fault } from "../../tools/sandbox/server.js";
import { CANARY, CANARY_FRAGMENTS, NOON } from "../helpers/desk.js";
import { starsDraft } from "../helpers/ledger.js";
import { freshPostgresDatabase } from "../helpers/postgres.js";
import { username } from "../helpers/username.js";

const STARS = "/buy-stars/";

/** Every row of every table of the database at `url`, each as one JSON text. */
async function everyRow(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>(
      "SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public'",
    );
    const found: string[] = [];
    for (const { name } of tables.rows) {
      const table = await client.query<{ row: string }>(
        `SELECT to_jsonb(t)::text AS row FROM ${name} t`,
      );
      found.push(...table.rows.map((row) => `${name}: ${row.row}`));
    }
    return found;
  } finally {
    await client.end();
  }
}

describe("PostgreSQL: secrets and the database", () => {
  it("no canary secret reaches any row after every kind of outcome", async () => {
    const url = await freshPostgresDatabase();
    const storage = await openPostgresStorage(url, { maxConnections: 2 });
    onTestFinished(() => storage.close());
    const sandbox = await startSandbox({ quota: false });
    onTestFinished(() => sandbox.close());
    const client = createGiftServiceClient({
      baseUrl: sandbox.url,
      credentials: CANARY,
      quota: { limit: 10_000, windowMs: 60_000 },
      timeouts: { headersMs: 300, bodyMs: 300 },
    });
    onTestFinished(() => client.close());
    const ledger = storage.openLedger({ clock: () => NOON });
    const desk = createPurchaseDesk({ ledger, client, accounts: storage.openAccounts() });
    const draft = () =>
      ledger.createDraft(
        starsDraft({ recipient: username("alice_1"), balanceBefore: { ton: "100", usdt: "1000" } }),
      );

    await desk.checkRecipient("alice_1");
    await desk.readBalance();
    expect((await desk.confirm((await draft()).id, 1)).kind).toBe("succeeded");
    const echo = {
      error: `Mnemonic rejected: ${CANARY.mnemonic}`,
      reason: `Cookie: ${CANARY.cookie}; Proxy: ${CANARY.proxy}`,
      info: { mnemonic: CANARY.mnemonic, cookie: CANARY.cookie, proxy: CANARY.proxy },
    };
    sandbox.injectFault(
      { type: "status", status: 400, body: { ok: false, ...echo } },
      { path: STARS },
    );
    expect((await desk.confirm((await draft()).id, 1)).kind).toBe("rejected");
    for (const fault of [
      { type: "unconfirmed", executed: true },
      { type: "malformed" },
      { type: "drop" },
      {
        type: "status",
        status: 400,
        body: { ok: false, unconfirmed: true, transient: true, ...echo },
      },
    ] as Fault[]) {
      sandbox.injectFault(fault, { path: STARS });
      const intent = await draft();
      expect((await desk.confirm(intent.id, 1)).kind).toBe("unconfirmed");
      await desk.admin.evidence(intent.id);
      await desk.admin.resolve(intent.id, 99, false);
    }

    const rows = await everyRow(url);
    // The echoed bodies were stored, with the secrets scrubbed out of them.
    expect(rows.some((row) => row.includes("Mnemonic rejected"))).toBe(true);
    expect(rows.some((row) => row.includes("[redacted]"))).toBe(true);
    for (const canary of CANARY_FRAGMENTS) {
      expect(
        rows.filter((row) => row.includes(canary)),
        `${canary} in a row`,
      ).toEqual([]);
    }
  });
});
