/**
 * A COMMIT whose reply is lost with the connection. Over a network the server may commit a
 * transaction and the connection break before its "COMMIT" answer arrives: the caller sees
 * "Connection terminated unexpectedly", a transient error, and the desk tries the write again.
 * The ledger must answer what the database holds: a claim or an outcome that committed is
 * reported as done (a second try would find the intent already `sending` and answer "already
 * processing", leaving a claimed purchase that nobody sends and everyone waits behind), and
 * one that did not commit fails as transient, with nothing written. Shown through a proxy that
 * lets the COMMIT through and drops its reply, or drops the COMMIT itself.
 */
import { EventEmitter, once } from "node:events";
import { connect, createServer, type Socket } from "node:net";
import { describe, expect, it, onTestFinished } from "vitest";
import type { PurchaseLedger } from "../../src/ledger/types.js";
import { type CommitCheck, CommitOutcomeUnknownError } from "../../src/storage/postgres/commit.js";
import { openPostgresStorage } from "../../src/storage/postgres/open.js";
import { NOON, starsDraft } from "../helpers/ledger.js";
import { createPurchaseDesk } from "../../src/purchases/desk.js";
import { createGiftServiceClient } from "../../src/service/client.js";
import { startSandbox } from "../../tools/sandbox/server.js";
import { CANARY } from "../helpers/desk.js";
import { freshPostgresDatabase } from "../helpers/postgres.js";
import { username } from "../helpers/username.js";
import { success } from "./ledger-fixture.js";

/**
 * What the proxy does to the next COMMIT it sees (then it forwards everything again): let it
 * through and drop the reply; drop it and cut the connection; drop it and cut only the bot's
 * side (the server's transaction left open, still in progress); let it through, drop the
 * reply, and refuse every connection from then on (the server cannot be asked).
 */
type Fault =
  | "lose the reply"
  | "lose the commit"
  | "lose the commit, the server left waiting"
  | "lose the reply, then refuse connections";

/** `pg` sends a parameterless query as a simple Query message: 'Q', its length, the text. */
const COMMIT_MESSAGE = Buffer.from("COMMIT\0");

function isCommit(chunk: Buffer): boolean {
  const at = chunk.indexOf(COMMIT_MESSAGE);
  return at >= 5 && chunk[at - 5] === "Q".charCodeAt(0);
}

/** A TCP proxy to the database that spoils the next COMMIT when armed. */
interface CommitProxy {
  url: string;
  arm: (fault: Fault) => void;
  /** Resolves at the next connection refused. */
  nextRefusal: () => Promise<void>;
  /** Takes connections again (after "... then refuse connections"). */
  acceptAgain: () => void;
}

async function commitProxy(target: URL): Promise<CommitProxy> {
  let armed: Fault | undefined;
  let refusing = false;
  const refusals = new EventEmitter();
  const open = new Set<Socket>();
  const server = createServer((client) => {
    if (refusing) {
      client.destroy();
      return void refusals.emit("refused");
    }
    const database = connect(Number(target.port), target.hostname);
    for (const socket of [client, database]) {
      open.add(socket);
      socket.on("error", () => socket.destroy()).on("close", () => open.delete(socket));
    }
    let keepServer = false;
    let dropReplies = false;
    client.on("close", () => keepServer || database.destroy());
    database.on("close", () => client.destroy());
    client.on("data", (chunk: Buffer) => {
      const fault = armed !== undefined && isCommit(chunk) ? armed : undefined;
      if (fault !== undefined) armed = undefined;
      if (fault === "lose the commit") return void client.destroy();
      if (fault === "lose the commit, the server left waiting") {
        keepServer = true;
        return void client.destroy();
      }
      if (fault !== undefined) {
        dropReplies = true;
        refusing = fault === "lose the reply, then refuse connections";
      }
      database.write(chunk);
    });
    database.on(
      "data",
      (chunk: Buffer) => void (dropReplies ? client.destroy() : client.write(chunk)),
    );
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  onTestFinished(() => {
    open.forEach((socket) => socket.destroy());
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const address = server.address();
  const url = new URL(target);
  url.port = String(typeof address === "object" && address !== null ? address.port : 0);
  return {
    url: url.toString(),
    arm: (fault) => (armed = fault),
    nextRefusal: () => once(refusals, "refused").then(() => undefined),
    acceptAgain: () => (refusing = false),
  };
}

async function ledgers(options: { commitCheck?: CommitCheck } = {}): Promise<{
  spoilt: PurchaseLedger;
  direct: PurchaseLedger;
  arm: (fault: Fault) => void;
  proxy: CommitProxy;
}> {
  const url = await freshPostgresDatabase();
  const proxy = await commitProxy(new URL(url));
  const through = await openPostgresStorage(proxy.url, { maxConnections: 2, ...options });
  onTestFinished(() => through.close());
  const straight = await openPostgresStorage(url, { maxConnections: 2 });
  onTestFinished(() => straight.close());
  return {
    spoilt: through.openLedger({ clock: () => NOON }),
    direct: straight.openLedger({ clock: () => NOON }),
    arm: proxy.arm,
    proxy,
  };
}

describe("PostgreSQL: a COMMIT whose reply is lost", () => {
  it("a claim that committed answers claimed, once, with its history written once", async () => {
    const { spoilt, direct, arm } = await ledgers();
    const intent = await spoilt.createDraft(starsDraft());

    arm("lose the reply");
    const claimed = await spoilt.claim(intent.id, 1);

    expect(claimed).toMatchObject({ ok: true, intent: { id: intent.id, status: "sending" } });
    expect((await direct.get(intent.id))?.status).toBe("sending");
    expect((await direct.history(intent.id)).map((change) => change.to)).toEqual([
      "draft",
      "sending",
    ]);
  });

  it("an outcome that committed answers recorded", async () => {
    const { spoilt, direct, arm } = await ledgers();
    const intent = await spoilt.createDraft(starsDraft());
    expect((await spoilt.claim(intent.id, 1)).ok).toBe(true);

    arm("lose the reply");
    const recorded = await spoilt.recordOutcome(intent.id, success);

    expect(recorded).toMatchObject({ recorded: true, intent: { status: "succeeded" } });
    expect((await direct.get(intent.id))?.status).toBe("succeeded");
  });

  it("a COMMIT that never reached the server fails as transient, with nothing written", async () => {
    const { spoilt, direct, arm } = await ledgers();
    const intent = await spoilt.createDraft(starsDraft());

    arm("lose the commit");
    const failure = await Promise.resolve(spoilt.claim(intent.id, 1)).then(
      () => undefined,
      (error: unknown) => error,
    );

    expect(failure).toBeInstanceOf(Error);
    expect(spoilt.isTransientWriteError(failure)).toBe(true);
    expect((await direct.get(intent.id))?.status).toBe("draft");
    // Tried again, on a new connection, it goes through.
    expect(await spoilt.claim(intent.id, 1)).toMatchObject({ ok: true });
  });

  it("a COMMIT that the server still waits for: its transaction is ended, nothing written", async () => {
    const { spoilt, direct, arm } = await ledgers();
    const intent = await spoilt.createDraft(starsDraft());

    arm("lose the commit, the server left waiting");
    const failure = await Promise.resolve(spoilt.claim(intent.id, 1)).then(
      () => undefined,
      (error: unknown) => error,
    );

    expect(spoilt.isTransientWriteError(failure)).toBe(true);
    expect((await direct.get(intent.id))?.status).toBe("draft");
    // The ledger gate that transaction held is free again: the next claim is not kept waiting.
    expect(await spoilt.claim(intent.id, 1)).toMatchObject({ ok: true });
  });

  it("when the server cannot be asked at first (a restart, a failover), it is asked again", async () => {
    const { spoilt, direct, arm, proxy } = await ledgers();
    const intent = await spoilt.createDraft(starsDraft());

    arm("lose the reply, then refuse connections");
    const claiming = Promise.resolve(spoilt.claim(intent.id, 1));
    // The pool's one connection was lost with the COMMIT: asking needs a new one, refused once.
    await Promise.race([proxy.nextRefusal(), claiming]);
    proxy.acceptAgain();

    expect(await claiming).toMatchObject({ ok: true, intent: { status: "sending" } });
    expect((await direct.get(intent.id))?.status).toBe("sending");
  });

  it("when the server cannot be asked for long, the error is one nobody retries", async () => {
    const { spoilt, direct, arm } = await ledgers({
      commitCheck: { attempts: 3, firstDelayMs: 10, maxDelayMs: 20 },
    });
    const intent = await spoilt.createDraft(starsDraft());

    arm("lose the reply, then refuse connections");
    const failure = await Promise.resolve(spoilt.claim(intent.id, 1)).then(
      () => undefined,
      (error: unknown) => error,
    );

    expect(failure).toBeInstanceOf(CommitOutcomeUnknownError);
    expect(spoilt.isTransientWriteError(failure)).toBe(false);
    // It did commit: the restart's recovery (or an admin) settles such a claim.
    expect((await direct.get(intent.id))?.status).toBe("sending");
  });
});

describe("the desk over PostgreSQL: a Confirm whose claim's COMMIT reply is lost", () => {
  it("sends the one request and answers its outcome", async () => {
    const { spoilt, direct, arm } = await ledgers();
    const sandbox = await startSandbox({ quota: false });
    onTestFinished(() => sandbox.close());
    const client = createGiftServiceClient({
      baseUrl: sandbox.url,
      credentials: CANARY,
      quota: { limit: 10_000, windowMs: 60_000 },
    });
    onTestFinished(() => client.close());
    const desk = createPurchaseDesk({ ledger: spoilt, client });
    const draft = await spoilt.createDraft(
      starsDraft({ recipient: username("alice_1"), balanceBefore: { ton: "100", usdt: "1000" } }),
    );

    // The claim is the first transaction of a Confirm: its answer is the one lost.
    arm("lose the reply");
    const result = await desk.confirm(draft.id, 1);

    expect(result.kind).toBe("succeeded");
    expect(sandbox.purchaseRequests()).toHaveLength(1);
    expect((await direct.get(draft.id))?.status).toBe("succeeded");
  });
});
