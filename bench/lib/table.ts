/** The bench's plain-text table: sections, then label/value rows. */

export type Row = [label: string, value: string] | { section: string };

export function formatTable(rows: readonly Row[]): string {
  const labels = rows.flatMap((r) => (Array.isArray(r) ? [r[0].length] : []));
  const width = Math.max(...labels, 10);
  const lines: string[] = [];
  for (const row of rows) {
    if (Array.isArray(row)) lines.push(`  ${row[0].padEnd(width)}  ${row[1]}`);
    else lines.push(lines.length === 0 ? row.section : `\n${row.section}`);
  }
  return lines.join("\n");
}
