/**
 * A giveaway's list of recipients, read from what an admin sends: a message (usernames, `@name`
 * or t.me links, separated by spaces, commas, semicolons or new lines) or a .txt/.csv file.
 * Every entry goes through the one username parser (src/gifts/username.ts); the same person
 * written twice (any case, with or without `@`, as a link) is one recipient, kept in the order
 * first written; what is not a username is listed back, never guessed at. Nothing here may
 * throw on what a person sends.
 */
import { parseUsername, type Username } from "../../../gifts/username.js";
import { csvRows } from "./csv-cells.js";

export interface RecipientList {
  /** Each recipient once, in the order first written. */
  recipients: Username[];
  /** Entries that are not usernames, as written (at most {@link MAX_INVALID_SHOWN}). */
  invalid: string[];
  /** How many entries were not usernames in all. */
  invalidCount: number;
  /** Recipients past the maximum, left out (the list holds the first `max`). */
  overLimit: number;
  /** Entries that named a recipient already in the list (merged into the first). */
  duplicates: number;
}

/** Invalid entries listed back at most; the count says how many there were. */
export const MAX_INVALID_SHOWN = 20;
/** An entry longer than this is not a username nor a link to one. */
const MAX_ENTRY_LENGTH = 200;

/**
 * A spreadsheet's first row naming its columns: the cells that name the usernames' column, the
 * likeliest first ("name" last: beside a "username" column it is a display name).
 */
const USERNAME_HEADERS: readonly (readonly string[])[] = [
  ["username", "usernames", "user_name", "telegram", "tg", "handle", "login", "nickname"],
  ["recipient", "recipients", "winner", "winners", "user", "users"],
  ["name"],
];

/** Reads a message's text. */
export function recipientsFromText(text: string, max: number): RecipientList {
  return collect(text.split(/[\s,;]+/u), max);
}

/**
 * Reads a file's text: a .txt as a message's text; a .csv by its cells. When its first row names
 * the usernames' column (`username`, `recipient`, ...), that column of every other row; else
 * every cell, each one entry, so no name on the sheet is left out unseen (a prize or a display
 * name is listed back as not a username, or checked like any name).
 */
export function recipientsFromFile(fileName: string, text: string, max: number): RecipientList {
  if (!fileName.toLowerCase().endsWith(".csv")) return recipientsFromText(text, max);
  const rows = csvRows(text);
  const column = usernameColumn(rows[0] ?? []);
  const entries =
    column === undefined ? rows.flat() : rows.slice(1).map((row) => row[column] ?? "");
  return collect(entries, max);
}

/** The index of the column a header row names as the usernames', or undefined (no header). */
function usernameColumn(firstRow: readonly string[]): number | undefined {
  const header = firstRow.map((cell) => cell.trim().toLowerCase().replace(/^@/u, ""));
  for (const names of USERNAME_HEADERS) {
    const index = header.findIndex((cell) => names.includes(cell));
    if (index >= 0) return index;
  }
  return undefined;
}

function collect(entries: readonly string[], max: number): RecipientList {
  const seen = new Set<string>();
  const recipients: Username[] = [];
  const invalid: string[] = [];
  let invalidCount = 0;
  let overLimit = 0;
  let duplicates = 0;
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry === "") continue;
    const name = entry.length > MAX_ENTRY_LENGTH ? undefined : parseUsername(entry);
    if (name === undefined) {
      invalidCount += 1;
      if (invalid.length < MAX_INVALID_SHOWN) invalid.push(entry.slice(0, 64));
      continue;
    }
    const key = name.toLowerCase();
    if (seen.has(key)) {
      duplicates += 1;
      continue;
    }
    seen.add(key);
    if (recipients.length < max) recipients.push(name);
    else overLimit += 1;
  }
  return { recipients, invalid, invalidCount, overLimit, duplicates };
}
