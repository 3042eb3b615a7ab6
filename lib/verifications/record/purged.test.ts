// The detail page's read of a request the service has purged: a 404 from a real HTTP upstream for
// an id the register holds past its kept_until becomes the purged state, dated by kept_until, with
// what the register still holds; a 404 before kept_until, or for an id the register does not
// hold, stays "not found", and so does another failure. A real database (PGlite, and PostgreSQL in
// the postgres project).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnv } from '@/lib/env';
import { type FakeUpstream, json, startFakeUpstream } from '@/lib/verification-service/fake-upstream';
import { getRegisterEntry } from '@/lib/verifications/register/queries.server';
import { ADA, at, DAY, insert, NOW, row, setUpRegisterDatabase } from '@/test/support/register';
import { purgedRequestFor } from './purged.server';
import { readVerification } from './read-verification.server';

let upstream: FakeUpstream;
const ENV_KEYS = ['VERIFICATION_API_URL', 'VERIFICATION_API_KEY', 'VERIFICATION_API_TIMEOUT_MS'] as const;
const savedEnv = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));

beforeAll(async () => {
  upstream = await startFakeUpstream();
  process.env.VERIFICATION_API_URL = upstream.baseUrl;
  process.env.VERIFICATION_API_KEY = 'test-key';
  process.env.VERIFICATION_API_TIMEOUT_MS = '2000';
  resetEnv();
});

setUpRegisterDatabase();

afterAll(async () => {
  await upstream.close();
  for (const key of ENV_KEYS) {
    if (savedEnv[key] === undefined) delete process.env[key];
    else process.env[key] = savedEnv[key];
  }
  resetEnv();
});

/** What the detail page makes of the service's answer for `id`, at NOW. */
async function pageReadOf(id: string) {
  const read = await readVerification(id, { refresh: 'by-caller' });
  if (read.ok) throw new Error('the service answered with a record');
  return { failure: read.failure, purged: await purgedRequestFor(read.failure, await getRegisterEntry(id), NOW) };
}

describe('purgedRequestFor, after the service answers', () => {
  it('turns a 404 for a request past its kept_until into the purged state: the date, and the register’s copy', async () => {
    await insert(
      row({
        verificationId: 'v-purged',
        name: 'Zoë Ørsted-Müller',
        purpose: 'ensuring_compliance',
        status: 'completed',
        identifiedName: 'Zoë Ørsted-Müller',
        completedAt: at(-40 * DAY),
        method: 'passport',
        createdBy: ADA,
        createdAt: at(-41 * DAY),
        keptUntil: at(-2 * DAY),
      }),
    );
    upstream.program(json(404, { error: 'Verification not found' }));
    const { purged } = await pageReadOf('v-purged');
    expect(purged).toEqual({
      purgedOn: at(-2 * DAY).toISOString(),
      requestedName: 'Zoë Ørsted-Müller',
      purpose: 'ensuring_compliance',
      createdAt: at(-41 * DAY).toISOString(),
      createdByName: 'Ada Admin',
      lastStatus: 'completed',
      identifiedName: 'Zoë Ørsted-Müller',
      completedAt: at(-40 * DAY).toISOString(),
      method: 'passport',
      failureReason: null,
    });
  });

  it('keeps "not found" for a 404 before kept_until: nothing says the retention policy explains it', async () => {
    await insert(row({ verificationId: 'v-early', status: 'completed', keptUntil: at(DAY) }));
    upstream.program(json(404, { error: 'Verification not found' }));
    const { failure, purged } = await pageReadOf('v-early');
    expect(failure.kind).toBe('not_found');
    expect(purged).toBeUndefined();
  });

  it('keeps "not found" for an id the register does not hold, and for a row that never learned its kept_until', async () => {
    await insert(row({ verificationId: 'v-undated', keptUntil: null }));
    upstream.program(json(404, { error: 'Verification not found' }));
    expect((await pageReadOf('v-unknown')).purged).toBeUndefined();
    expect((await pageReadOf('v-undated')).purged).toBeUndefined();
  });

  it('does not call a service outage a purge, past kept_until or not', async () => {
    await insert(row({ verificationId: 'v-down', status: 'completed', keptUntil: at(-DAY) }));
    upstream.program(json(503, { error: 'down' }));
    const { failure, purged } = await pageReadOf('v-down');
    expect(failure.kind).toBe('unavailable');
    expect(purged).toBeUndefined();
  });
});
