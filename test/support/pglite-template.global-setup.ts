// Vitest global setup: builds the in-memory database template once per run, before any test
// file starts. It opens an in-memory database through the real code paths (both halves'
// migrations), dumps it to a file, and tells every test worker where it is.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

// The projects `pglite` and `pglite-isolated` share one template: their global setups run in the
// same process, so the first builds it and the second waits for it (kept on globalThis, since
// each project loads this module anew).
const shared = globalThis as { pgliteTemplate?: Promise<{ file: string; dir: string }>; pgliteTemplateUsers?: number };

export default async function setup(project: TestProject) {
  shared.pgliteTemplateUsers = (shared.pgliteTemplateUsers ?? 0) + 1;
  shared.pgliteTemplate ??= buildTemplate();
  const { file, dir } = await shared.pgliteTemplate;
  project.provide('pgliteTemplate', file);
  return async () => {
    shared.pgliteTemplateUsers = (shared.pgliteTemplateUsers ?? 1) - 1;
    if (shared.pgliteTemplateUsers === 0) await rm(dir, { recursive: true, force: true });
  };
}

async function buildTemplate(): Promise<{ file: string; dir: string }> {
  const saved = process.env.DATA_DIR;
  process.env.DATA_DIR = 'memory://';
  const { getDb } = await import('@/lib/db');
  const { getSandboxDb } = await import('@/lib/sandbox/db');
  const { closeDatabases } = await import('@/lib/platform/database');
  const { openDatabase } = await import('@/lib/platform/embedded-database');
  const { resetEnv } = await import('@/lib/env');
  resetEnv();
  await getDb();
  await getSandboxDb();
  const dump = await (await openDatabase('memory://')).dumpDataDir('none');
  await closeDatabases();
  if (saved === undefined) delete process.env.DATA_DIR;
  else process.env.DATA_DIR = saved;
  resetEnv();

  const dir = await mkdtemp(path.join(os.tmpdir(), 'verification-desk-pglite-template-'));
  const file = path.join(dir, 'template.tar');
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  return { file, dir };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}
