/**
 * `/export [from to]` (admins, private chat): the purchases sent in a range of UTC days as the
 * accountant's CSV document (src/purchases/export-csv.ts). The file is streamed from the
 * ledger to Telegram a page of rows at a time, so a long range is never built in memory.
 */
import { GrammyError, HttpError, InputFile } from "grammy";
import type { CommandContext } from "grammy";
import type { ChatTypeContext } from "grammy";
import type { BotContext } from "../../context.js";
import type { BotServices } from "../../services.js";

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A range of whole UTC days: `[from, to)` in ms, and the days as written (both included). */
export interface ExportRange {
  from: number;
  to: number;
  firstDay: string;
  lastDay: string;
}

/** Midnight UTC of a `YYYY-MM-DD` that names a real day; undefined otherwise. */
function dayStart(text: string): number | undefined {
  const match = DATE.exec(text);
  if (match === null) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const at = Date.UTC(year, month - 1, day);
  // 2026-02-30 would roll over to March: not a day anyone meant.
  return new Date(at).toISOString().slice(0, 10) === text ? at : undefined;
}

/**
 * The range an `/export` asks for: two dates (both days included), one date (that day), or
 * none (this UTC month so far, today included). Undefined for anything else, or a range that
 * ends before it starts.
 */
export function parseExportRange(args: string, now: number): ExportRange | undefined {
  const words = args.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) {
    const today = new Date(now);
    const from = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1);
    const to = Math.floor(now / DAY_MS) * DAY_MS + DAY_MS;
    return { from, to, firstDay: iso(from), lastDay: iso(to - DAY_MS) };
  }
  if (words.length > 2) return undefined;
  const [first = "", last = first] = words;
  const from = dayStart(first);
  const lastStart = dayStart(last);
  if (from === undefined || lastStart === undefined || lastStart < from) return undefined;
  return { from, to: lastStart + DAY_MS, firstDay: first, lastDay: last };
}

function iso(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

type PrivateCommand = CommandContext<ChatTypeContext<BotContext, "private">>;

/** Sends the CSV of the asked range, or says how to ask. */
export async function exportPurchases(ctx: PrivateCommand, services: BotServices): Promise<void> {
  const range = parseExportRange(ctx.match, services.now());
  if (range === undefined) {
    await ctx.reply([ctx.t("export-bad-dates"), ctx.t("export-usage")].join("\n"));
    return;
  }
  const csv = services.records.exportCsv(range.from, range.to);
  const name = `purchases-${range.firstDay}-${range.lastDay}.csv`;
  try {
    await ctx.replyWithDocument(new InputFile(csv, name), {
      caption: ctx.t("export-caption", { from: range.firstDay, to: range.lastDay }),
    });
  } catch (error) {
    csv.destroy();
    ctx.log.warn({ err: error }, "could not send an export");
    await ctx.reply(ctx.t(exportFailureText(error)));
  }
}

/**
 * What to tell the admin when the file could not be sent: "try again" only when trying again
 * may work (Telegram unreachable, failing or busy); a file Telegram refuses as too large needs
 * a shorter range; anything else (the database could not be read, Telegram refusing the
 * request) fails the same way again, so the admin is sent to the log.
 */
function exportFailureText(error: unknown): string {
  if (error instanceof HttpError) return "export-failed";
  if (error instanceof GrammyError) {
    if (error.error_code === 429 || error.error_code >= 500) return "export-failed";
    if (error.error_code === 413 || /too (big|large)/i.test(error.description)) {
      return "export-failed-too-large";
    }
  }
  return "export-failed-permanent";
}
