// A database outage on a real PostgreSQL server of this file's own (the shared test server must
// keep serving the other files): stopped with `pg_ctl stop` and started again on the same port.
// While it is down, readiness answers 503 naming the database, liveness stays 200, the failure is
// recognised as "database unavailable", and a form is refused with a plain message and its
// values; when it is back, the same process (the same pool) recovers with no restart.
// PostgreSQL only: the embedded store lives in the process and has no outages of this kind.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DATABASE_UNAVAILABLE_REFUSAL, formAction } from '@/lib/auth/form-action';
import { getDb } from '@/lib/db';
import { staffUsers } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { textField } from '@/lib/forms/action-input';
import { closeDatabases } from '@/lib/platform/database';
import { isDatabaseUnavailable } from '@/lib/platform/database-errors';
import { type FakeUpstream, json, startFakeUpstream } from '@/lib/verification-service/fake-upstream';
import { type PostgresServer, startPostgresServer } from '@/test/support/postgres-server';
import { GET as health } from '../health/route';
import { GET as ready } from './route';

const onPostgres = Boolean(process.env.DATABASE_URL);
let server: PostgresServer | undefined;
let upstream: FakeUpstream | undefined;

async function failureOf(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

/** A form that reads the staff table: whatever the database does, this is what it meets. */
const countStaff = formAction({
  permission: 'public',
  schema: z.object({ note: z.string().min(1) }),
  read: (formData) => ({ note: textField(formData, 'note') }),
  values: (typed) => ({ note: typed.note }),
  run: async () => {
    const rows = await (await getDb()).select({ id: staffUsers.id }).from(staffUsers);
    return { status: 'done' as const, staff: rows.length };
  },
});

function note(value: string): FormData {
  const data = new FormData();
  data.set('note', value);
  return data;
}

beforeAll(async () => {
  if (!onPostgres) return;
  await closeDatabases();
  server = await startPostgresServer();
  upstream = await startFakeUpstream();
  upstream.program(json(400, { error: 'Verification id is missing' }));
  process.env.DATABASE_URL = server.url;
  process.env.VERIFICATION_API_URL = upstream.baseUrl;
  process.env.VERIFICATION_API_KEY = 'outage-test-key';
  resetEnv();
  await getDb(); // migrated, as at start-up
});

afterAll(async () => {
  await closeDatabases();
  await upstream?.close();
  await server?.stop();
});

describe.skipIf(!onPostgres)('a PostgreSQL outage', { timeout: 120_000 }, () => {
  it('readiness fails on the database while it is down, liveness does not, and both recover without a restart', async () => {
    let response = await ready();
    expect(response.status).toBe(200);
    expect(await countStaff({ status: 'idle' } as never, note('before'))).toEqual({ status: 'done', staff: 0 });

    server!.halt();
    try {
      response = await ready();
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ status: 'not_ready', checks: { database: 'failed', service: 'ok' } });
      expect(health().status).toBe(200);

      // What pages and actions meet is recognised as the database being unavailable...
      const failure = await failureOf((async () => (await getDb()).execute(sql`select 1`))());
      expect(isDatabaseUnavailable(failure)).toBe(true);
      // ...and a form is refused plainly, with what was typed, instead of failing.
      expect(await countStaff({ status: 'idle' } as never, note('during'))).toEqual({
        status: 'failed',
        values: { note: 'during' },
        fieldErrors: {},
        ...DATABASE_UNAVAILABLE_REFUSAL,
      });
    } finally {
      server!.resume();
    }

    // The same pool reconnects on its own: no restart, no new handle.
    await expect.poll(async () => (await ready()).status, { timeout: 30_000, interval: 200 }).toBe(200);
    expect(await countStaff({ status: 'idle' } as never, note('after'))).toEqual({ status: 'done', staff: 0 });
  });

  it('does not take other database errors for an outage', async () => {
    const failure = await failureOf((async () => (await getDb()).execute(sql`select * from no_such_table`))());
    expect(isDatabaseUnavailable(failure)).toBe(false);
    expect(isDatabaseUnavailable(new Error('something else'))).toBe(false);
  });
});
