/**
 * The ledger on one SQLite file shared by several connections and processes (the two-process
 * file locking the contract suite's two connections in one process cannot show): the claim's
 * single winner, and what a process killed mid-purchase leaves for the next start.
 */
import { once } from "node:events";
import { describe, expect, it, onTestFinished } from "vitest";
import type { ClaimResult } from "../../src/ledger/types.js";
import { openSqliteStorage } from "../../src/storage/sqlite/open.js";
import { ledgerFixture } from "../helpers/ledger.js";
import { nextLine, spawnFixture } from "./processes.js";

/** Another process's ledger on the file at `path`. */
async function restartedOn(path: string) {
  const storage = await openSqliteStorage(path);
  onTestFinished(() => storage.close());
  return storage.openLedger({});
}

describe("Ledger claims under concurrency", () => {
  it("1,000 claims over several connections to one file: exactly one wins", async () => {
    const { path, draft } = await ledgerFixture();
    const intent = await draft();
    const ledgers = await Promise.all(Array.from({ length: 5 }, () => restartedOn(path)));
    const results: ClaimResult[] = [];
    for (let i = 0; i < 1000; i++) results.push(await ledgers[i % 5]!.claim(intent.id, 1));
    expect(results.filter((r) => r.ok).length).toBe(1);
    expect(new Set(results.flatMap((r) => (r.ok ? [] : [r.reason])))).toEqual(
      new Set(["already_processing"]),
    );
  });

  it("4 processes racing 250 claims each on one file: exactly one wins", async () => {
    const { path, draft } = await ledgerFixture();
    const intent = await draft();
    const children = Array.from({ length: 4 }, () =>
      spawnFixture("claim-race.ts", [path, intent.id, "1", "250"]),
    );
    expect(await Promise.all(children.map(nextLine))).toEqual(["ready", "ready", "ready", "ready"]);
    const results = children.map(nextLine);
    for (const child of children) child.stdin.write("go\n");
    const outputs = (await Promise.all(results)).map(
      (line) => JSON.parse(line) as { wins: number; refusals: Record<string, number> },
    );
    expect(outputs.reduce((sum, o) => sum + o.wins, 0)).toBe(1);
    expect(outputs.reduce((sum, o) => sum + (o.refusals.already_processing ?? 0), 0)).toBe(999);
  });

  it("a process SIGKILLed after its claim leaves the intent unconfirmed after restart", async () => {
    const { path, draft, ledger } = await ledgerFixture();
    const victim = await draft();
    const other = await draft();
    const child = spawnFixture("claim-and-hang.ts", [path, victim.id, "1"]);
    expect(await nextLine(child)).toBe("claimed");
    child.kill("SIGKILL");
    await once(child, "exit");

    const restarted = await restartedOn(path);
    expect((await restarted.recoverInterrupted()).map((i) => i.id)).toEqual([victim.id]);
    expect((await restarted.get(victim.id))?.status).toBe("unconfirmed");
    expect(await restarted.claim(victim.id, 1)).toMatchObject({
      ok: false,
      reason: "already_done",
    });
    expect((await ledger.get(other.id))?.status).toBe("draft");
  });

  it("a process SIGKILLed with confirmations queued behind its purchase leaves them queued", async () => {
    const { path, draft } = await ledgerFixture();
    const inFlight = await draft();
    const queued = [await draft(), await draft(), await draft()];
    const child = spawnFixture("queue-and-hang.ts", [
      path,
      "1",
      inFlight.id,
      ...queued.map((i) => i.id),
    ]);
    expect(await nextLine(child)).toBe("queued");
    // The process that queued them (node itself, not a wrapper: see ./processes.ts).
    child.kill("SIGKILL");
    await once(child, "exit");

    const restarted = await restartedOn(path);
    expect((await restarted.recoverInterrupted()).map((i) => i.id)).toEqual([inFlight.id]);
    // Every promise is still there for the start to resolve, in the order it was made.
    expect((await restarted.queued()).map((i) => i.id)).toEqual(queued.map((i) => i.id));
  });
});
