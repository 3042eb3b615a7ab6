// An embedded data directory whose database already exists, for tests about what happens to a
// directory a server has used (its lock, a CLI run against it, modes left by an earlier version),
// not about creating one. It is the run's in-memory template (test/support/pglite-template.global-setup.ts),
// already initialised and migrated, unpacked as the `pgdata` folder PGlite opens: creating a
// database on disk from nothing costs seconds of CPU in every process that does it.
// lib/platform/owner-only-files.test.ts still creates one from nothing, where that is the point.
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { tightenToOwnerOnly } from '@/lib/platform/owner-only-files';

/** Creates `dataDir` (if needed) with a ready database in it, as a server leaves it when stopped. */
export async function seedDataDir(dataDir: string): Promise<void> {
  const template = inject('pgliteTemplate');
  if (!template) throw new Error('seedDataDir needs the pglite project (its global setup builds the template)');
  const pgdata = path.join(dataDir, 'pgdata');
  await mkdir(pgdata, { recursive: true, mode: 0o700 });
  // The archive's names start with "/": tar strips that and says so on stderr, which is ignored.
  await promisify(execFile)('tar', ['-xf', template, '-C', pgdata]);
  // Owner-only, as the server leaves it: the archive's folders are open to the group.
  await tightenToOwnerOnly(dataDir);
}
