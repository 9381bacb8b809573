/**
 * The API's answers as the page reads them (the server builds them in src/admin-app/views.ts
 * and reads.ts; only the fields the page shows are named here).
 */
import type { PageTexts } from "../text-keys.js";

export interface Session {
  admin: { id: number; name: string | undefined };
  locale: string;
  texts: PageTexts;
  /** A Premium gift's name by its months, as the chat says it. */
  premiumNames: Record<string, string>;
}

interface Purchase {
  id: string;
  kind: "stars" | "premium";
  quantity: number;
  recipient: string;
  status: string;
  requester: { id: number; name: string | undefined; chatType: string };
  createdAt: number;
  sentAt: number | undefined;
  finishedAt: number | undefined;
  cost: { amount: string; currency: string } | undefined;
  txHash: string | undefined;
  batchId: string | undefined;
}

export interface Balance {
  ton: string | undefined;
  usdt: string | undefined;
}

export interface PurchaseDetail extends Purchase {
  balanceBefore: Balance | undefined;
  balanceBeforeAt: number | undefined;
  balanceNow: Balance | undefined;
  balanceNowAt: number | undefined;
  sentMeanwhile: string[];
  transactionUrl: string | undefined;
  serviceAnswer: unknown;
  outcomeDetail: string | undefined;
  settledBy: { id: number; name: string | undefined } | undefined;
  settledAt: number | undefined;
  history: { from: string | undefined; to: string; at: number; actor: number | undefined }[];
  settleable: boolean;
}

export interface Giveaway {
  id: string;
  kind: "stars" | "premium";
  quantity: number;
  status: "running" | "paused" | "stopped" | "cancelled" | "finished";
  stopReason: string | undefined;
  counts: {
    total: number;
    waiting: number;
    sending: number;
    delivered: number;
    refused: number;
    unknown: number;
    dropped: number;
  };
}

export interface Overview {
  status: { paused: boolean; pausedBy: "admin" | "breaker" | undefined; unconfirmed: number };
  today: { stars: number; premium: number; starsLimit: number; premiumLimit: number };
  pending: { total: number; shown: Purchase[] };
  breakerOpen: boolean;
  lease: { here: boolean; holder: string | undefined };
  backup: { kept: boolean; lastAt: number | undefined };
  giveaways: Giveaway[];
}

export interface Day {
  day: string;
  gifts: number;
  stars: number;
  premiumGifts: number;
  premiumMonths: number;
  spent: { ton: string; usdt: string };
}

export interface PurchaseList {
  items: Purchase[];
  total: number;
  page: number;
  pageSize: number;
}
