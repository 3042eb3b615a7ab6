// Test support only: reads a CSV file back the way a spreadsheet would (RFC 4180: quoted cells,
// doubled quotes, line breaks inside quotes), so tests assert cells rather than raw text.

/** The records of `text` (after any byte order mark), each a list of cells. */
export function parseCsv(text: string, delimiter: ',' | ';' = ','): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  let i = text.startsWith('\uFEFF') ? 1 : 0;
  for (; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === delimiter) {
      record.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
      i += 1;
    } else cell += c;
  }
  if (cell !== '' || record.length > 0) records.push([...record, cell]);
  return records;
}
