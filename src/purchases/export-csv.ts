/**
 * The accountant's export: one CSV row per purchase, streamed. Rows are pulled from an
 * iterator one at a time as the reader takes them (csv-stringify's backpressure), so a year of
 * purchases is never held in memory. Quoting and formula escaping are csv-stringify's
 * (`quoted_string`, `escape_formulas`); what this module adds is the columns and the formulas a
 * `;`-separated spreadsheet would find inside a cell.
 *
 * Nothing secret is a column: the service's raw response is left out (its `tx_hash` and reason
 * are kept, already cleared of secrets by the client), and so is everything about the wallet
 * but the measured cost.
 */
import { Readable } from "node:stream";
import { stringify } from "csv-stringify";
import type { PurchaseIntent } from "../ledger/types.js";

/** The columns, in order: stable names a spreadsheet or an import script can rely on. */
export const PURCHASE_CSV_COLUMNS = [
  "purchase_id",
  "created_at_utc",
  "sent_at_utc",
  "finished_at_utc",
  "requested_by_user_id",
  "requested_in_chat_id",
  "chat_type",
  "recipient_username",
  "gift",
  "quantity",
  "unit",
  "payment_method",
  "status",
  "cost",
  "cost_currency",
  "cost_measured_by",
  "cost_not_measured_because",
  "transaction_hash",
  "outcome_detail",
  "settled_by_admin_id",
  "settled_at_utc",
] as const;

type Cell = string | number | undefined;

/** A formula sign (full-width forms included) after spaces at the start: some programs skip them. */
const SPACED_FORMULA = /^ +[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/;
/**
 * A formula sign right after a `;` (and any spaces): a spreadsheet in a locale whose list
 * separator is `;` splits the cell there, whatever the quotes, and runs the second part.
 */
const FORMULA_AFTER_SEMICOLON = /(;[ \t]*)(?=[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/g;

/**
 * What csv-stringify's `escape_formulas` leaves to us: a formula sign after leading spaces or
 * after a `;` inside the text gets an apostrophe, so it shows as text. (`escape_formulas`
 * itself puts one before a cell that starts with a sign, a tab or a carriage return, full-width
 * signs included.) The service's reasons and hashes come from outside.
 */
function neutraliseInside(value: string): string {
  const inside = value.replace(FORMULA_AFTER_SEMICOLON, "$1'");
  return SPACED_FORMULA.test(inside) ? `'${inside}` : inside;
}

/**
 * How every CSV the bot writes is written: every text cell quoted, and formulas neutralised
 * (a number cell is never a formula, so a negative chat id keeps its sign).
 */
export const SAFE_CSV_OPTIONS = {
  quoted_string: true,
  escape_formulas: true,
  cast: { string: neutraliseInside },
} as const;

/** A time as ISO 8601 in UTC, with its zone (`Z`), e.g. `2026-11-23T12:38:39.000Z`. */
function utc(at: number | undefined): string | undefined {
  return at === undefined ? undefined : new Date(at).toISOString();
}

/** The export row of one intent, in {@link PURCHASE_CSV_COLUMNS} order. */
function purchaseCsvRow(intent: PurchaseIntent): Cell[] {
  const cost = intent.cost;
  return [
    intent.id,
    utc(intent.createdAt),
    utc(intent.sentAt),
    utc(intent.finishedAt),
    intent.requester.userId,
    intent.requester.chatId,
    intent.requester.chatType,
    intent.recipient,
    intent.kind,
    intent.quantity,
    intent.kind === "stars" ? "stars" : "months",
    intent.paymentMethod,
    intent.status,
    cost?.measured === true ? cost.amount : undefined,
    cost === undefined ? undefined : cost.currency.toUpperCase(),
    cost?.measured === true ? cost.source : undefined,
    cost?.measured === false ? cost.reason : undefined,
    intent.txHash,
    intent.outcomeDetail,
    intent.resolvedBy,
    utc(intent.resolvedAt),
  ];
}

/**
 * The CSV of `intents` (a header row, then one row each), as a stream that pulls the next
 * intent only when the reader wants more. The iterator must not hold a database cursor open
 * across rows (see the ledger's paged `sentBetween`), since the stream is read while the bot
 * keeps using the database.
 */
export function purchasesCsv(
  intents: Iterable<PurchaseIntent> | AsyncIterable<PurchaseIntent>,
): Readable {
  const rows = Readable.from(mapIterable(intents, purchaseCsvRow));
  const csv = stringify({
    header: true,
    columns: [...PURCHASE_CSV_COLUMNS],
    ...SAFE_CSV_OPTIONS,
  });
  rows.on("error", (err) => csv.destroy(err));
  // A reader that stops early (a failed upload) stops the rows too: no more pages are read.
  csv.on("close", () => rows.destroy());
  return rows.pipe(csv);
}

/** A page-at-a-time source (SQLite's sync pages, PostgreSQL's async ones), mapped lazily. */
async function* mapIterable<T, U>(
  items: Iterable<T> | AsyncIterable<T>,
  map: (item: T) => U,
): AsyncGenerator<U> {
  for await (const item of items) yield map(item);
}
