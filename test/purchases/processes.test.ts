import { once } from "node:events";
import { describe, expect, it, onTestFinished } from "vitest";
import { createPurchaseDesk } from "../../src/purchases/desk.js";
import { createPurchaseRecords } from "../../src/purchases/records.js";
import { openSqliteStorage } from "../../src/storage/sqlite/open.js";
import { nextLine, spawnFixture } from "../ledger/processes.js";
import { deskFixture } from "../helpers/desk.js";

describe("several bot processes on one database", () => {
  it("4 processes confirming one intent 250 times each send exactly one request", async () => {
    const f = await deskFixture();
    const intent = await f.starsDraft();
    f.db
      .prepare("UPDATE purchase_intents SET expires_at = ? WHERE id = ?")
      .run(Date.now() + 600_000, intent.id);
    const children = Array.from({ length: 4 }, () =>
      spawnFixture("confirm-race.ts", [f.path, f.sandbox.url, intent.id, "1", "250"]),
    );
    expect(await Promise.all(children.map(nextLine))).toEqual(["ready", "ready", "ready", "ready"]);
    const outputs = children.map(nextLine);
    for (const child of children) child.stdin.write("go\n");
    const kinds = (await Promise.all(outputs)).map((l) => JSON.parse(l) as Record<string, number>);
    expect(kinds.reduce((n, k) => n + (k.succeeded ?? 0), 0)).toBe(1);
    expect(kinds.reduce((n, k) => n + (k.refused ?? 0), 0)).toBe(999);
    expect(f.sandbox.purchaseRequests()).toHaveLength(1);
  });
});

describe("a bot process killed mid-purchase", () => {
  it("leaves the intent unconfirmed after restart, never resent, nothing else lost", async () => {
    const f = await deskFixture();
    const done = await f.starsDraft();
    expect((await f.desk.confirm(done.id, 1)).kind).toBe("succeeded");
    const waiting = await f.starsDraft({
      requester: { userId: 2, chatId: 2, chatType: "private" },
    });
    const victim = await f.starsDraft({ quantity: 250 });

    // The fixture runs on the real clock; give its draft a real-time expiry.
    f.db
      .prepare("UPDATE purchase_intents SET expires_at = ? WHERE id = ?")
      .run(Date.now() + 600_000, victim.id);
    f.sandbox.injectFault({ type: "delay", ms: 60_000 }, { path: "/buy-stars/" });
    const child = spawnFixture("confirm-and-die.ts", [f.path, f.sandbox.url, victim.id, "1"]);
    await f.sandbox.waitForRequests(2, "/buy-stars/");
    expect((await f.records.getIntent(victim.id))?.status).toBe("sending");
    child.kill("SIGKILL");
    await once(child, "exit");
    f.sandbox.clearFaults();

    const storage = await openSqliteStorage(f.path);
    onTestFinished(() => storage.close());
    const restartedLedger = storage.openLedger({ clock: () => f.clock.now });
    const restarted = createPurchaseDesk({ ledger: restartedLedger, client: f.client });
    const restartedRecords = createPurchaseRecords(restartedLedger);
    const told: string[] = [];
    restarted.events.on("unconfirmed", (intent) => told.push(intent.id));
    expect((await restarted.recoverInterrupted()).map((i) => i.id)).toEqual([victim.id]);
    expect(told).toEqual([victim.id]);
    expect(await restartedRecords.getIntent(victim.id)).toMatchObject({
      status: "unconfirmed",
      quantity: 250,
    });
    expect(await restarted.confirm(victim.id, 1)).toMatchObject({
      kind: "refused",
      refusal: { reason: "already_done", status: "unconfirmed" },
    });
    expect((await restartedRecords.getIntent(done.id))?.status).toBe("succeeded");
    expect((await restartedRecords.getIntent(waiting.id))?.status).toBe("draft");
    expect(await restarted.confirm(waiting.id, 2)).toMatchObject({ refusal: { reason: "frozen" } });
    expect(f.sandbox.purchaseRequests()).toHaveLength(2);

    await restarted.admin.resolve(victim.id, 99, true);
    expect((await restarted.confirm(waiting.id, 2)).kind).toBe("succeeded");
    expect(f.sandbox.purchaseRequests()).toHaveLength(3);
    expect(f.sandbox.purchaseRequests().filter((r) => r.form?.amount === "250")).toHaveLength(1);
  });
});
