// Copies every row of a database's application schemas to a file and back: the upgrade path
// from an embedded data directory to a PostgreSQL server (the `npm run data` CLI, lib/cli/data.ts).
// The file is JSON lines: a header naming the tables in the order they must be inserted (a table
// after those its foreign keys point at) with their row counts, then one line per row. Rows are
// written by PostgreSQL itself (to_jsonb) and read back by it (jsonb_populate_record), so every
// type (timestamps, bytea, jsonb, bigint) survives exactly, whatever the driver would make of it.
// Works on both stores through the one call they share: query(text, params) → { rows }.

export const EXPORT_FORMAT = 'verification-desk-export';
export const EXPORT_VERSION = 1;

/** The schemas that hold the application's data; migration bookkeeping is not data (import migrates). */
export const DATA_SCHEMAS = ['public', 'sandbox'] as const;

export type Queryable = { query: (text: string, params?: unknown[]) => Promise<{ rows: unknown[] }> };

export type TableCount = { table: string; rows: number };
export type ExportHeader = { format: typeof EXPORT_FORMAT; version: number; exportedAt: string; tables: TableCount[] };

export class DataTransferError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataTransferError';
  }
}

const quoted = (table: string) =>
  table
    .split('.')
    .map((part) => `"${part.replaceAll('"', '""')}"`)
    .join('.');

/** The application's tables ("schema.table"), each after every table its foreign keys point at. */
export async function tablesInInsertOrder(db: Queryable): Promise<string[]> {
  const tables = (
    await db.query(
      `select table_schema || '.' || table_name as name from information_schema.tables
        where table_schema = any($1) and table_type = 'BASE TABLE' order by 1`,
      [[...DATA_SCHEMAS]],
    )
  ).rows.map((row) => (row as { name: string }).name);
  const edges = (
    await db.query(
      `select cn.nspname || '.' || c.relname as child, pn.nspname || '.' || p.relname as parent
         from pg_constraint k
         join pg_class c on c.oid = k.conrelid join pg_namespace cn on cn.oid = c.relnamespace
         join pg_class p on p.oid = k.confrelid join pg_namespace pn on pn.oid = p.relnamespace
        where k.contype = 'f' and cn.nspname = any($1)`,
      [[...DATA_SCHEMAS]],
    )
  ).rows as Array<{ child: string; parent: string }>;
  const ordered: string[] = [];
  const placed = new Set<string>();
  const visit = (table: string, path: Set<string>) => {
    if (placed.has(table)) return;
    if (path.has(table)) throw new DataTransferError(`foreign keys form a cycle through ${table}`);
    path.add(table);
    for (const edge of edges) if (edge.child === table && edge.parent !== table) visit(edge.parent, path);
    path.delete(table);
    placed.add(table);
    ordered.push(table);
  };
  for (const table of tables) visit(table, new Set());
  return ordered;
}

/** Every row of every application table, as lines to write (header first). */
export async function exportLines(db: Queryable, write: (line: string) => Promise<void>): Promise<ExportHeader> {
  const tables = await tablesInInsertOrder(db);
  const contents: Array<{ table: string; rows: string[] }> = [];
  for (const table of tables) {
    const rows = (await db.query(`select to_jsonb(t)::text as row from ${quoted(table)} t`)).rows.map(
      (row) => (row as { row: string }).row,
    );
    contents.push({ table, rows });
  }
  const header: ExportHeader = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: new Date().toISOString(),
    tables: contents.map(({ table, rows }) => ({ table, rows: rows.length })),
  };
  await write(JSON.stringify(header));
  for (const { table, rows } of contents) {
    // The row is already JSON text: spliced in rather than parsed and written again.
    for (const row of rows) await write(`{"table":${JSON.stringify(table)},"row":${row}}`);
  }
  return header;
}

export function parseHeader(line: string | undefined): ExportHeader {
  let header: Partial<ExportHeader> | undefined;
  try {
    header = line ? (JSON.parse(line) as Partial<ExportHeader>) : undefined;
  } catch {
    header = undefined;
  }
  if (header?.format !== EXPORT_FORMAT || !Array.isArray(header.tables)) {
    throw new DataTransferError('the file is not an export of Verification Desk (its first line is not the export header)');
  }
  if (header.version !== EXPORT_VERSION) {
    throw new DataTransferError(`the file's format version is ${String(header.version)}; this version reads ${EXPORT_VERSION}`);
  }
  return header as ExportHeader;
}

/** Row counts of the application's tables that hold any rows. */
export async function nonEmptyTables(db: Queryable): Promise<TableCount[]> {
  const counts: TableCount[] = [];
  for (const table of await tablesInInsertOrder(db)) {
    const [row] = (await db.query(`select count(*)::int as n from ${quoted(table)}`)).rows as Array<{ n: number }>;
    if ((row?.n ?? 0) > 0) counts.push({ table, rows: Number(row!.n) });
  }
  return counts;
}

/**
 * Inserts the exported rows into `tx` (a transaction the caller opened and will commit or roll
 * back): into empty tables of the same schema, in the header's order, then moves every serial
 * sequence past the highest id it now holds and checks each table's count against the header.
 */
export async function importRows(tx: Queryable, header: ExportHeader, rows: AsyncIterable<string>): Promise<TableCount[]> {
  const known = new Set(await tablesInInsertOrder(tx));
  for (const { table } of header.tables) {
    if (!known.has(table)) throw new DataTransferError(`the file has table ${table}, which this version's database does not`);
  }
  const order = new Map(header.tables.map(({ table }, index) => [table, index]));
  const writable = new Map<string, string[]>();
  let position = 0;
  let lineNumber = 1;
  for await (const line of rows) {
    lineNumber += 1;
    if (line.trim() === '') continue;
    let entry: { table?: unknown; row?: unknown };
    try {
      entry = JSON.parse(line) as { table?: unknown; row?: unknown };
    } catch {
      throw new DataTransferError(`line ${lineNumber} is not JSON`);
    }
    const table = typeof entry.table === 'string' ? entry.table : undefined;
    const index = table === undefined ? undefined : order.get(table);
    if (table === undefined || index === undefined || typeof entry.row !== 'object' || entry.row === null) {
      throw new DataTransferError(`line ${lineNumber} is not a row of a table the header names`);
    }
    if (index < position) throw new DataTransferError(`line ${lineNumber}: rows of ${table} come after a later table's`);
    position = index;
    let tableColumns = writable.get(table);
    if (!tableColumns) {
      tableColumns = await writableColumns(tx, table);
      writable.set(table, tableColumns);
    }
    // Only the columns the row has: a file written before a migration added a column lacks it,
    // and the column's default (or what a trigger derives from later rows) fills it, as the
    // migration did for the rows it found. Naming it would insert null.
    const row = entry.row as Record<string, unknown>;
    const columns = tableColumns
      .filter((column) => Object.hasOwn(row, column))
      .map((column) => `"${column.replaceAll('"', '""')}"`)
      .join(', ');
    if (columns === '') throw new DataTransferError(`line ${lineNumber} has none of the columns of ${table}`);
    await tx.query(
      `insert into ${quoted(table)} (${columns}) select ${columns} from jsonb_populate_record(null::${quoted(table)}, $1::jsonb)`,
      [JSON.stringify(entry.row)],
    );
  }
  await resetSequences(tx);
  const counts: TableCount[] = [];
  for (const { table, rows: expected } of header.tables) {
    const [row] = (await tx.query(`select count(*)::int as n from ${quoted(table)}`)).rows as Array<{ n: number }>;
    const actual = Number(row?.n ?? 0);
    if (actual !== expected) throw new DataTransferError(`${table} has ${actual} rows after the import; the file says ${expected}`);
    counts.push({ table, rows: actual });
  }
  return counts;
}

/**
 * The columns of `table` that an insert may set: generated columns (the register's
 * folded search names) are computed by the database, which refuses a value for them; the
 * imported row recomputes them.
 */
async function writableColumns(tx: Queryable, table: string): Promise<string[]> {
  const [schema, name] = table.split('.');
  const rows = (
    await tx.query(
      `select column_name as "column" from information_schema.columns
        where table_schema = $1 and table_name = $2 and is_generated = 'NEVER'
        order by ordinal_position`,
      [schema, name],
    )
  ).rows as Array<{ column: string }>;
  return rows.map(({ column }) => column);
}

/** Each serial or identity column's sequence continues after the highest value imported. */
async function resetSequences(tx: Queryable): Promise<void> {
  const columns = (
    await tx.query(
      `select table_schema || '.' || table_name as "table", column_name as "column",
              pg_get_serial_sequence(quote_ident(table_schema) || '.' || quote_ident(table_name), column_name) as sequence
         from information_schema.columns where table_schema = any($1)`,
      [[...DATA_SCHEMAS]],
    )
  ).rows as Array<{ table: string; column: string; sequence: string | null }>;
  for (const { table, column, sequence } of columns) {
    if (!sequence) continue;
    const max = `(select max("${column.replaceAll('"', '""')}") from ${quoted(table)})`;
    await tx.query(`select setval($1::regclass, coalesce(${max}, 1), ${max} is not null)`, [sequence]);
  }
}
