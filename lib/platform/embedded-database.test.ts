// The embedded Postgres's memory settings: PGlite's wasm heap never shrinks and Postgres touches
// all of shared_buffers, so these decide most of the server's resident memory.
import { afterAll, expect, it } from 'vitest';
import { closeDatabases, openDatabase } from './embedded-database';

afterAll(async () => {
  await closeDatabases();
});

it('runs with small buffers, keeping the PGlite defaults it replaces', async () => {
  const pg = await openDatabase('memory://');
  const setting = async (name: string) =>
    (await pg.query<{ setting: string }>(`select current_setting('${name}') as setting`)).rows[0]!.setting;
  expect(await setting('shared_buffers')).toBe('16MB');
  expect(await setting('wal_buffers')).toBe('1MB');
  expect(await setting('work_mem')).toBe('2MB');
  // From PGlite's own start parameters, which startParams replaces rather than extends.
  expect(await setting('max_worker_processes')).toBe('0');
  expect(await setting('search_path')).toBe('public');
});
