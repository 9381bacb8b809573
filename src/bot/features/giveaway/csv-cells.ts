/**
 * The cells of a list file saved as CSV, read leniently: a spreadsheet in one language saves
 * with commas, in another with semicolons (Excel in Russian) or tabs, so all three separate
 * cells. A quoted cell is read whole (a comma or a line break inside quotes splits nothing, `""`
 * is one quote), as RFC 4180 writes it. Nothing here throws: an unclosed quote runs to the end.
 */

const SEPARATORS = new Set([",", ";", "\t"]);

/** The rows of `text`, each a list of its cells as written (quotes removed, not trimmed). */
export function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] ?? "";
    if (quoted) {
      if (char !== '"') cell += char;
      else if (text[i + 1] === '"') {
        cell += '"';
        i++;
      } else quoted = false;
    } else if (char === '"' && cell.trim() === "") {
      // A quote opens a quoted cell only at its start; elsewhere it is a character.
      cell = "";
      quoted = true;
    } else if (SEPARATORS.has(char)) {
      row.push(cell);
      cell = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && text[i + 1] === "\n") i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else cell += char;
  }
  if (cell !== "" || row.length > 0) rows.push([...row, cell]);
  return rows;
}
