/**
 * What an admin needs to settle an unconfirmed purchase: the balance before and now (each
 * with when it was read), the purchases sent in between, whether a premium recipient has
 * premium now, and outgoing on-chain transfers when TON_API_ENDPOINT is configured.
 */
import type { PurchaseLedger } from "../ledger/types.js";
import type { Logger } from "../shared/logger.js";
import { balanceSnapshot } from "./decisions.js";
import type { OnChainEvidence } from "./on-chain.js";
import type { BalanceRead, ReconciliationEvidence } from "./types.js";

export interface EvidenceSources {
  ledger: PurchaseLedger;
  clock: () => number;
  logger: Logger;
  onChain: OnChainEvidence | undefined;
  /** A fresh balance read (shared with any other read in flight). */
  balanceNow: () => Promise<BalanceRead>;
  /** Whether the recipient has premium now (a fresh check); undefined when unknown. */
  premiumNow: (username: string) => Promise<boolean | undefined>;
}

/** Gathers the evidence for intent `id`; undefined when there is no such intent. */
export async function gatherEvidence(
  id: string,
  sources: EvidenceSources,
): Promise<ReconciliationEvidence | undefined> {
  const { ledger, clock, logger, onChain } = sources;
  const intent = await ledger.get(id);
  if (intent === undefined) return undefined;
  const balanceNowAt = clock();
  const [balanceNow, premiumNow, onChainTransfers] = await Promise.all([
    sources.balanceNow().then(balanceSnapshot),
    intent.kind === "premium" ? sources.premiumNow(intent.recipient) : Promise.resolve(undefined),
    onChain !== undefined
      ? onChain.outgoingTransfersSince(intent.sentAt ?? intent.createdAt).catch((err: unknown) => {
          logger.warn({ err, intentId: id }, "on-chain evidence failed");
          return undefined;
        })
      : Promise.resolve(undefined),
  ]);
  // Purchases out between the "before" read and this one's send may explain part of a drop.
  // Without a known read time the figure is at least as old as the draft.
  const sentSinceBalanceBefore = await ledger.sentDuring(
    intent.balanceBeforeAt ?? intent.createdAt,
    intent.sentAt ?? clock(),
    intent.id,
  );
  return {
    intent,
    balanceBefore: intent.balanceBefore,
    balanceBeforeAt: intent.balanceBeforeAt,
    balanceNow,
    balanceNowAt: balanceNow === undefined ? undefined : balanceNowAt,
    sentSinceBalanceBefore,
    recipientHasPremiumNow: premiumNow,
    txHash: intent.txHash,
    onChainTransfers,
  };
}
