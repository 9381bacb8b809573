/**
 * Reads a CSV file back the way an accountant's tool would: csv-parse with its strict defaults
 * (quotes must be well formed, every record as wide as the first), so a broken file fails the
 * test instead of reading wrongly.
 */
import { parse } from "csv-parse/sync";

export function readCsv(text: string): string[][] {
  return parse(text);
}
