/**
 * Optional on-chain evidence for reconciling an unconfirmed purchase: the paying wallet's
 * outgoing transfers since the intent was sent, read through a toncenter-style JSON-RPC
 * endpoint with @ton/ton. The service has no purchase-status operation, so the chain is the
 * only independent witness of whether money left the wallet.
 */
import { Address, type Cell, type Transaction } from "@ton/core";
import type * as TonModule from "@ton/ton";
import type { TonClient } from "@ton/ton";
import { currencyOf, formatMoney } from "../costs/money.js";
import type { PurchaseCost } from "../costs/types.js";
import type { PurchaseIntent } from "../ledger/types.js";
import type { OnChainTransfer } from "./types.js";

/** What the desk needs from the chain. */
export interface OnChainEvidence {
  /** Outgoing transfers of the paying wallet at or after `since` (ms since the epoch), newest first. */
  outgoingTransfersSince(since: number): Promise<OnChainTransfer[]>;
}

export interface TonEvidenceOptions {
  /** TON_API_ENDPOINT, e.g. https://toncenter.com/api/v2/jsonRPC */
  endpoint: string;
  /**
   * TON_API_KEY: a secret, sent only to the endpoint, never logged. A function is asked on
   * every call, so a key rotated while the bot runs (SIGHUP) is used from the next call on.
   */
  apiKey?: string | (() => string | undefined);
  /** The paying wallet's address (any form @ton/core parses). */
  walletAddress: string;
  /** Transactions per page; default 20. */
  pageSize?: number;
  /** Upper bound on pages read per call, so a busy wallet cannot make this run forever; default 10. */
  maxPages?: number;
  timeoutMs?: number;
}

/** Reads the wallet's transactions page by page, newest first, until older than `since`. */
export function createTonEvidence(options: TonEvidenceOptions): OnChainEvidence {
  const currentKey = (): string | undefined =>
    typeof options.apiKey === "function" ? options.apiKey() : options.apiKey;
  // @ton/ton's client (and its axios) is loaded on first use, not at every start: the chain is
  // read only for a delivered purchase's cost or an unconfirmed one's evidence.
  let tonModule: Promise<typeof TonModule> | undefined;
  // One client per key: building one is cheap, and a call in progress keeps the key it began with.
  let client: { key: string | undefined; ton: TonClient } | undefined;
  const clientForNow = async (): Promise<TonClient> => {
    const { TonClient } = await (tonModule ??= import("@ton/ton"));
    const key = currentKey();
    if (client === undefined || client.key !== key) {
      client = {
        key,
        ton: new TonClient({
          endpoint: options.endpoint,
          apiKey: key,
          timeout: options.timeoutMs ?? 10_000,
        }),
      };
    }
    return client.ton;
  };
  const wallet = Address.parse(options.walletAddress);
  const pageSize = options.pageSize ?? 20;
  const maxPages = options.maxPages ?? 10;

  return {
    async outgoingTransfersSince(since) {
      const ton = await clientForNow();
      const transfers: OnChainTransfer[] = [];
      let cursor: { lt: string; hash: string } | undefined;
      for (let page = 0; page < maxPages; page++) {
        const txs = await ton.getTransactions(wallet, {
          limit: pageSize,
          archival: true,
          ...(cursor ? { lt: cursor.lt, hash: cursor.hash, inclusive: false } : {}),
        });
        let reachedOlder = false;
        for (const tx of txs) {
          if (tx.now * 1000 < since) {
            reachedOlder = true;
            break;
          }
          transfers.push(...outgoingOf(tx));
        }
        const last = txs.at(-1);
        if (reachedOlder || last === undefined || txs.length < pageSize) break;
        cursor = { lt: last.lt.toString(), hash: last.hash().toString("base64") };
      }
      return transfers;
    },
  };
}

/** The internal messages a transaction sent out: value transfers, with a text comment if any. */
function outgoingOf(tx: Transaction): OnChainTransfer[] {
  const hash = tx.hash().toString("hex");
  const at = tx.now * 1000;
  return tx.outMessages.values().flatMap((message): OnChainTransfer[] => {
    if (message.info.type !== "internal") return [];
    return [
      {
        hash,
        at,
        destination: message.info.dest.toString({ bounceable: false, urlSafe: true }),
        amountNano: message.info.value.coins.toString(),
        comment: textComment(message.body),
        jettonAmount: jettonTransferAmount(message.body),
      },
    ];
  });
}

/** A plain text comment (op 0 followed by UTF-8) or undefined. */
function textComment(body: Cell): string | undefined {
  try {
    const slice = body.beginParse();
    if (slice.remainingBits < 32 || slice.loadUint(32) !== 0) return undefined;
    return slice.loadStringTail();
  } catch {
    return undefined;
  }
}

/** The jetton transfer op (TEP-74): what a wallet sends its jetton wallet to move USDT. */
const JETTON_TRANSFER_OP = 0x0f8a7ea5;

/** The amount of a TEP-74 jetton transfer body (op, query id, amount), or undefined. */
export function jettonTransferAmount(body: Cell): string | undefined {
  try {
    const slice = body.beginParse();
    if (slice.remainingBits < 32 || slice.loadUint(32) !== JETTON_TRANSFER_OP) return undefined;
    slice.skip(64);
    return slice.loadCoins().toString();
  } catch {
    return undefined;
  }
}

/** How far a purchase's transfer may lie outside its request's time (block time, clock skew). */
const CHAIN_SLACK_MS = 60_000;

/**
 * A delivered purchase's cost from its outgoing transfer on chain: the transaction with the
 * service's `tx_hash` when it gave one (hex or base64), else the only outgoing transaction
 * while the request was out, and then only when no other purchase was sent in that window
 * (`othersSent`, the ledger's count): found by time alone, the transfer could be another
 * purchase's (the previous one's, landing on chain late). Undefined when none or several
 * match, or the transfer carries no amount of the purchase's currency: then the balance
 * difference is used instead.
 */
export async function costFromChain(
  chain: OnChainEvidence,
  intent: PurchaseIntent,
  now: number,
  othersSent: (from: number, to: number) => Promise<number>,
): Promise<PurchaseCost | undefined> {
  if (intent.sentAt === undefined) return undefined;
  const from = intent.sentAt - CHAIN_SLACK_MS;
  const to = (intent.finishedAt ?? now) + CHAIN_SLACK_MS;
  if (intent.txHash === undefined && (await othersSent(from, to)) > 0) return undefined;
  const transfers = (await chain.outgoingTransfersSince(from)).filter(
    (t) => t.at >= from && t.at <= to,
  );
  const wanted = intent.txHash === undefined ? undefined : hashVariants(intent.txHash);
  const matching =
    wanted === undefined ? transfers : transfers.filter((t) => wanted.has(t.hash.toLowerCase()));
  if (new Set(matching.map((t) => t.hash)).size !== 1) return undefined;
  const currency = currencyOf(intent.paymentMethod);
  const amounts = matching
    .map((t) => (currency === "usdt" ? t.jettonAmount : t.amountNano))
    .filter((a): a is string => a !== undefined);
  if (amounts.length !== 1) return undefined;
  const units = BigInt(amounts[0] ?? "0");
  if (units <= 0n) return undefined;
  return {
    measured: true,
    amount: formatMoney({ currency, units }),
    currency,
    source: "on_chain",
    at: now,
  };
}

/** A transaction hash as the service may spell it (hex or base64), in lower-case hex. */
function hashVariants(txHash: string): Set<string> {
  const variants = new Set([txHash.toLowerCase()]);
  const decoded = Buffer.from(txHash.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  if (decoded.length === 32) variants.add(decoded.toString("hex"));
  return variants;
}
