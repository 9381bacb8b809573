/**
 * A local toncenter-style JSON-RPC server on 127.0.0.1 that answers `getTransactions` with
 * real serialized transactions (built with @ton/core), so TonClient parses them exactly as it
 * would parse the real service's answers.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type Address,
  beginCell,
  Dictionary,
  loadTransaction,
  type Message,
  storeMessage,
  storeTransaction,
  type Transaction,
} from "@ton/core";

interface FakeTransfer {
  destination: Address;
  amountNano: bigint;
  comment?: string;
}

export interface FakeTransaction {
  /** Seconds since the epoch. */
  now: number;
  lt: bigint;
  transfers: FakeTransfer[];
}

export interface FakeToncenter {
  endpoint: string;
  /** Every JSON-RPC call received, with the API key header seen. */
  calls: { method: string; params: Record<string, unknown>; apiKey: string | undefined }[];
  close(): Promise<void>;
}

/** Serializes a wallet transaction that sent `transfers`, as base64 BOC, and its hash. */
function buildTransaction(wallet: Address, fake: FakeTransaction): { data: string; hash: Buffer } {
  const outMessages = Dictionary.empty(Dictionary.Keys.Uint(15), {
    serialize: (src: Message, builder) => {
      builder.storeRef(beginCell().store(storeMessage(src)));
    },
    parse: () => {
      throw new Error("not needed");
    },
  });
  fake.transfers.forEach((transfer, index) => {
    outMessages.set(index, {
      info: {
        type: "internal",
        ihrDisabled: true,
        bounce: false,
        bounced: false,
        src: wallet,
        dest: transfer.destination,
        value: { coins: transfer.amountNano },
        ihrFee: 0n,
        forwardFee: 0n,
        createdLt: fake.lt + 1n,
        createdAt: fake.now,
      },
      body:
        transfer.comment === undefined
          ? beginCell().endCell()
          : beginCell().storeUint(0, 32).storeStringTail(transfer.comment).endCell(),
    });
  });
  const tx = {
    address: BigInt(`0x${wallet.hash.toString("hex")}`),
    lt: fake.lt,
    prevTransactionHash: 0n,
    prevTransactionLt: 0n,
    now: fake.now,
    outMessagesCount: fake.transfers.length,
    oldStatus: "active",
    endStatus: "active",
    inMessage: undefined,
    outMessages,
    totalFees: { coins: 1000n },
    stateUpdate: { oldHash: Buffer.alloc(32), newHash: Buffer.alloc(32) },
    description: {
      type: "generic",
      creditFirst: true,
      computePhase: { type: "skipped", reason: "no-state" },
      aborted: false,
      destroyed: false,
    },
  } as unknown as Transaction;
  const cell = beginCell().store(storeTransaction(tx)).endCell();
  // Round-trip once so a mistake here fails in the fake, not as a puzzling client error.
  loadTransaction(cell.beginParse());
  return { data: cell.toBoc().toString("base64"), hash: cell.hash() };
}

async function readJson(
  req: IncomingMessage,
): Promise<{ method: string; params: Record<string, unknown> }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
    method: string;
    params: Record<string, unknown>;
  };
}

/** Starts the fake with the wallet's transactions (any order; served newest first). */
export async function startFakeToncenter(
  wallet: Address,
  transactions: FakeTransaction[],
): Promise<FakeToncenter> {
  const built = transactions
    .map((t) => ({ ...t, ...buildTransaction(wallet, t) }))
    .sort((a, b) => (a.lt < b.lt ? 1 : -1));
  const calls: FakeToncenter["calls"] = [];
  const server = createServer((req, res) => {
    answer(req, res).catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { method, params } = await readJson(req);
    const apiKey = req.headers["x-api-key"];
    calls.push({ method, params, apiKey: typeof apiKey === "string" ? apiKey : undefined });
    if (method !== "getTransactions") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ ok: false, error: "unsupported in the fake" }));
      return;
    }
    const limit = Number(params.limit ?? 10);
    const fromLt = params.lt === undefined ? undefined : BigInt(params.lt as string | number);
    const page = built.filter((t) => fromLt === undefined || t.lt <= fromLt).slice(0, limit);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        ok: true,
        result: page.map((t) => ({
          "@type": "raw.transaction",
          data: t.data,
          utime: t.now,
          transaction_id: { lt: t.lt.toString(), hash: t.hash.toString("base64") },
          fee: "1000",
          storage_fee: "0",
          other_fee: "0",
          out_msgs: [],
        })),
      }),
    );
  }
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}/jsonRPC`,
    calls,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
