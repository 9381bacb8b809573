import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { Ledger } from "../../src/storage/sqlite/ledger.js";
import { openDatabase } from "../../src/storage/sqlite/database.js";
import { ledgerFixture } from "../helpers/ledger.js";
import { nextLine, spawnFixture } from "./processes.js";

describe("Ledger claims under concurrency", () => {
  it("1,000 claims over several connections to one file: exactly one wins", () => {
    const { path, draft } = ledgerFixture();
    const intent = draft();
    const ledgers = Array.from({ length: 5 }, () => new Ledger(openDatabase(path)));
    const results = Array.from({ length: 1000 }, (_, i) =>
      ledgers[i % ledgers.length]?.claim(intent.id, 1),
    );
    expect(results.filter((r) => r?.ok).length).toBe(1);
    expect(new Set(results.filter((r) => r && !r.ok).map((r) => r && !r.ok && r.reason))).toEqual(
      new Set(["already_processing"]),
    );
  });

  it("4 processes racing 250 claims each on one file: exactly one wins", async () => {
    const { path, draft } = ledgerFixture();
    const intent = draft();
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
    const { path, draft, ledger } = ledgerFixture();
    const victim = draft();
    const other = draft();
    const child = spawnFixture("claim-and-hang.ts", [path, victim.id, "1"]);
    expect(await nextLine(child)).toBe("claimed");
    child.kill("SIGKILL");
    await once(child, "exit");

    const restarted = new Ledger(openDatabase(path));
    expect(restarted.recoverInterrupted().map((i) => i.id)).toEqual([victim.id]);
    expect(restarted.get(victim.id)?.status).toBe("unconfirmed");
    expect(restarted.claim(victim.id, 1)).toMatchObject({ ok: false, reason: "already_done" });
    expect(ledger.get(other.id)?.status).toBe("draft");
  });
});
