/**
 * A giveaway's checked list as a CSV document ("Download the list"): one row per entry the
 * admin sent, with what the check found. Written like every CSV of the bot (quoted, formulas
 * neutralised: the invalid entries are whatever the admin pasted).
 */
import { stringify } from "csv-stringify/sync";
import { SAFE_CSV_OPTIONS } from "../../../purchases/export-csv.js";
import type { CheckedRecipients } from "./check.js";

const GIVEAWAY_CSV_COLUMNS = ["recipient", "check"] as const;

export function giveawayListCsv(checked: CheckedRecipients, invalid: readonly string[]): string {
  const rows: [string, string][] = [
    ...checked.canReceive.map((name): [string, string] => [name, "can_receive"]),
    ...checked.hasPremium.map((name): [string, string] => [name, "has_premium"]),
    ...checked.notFound.map((name): [string, string] => [name, "not_found"]),
    ...checked.unchecked.map((name): [string, string] => [name, "not_checked"]),
    ...invalid.map((entry): [string, string] => [entry, "not_a_username"]),
  ];
  return stringify(rows, { header: true, columns: [...GIVEAWAY_CSV_COLUMNS], ...SAFE_CSV_OPTIONS });
}
