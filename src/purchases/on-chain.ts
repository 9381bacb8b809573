/**
 * Optional on-chain evidence for reconciling an unconfirmed purchase: the paying wallet's
 * outgoing transfers since the intent was sent, read through a toncenter-style JSON-RPC
 * endpoint with @ton/ton. The service has no purchase-status operation, so the chain is the
 * only independent witness of whether money left the wallet.
 */
import type { OnChainTransfer } from "./types.js";

/** What the desk needs from the chain. */
export interface OnChainEvidence {
  /** Outgoing transfers of the paying wallet at or after `since` (ms since the epoch), newest first. */
  outgoingTransfersSince(since: number): Promise<OnChainTransfer[]>;
}
