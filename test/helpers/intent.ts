/**
 * A purchase intent built in memory, for tests of pure functions (decisions, views, reports):
 * a private stars draft with nothing recorded yet, and whatever the test says on top.
 */
import type { PurchaseIntent } from "../../src/ledger/types.js";

export function testIntent(overrides: Partial<PurchaseIntent> = {}): PurchaseIntent {
  return {
    id: "intent-1",
    kind: "stars",
    recipient: "bob_gifts",
    quantity: 100,
    paymentMethod: "usdt_ton",
    requester: { userId: 1, chatId: 1, chatType: "private" },
    status: "draft",
    createdAt: 0,
    expiresAt: 0,
    sentAt: undefined,
    finishedAt: undefined,
    balanceBefore: undefined,
    balanceBeforeAt: undefined,
    response: undefined,
    txHash: undefined,
    outcomeDetail: undefined,
    resolvedBy: undefined,
    resolvedAt: undefined,
    cost: undefined,
    ...overrides,
  };
}
