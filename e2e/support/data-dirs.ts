// A data directory for a spec's own embedded server. Creating and migrating a database from
// nothing costs a process seconds of CPU (about 4 s on a quiet 2-core machine, twice that beside the
// other worker), so the config does it once per run, in a template (playwright.config.ts), and
// each spec's server starts from a copy of it: the same files the server would have written,
// owner-only like them. first-run.spec.ts starts from an empty directory, which is its point.
import { cpSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A new directory under the system's temp directory, holding a migrated, empty database. */
export function newDataDir(name: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `verification-desk-${name}-`));
  const template = process.env.E2E_TEMPLATE_DIR;
  if (!template) throw new Error('E2E_TEMPLATE_DIR is unset: run the specs through playwright.config.ts, which makes the template');
  cpSync(template, dir, { recursive: true });
  return dir;
}
