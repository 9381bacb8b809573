/**
 * A small, strict RFC 4180 reader for tests (csv-parse is not a dependency): quoted fields
 * with doubled quotes, commas and line breaks inside quotes, CRLF or LF between records. It
 * throws on anything malformed, so a broken file fails the test instead of reading wrongly.
 */
export function readCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let i = 0;
  const endField = () => {
    record.push(field);
    field = "";
  };
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"' && field === "") {
      i++;
      for (;;) {
        if (i >= text.length) throw new Error("unterminated quoted field");
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i];
        i++;
      }
      const next = text[i];
      if (next !== undefined && next !== "," && next !== "\n" && next !== "\r") {
        throw new Error(`text after a closing quote at ${i}`);
      }
      continue;
    }
    if (ch === '"') throw new Error(`a quote inside an unquoted field at ${i}`);
    if (ch === ",") {
      endField();
      i++;
    } else if (ch === "\r" || ch === "\n") {
      endField();
      records.push(record);
      record = [];
      i += ch === "\r" && text[i + 1] === "\n" ? 2 : 1;
    } else {
      field += ch;
      i++;
    }
  }
  if (field !== "" || record.length > 0) {
    endField();
    records.push(record);
  }
  return records;
}
