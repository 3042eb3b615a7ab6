// Writing CSV for auditors: RFC 4180 lines (CRLF, quotes doubled), a UTF-8 byte order mark so
// spreadsheet programs read accents as UTF-8, and cells that a spreadsheet would run as a formula
// made inert. Pure and dependency-free, so each rule is tested on its own.

/** U+FEFF at the start of the file: Excel reads a CSV without it in the system's legacy code page. */
export const BYTE_ORDER_MARK = '\uFEFF';

/** RFC 4180 ends every record with CRLF. */
export const LINE_END = '\r\n';

export type CsvCell = string | number | boolean | Date | null | undefined;

// What makes Excel, LibreOffice and Google Sheets read a cell as a formula (OWASP, "CSV
// injection"): these first characters. A tab or carriage return first is on the list because
// some programs strip it and then see the character after it.
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * What separates the cells: a comma (RFC 4180, and what English-language spreadsheets expect) or
 * a semicolon, which spreadsheets set to French or Dutch (Belgium, France, the Netherlands)
 * expect, since there the comma is the decimal separator: they open a comma file as one column.
 */
export type CsvDelimiter = ',' | ';';

// A cell must be quoted when it holds the separator, a quote or a line break (RFC 4180 §2.6).
const NEEDS_QUOTES: Record<CsvDelimiter, RegExp> = { ',': /[",\r\n]/, ';': /[";\r\n]/ };

function text(cell: CsvCell): string {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Date) return cell.toISOString();
  return String(cell);
}

/**
 * One cell as it goes into the file. A value that would start a formula gets a leading single
 * quote (shown as text by spreadsheets, harmless to a program that reads the file) and is quoted,
 * so the neutralised form is unambiguous in the file.
 */
export function csvCell(cell: CsvCell, delimiter: CsvDelimiter = ','): string {
  const value = text(cell);
  // Only text can carry a formula: a negative number stays a number.
  if (typeof cell === 'string' && FORMULA_START.test(value)) return `"'${value.replaceAll('"', '""')}"`;
  if (NEEDS_QUOTES[delimiter].test(value)) return `"${value.replaceAll('"', '""')}"`;
  return value;
}

/** One record, with its line end. */
export function csvLine(cells: readonly CsvCell[], delimiter: CsvDelimiter = ','): string {
  let line = '';
  for (let i = 0; i < cells.length; i += 1) line += (i === 0 ? '' : delimiter) + csvCell(cells[i], delimiter);
  return line + LINE_END;
}
