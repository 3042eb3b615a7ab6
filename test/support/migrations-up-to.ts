// Test and bench support only: the dashboard's migrations up to and including one tag, as a folder
// of their own that drizzle's migrator reads: a database as it stood before a later migration, to
// apply that migration to existing data (lib/audit/chain/migration.test.ts, e2e/bench/chain-cost.mjs).
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const DASHBOARD_MIGRATIONS = path.join(process.cwd(), 'lib/db/migrations');

/** A new temporary folder with the migrations up to `lastTag` and their journal; the caller removes it. */
export function migrationsUpTo(lastTag: string, from = DASHBOARD_MIGRATIONS): string {
  const journal = JSON.parse(readFileSync(path.join(from, 'meta/_journal.json'), 'utf8'));
  const last = journal.entries.findIndex((entry: { tag: string }) => entry.tag === lastTag);
  if (last < 0) throw new Error(`no migration ${lastTag} in ${from}`);
  const entries = journal.entries.slice(0, last + 1);
  const folder = mkdtempSync(path.join(tmpdir(), 'migrations-up-to-'));
  mkdirSync(path.join(folder, 'meta'));
  for (const entry of entries) copyFileSync(path.join(from, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
  writeFileSync(path.join(folder, 'meta/_journal.json'), JSON.stringify({ ...journal, entries }));
  return folder;
}
