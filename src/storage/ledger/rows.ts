/**
 * Rows as the bot's types name them: the row of an intent (`purchase_intents`, the same columns
 * on both databases) and its mapping to {@link PurchaseIntent}, kept apart so the column names
 * live in one place; and every other row, whose columns are its type's fields ({@link camelRow}).
 */
import type { Currency } from "../../costs/money.js";
import type { CostSource, PurchaseCost, UnmeasuredReason } from "../../costs/types.js";
import type { PaymentMethod } from "../../service/types.js";
import type {
  BalanceSnapshot,
  ChatType,
  IntentKind,
  IntentStatus,
  PurchaseIntent,
} from "../../ledger/types.js";

/**
 * A row whose columns are exactly a type's fields (a giveaway batch, a grant, the lease's
 * holder): snake_case column names in camelCase, NULL as undefined.
 */
export function camelRow<T>(row: object): T {
  const fields = Object.entries(row).map(([column, value]: [string, unknown]) => [
    column.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase()),
    value ?? undefined,
  ]);
  return Object.fromEntries(fields) as T;
}

/** A `purchase_intents` row as the drivers return it (BIGINT read as a number). */
export interface IntentRow {
  id: string;
  kind: IntentKind;
  recipient: string;
  quantity: number;
  payment_method: PaymentMethod;
  requester_user_id: number;
  requester_chat_id: number;
  requester_chat_type: ChatType;
  status: IntentStatus;
  created_at: number;
  expires_at: number;
  /** NULL unless the confirmation was queued. */
  queued_at: number | null;
  sent_at: number | null;
  finished_at: number | null;
  balance_before: string | null;
  /** NULL in rows written before it was kept. */
  balance_before_at: number | null;
  response: string | null;
  tx_hash: string | null;
  outcome_detail: string | null;
  resolved_by: number | null;
  resolved_at: number | null;
  updated_at: number;
  /** The measured cost; NULL until measured. */
  cost_amount: string | null;
  cost_currency: Currency | null;
  cost_source: CostSource | null;
  cost_unmeasured: UnmeasuredReason | null;
  cost_at: number | null;
  /** NULL for a person's own gift. */
  batch_id?: string | null;
  /** 'service' in every row written before the bot could pay through Telegram. */
  paid_via?: "service" | "telegram";
  recipient_user_id?: number | null;
}

/** Maps a row to the intent the rest of the bot sees (NULL → undefined, JSON parsed). */
export function rowToIntent(row: IntentRow): PurchaseIntent {
  return {
    id: row.id,
    kind: row.kind,
    recipient: row.recipient,
    quantity: row.quantity,
    paymentMethod: row.payment_method,
    requester: {
      userId: row.requester_user_id,
      chatId: row.requester_chat_id,
      chatType: row.requester_chat_type,
    },
    status: row.status,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    queuedAt: row.queued_at ?? undefined,
    sentAt: row.sent_at ?? undefined,
    finishedAt: row.finished_at ?? undefined,
    balanceBefore:
      row.balance_before === null ? undefined : (JSON.parse(row.balance_before) as BalanceSnapshot),
    balanceBeforeAt: row.balance_before_at ?? undefined,
    response: row.response === null ? undefined : (JSON.parse(row.response) as unknown),
    txHash: row.tx_hash ?? undefined,
    outcomeDetail: row.outcome_detail ?? undefined,
    resolvedBy: row.resolved_by ?? undefined,
    resolvedAt: row.resolved_at ?? undefined,
    cost: costOf(row),
    // Only a giveaway's intents carry it, so a person's gift reads exactly as before.
    ...(row.batch_id ? { batchId: row.batch_id } : {}),
    // Only a gift paid through Telegram carries them, so every other reads exactly as before.
    ...(row.paid_via === "telegram" ? { paidVia: row.paid_via } : {}),
    ...(row.recipient_user_id == null ? {} : { recipientUserId: Number(row.recipient_user_id) }),
  };
}

/** The recorded cost of a row: a figure with its source, or why there is none. */
function costOf(row: IntentRow): PurchaseCost | undefined {
  if (row.cost_currency === null || row.cost_at === null) return undefined;
  if (row.cost_amount !== null && row.cost_source !== null) {
    return {
      measured: true,
      amount: row.cost_amount,
      currency: row.cost_currency,
      source: row.cost_source,
      at: row.cost_at,
    };
  }
  return {
    measured: false,
    currency: row.cost_currency,
    reason: row.cost_unmeasured ?? "no_reading_after",
    at: row.cost_at,
  };
}
