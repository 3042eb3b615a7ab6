// Following up an expired or failed request: which requests may be followed up, the link the
// create stores (only for such a request of this register, and never at the cost of the
// create), and both directions read back. A real HTTP upstream and a real database (PGlite,
// and PostgreSQL in the postgres project).
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { verificationRequests } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import type { Behaviour, FakeUpstream } from '@/lib/verification-service/fake-upstream';
import { startFakeUpstream } from '@/lib/verification-service/fake-upstream';
import { createVerificationOnce } from '@/lib/verifications/create/create-verification.server';
import { followUpFormValues } from '@/lib/verifications/create/follow-up-values';
import { purgeExpiredRegisterEntries } from '@/lib/verifications/register/retention.server';
import { ADA, DAY, insert, row, setUpRegisterDatabase } from '@/test/support/register';
import { checkFollowUp, getFollowUpLinks } from './follow-up.server';

let upstream: FakeUpstream;
/** What the fake service answers a read of each id with (absent: 404, as for an unknown id). */
const serviceStatus = new Map<string, string>();

const service: Behaviour = (req, res) => {
  if (req.method === 'POST') {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ message: 'Verification request created successfully.', verificationId: randomUUID() }));
    return;
  }
  const id = decodeURIComponent((req.url ?? '').split('/').pop() ?? '');
  const status = serviceStatus.get(id);
  if (!status) {
    res.writeHead(404, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ error: 'Verification not found' }));
    return;
  }
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(
    JSON.stringify({
      inputted_name: 'Élodie Martin',
      status,
      purpose: 'legal_obligations',
      access_expires_at: '2030-01-08T00:00:00.000Z',
      identified_name: null,
      identified_date: null,
      verification_method: 'passport',
      failed_reason: status === 'failed' ? 'document_expired' : null,
      kept_until: '2099-02-01T00:00:00.000Z',
    }),
  );
};

const request = { name: 'Élodie Martin', email: 'elodie@example.com', chosenPurpose: 'legal_obligations', language: 'fr' as const };

beforeAll(async () => {
  upstream = await startFakeUpstream();
  upstream.program(service);
  process.env.VERIFICATION_API_URL = upstream.baseUrl;
  process.env.VERIFICATION_API_KEY = 'test-key';
  process.env.VERIFICATION_API_TIMEOUT_MS = '2000';
  resetEnv();
});

setUpRegisterDatabase();

afterAll(async () => {
  await upstream.close();
});

async function followsOf(verificationId: string): Promise<string | null | undefined> {
  const db = await getDb();
  const [stored] = await db
    .select({ follows: verificationRequests.followsVerificationId })
    .from(verificationRequests)
    .where(eq(verificationRequests.verificationId, verificationId));
  return stored?.follows;
}

describe('checkFollowUp', () => {
  it('accepts an expired or a failed request of the register', async () => {
    await insert(row({ verificationId: 'old-failed', status: 'failed' }), row({ verificationId: 'old-expired', status: 'expired' }));
    expect(await checkFollowUp('old-failed')).toMatchObject({ ok: true, entry: { verificationId: 'old-failed' } });
    expect(await checkFollowUp('  old-expired ')).toMatchObject({ ok: true, entry: { verificationId: 'old-expired' } });
  });

  it('refuses a pending or completed request, an id of no request here, and what is not an id', async () => {
    await insert(row({ verificationId: 'still-pending', status: 'pending' }), row({ verificationId: 'done', status: 'completed' }));
    serviceStatus.set('still-pending', 'pending');
    // Another company's request: the service knows it, this register does not.
    serviceStatus.set('other-company', 'failed');

    expect(await checkFollowUp('still-pending')).toMatchObject({ ok: false, reason: 'not_finished', verificationId: 'still-pending' });
    expect(await checkFollowUp('done')).toMatchObject({ ok: false, reason: 'not_finished' });
    const unknown = await checkFollowUp('other-company');
    expect(unknown).toMatchObject({ ok: false, reason: 'unknown', verificationId: 'other-company' });
    expect(unknown.ok ? '' : unknown.message).toContain("No request with the id other-company is in this dashboard's register.");
    for (const notAnId of ['', '   ', 'a\u0000b', 'x'.repeat(201), 42, null]) {
      expect(await checkFollowUp(notAnId)).toMatchObject({ ok: false, reason: 'invalid' });
    }
  });

  it('asks the service about a request the register still has as pending, and follows its answer', async () => {
    await insert(row({ verificationId: 'expired-quietly', status: 'pending' }));
    serviceStatus.set('expired-quietly', 'expired');
    expect(await checkFollowUp('expired-quietly')).toMatchObject({ ok: true, entry: { status: 'expired' } });
  });
});

describe('followUpFormValues', () => {
  it('copies the name, purpose, language and channels, and no contact details', () => {
    const entry = { ...row({ verificationId: 'x', name: 'Élodie Martin', purpose: 'A custom purpose', language: 'nl' }) } as Parameters<
      typeof followUpFormValues
    >[0];
    expect(followUpFormValues({ ...entry, shareableLink: false, emailNotification: true, smsNotification: true })).toEqual({
      name: 'Élodie Martin',
      email: '',
      purpose: 'other',
      customPurpose: 'A custom purpose',
      language: 'nl',
      shareableLink: false,
      emailNotification: true,
      smsNotification: true,
      phone: '',
    });
    expect(followUpFormValues({ ...entry, purpose: 'ensuring_compliance', shareableLink: true, emailNotification: false })).toMatchObject({
      purpose: 'ensuring_compliance',
      customPurpose: '',
      shareableLink: true,
      emailNotification: false,
    });
  });
});

describe('creating a follow-up', () => {
  it('stores the link, and both requests read it: the new one follows the old, the old is followed by the new', async () => {
    await insert(row({ verificationId: 'first-attempt', status: 'failed', name: 'Élodie Martin' }));
    const created = await createVerificationOnce(randomUUID(), request, ADA, 'first-attempt');

    expect(await followsOf(created.verificationId)).toBe('first-attempt');
    const fromNew = await getFollowUpLinks(created.verificationId);
    expect(fromNew.follows).toMatchObject({ verificationId: 'first-attempt', name: 'Élodie Martin', status: 'failed' });
    expect(fromNew.followedBy).toEqual([]);
    const fromOld = await getFollowUpLinks('first-attempt');
    expect(fromOld.follows).toBeNull();
    expect(fromOld.followedBy.map((linked) => linked.verificationId)).toEqual([created.verificationId]);
  });

  it('still creates, without a link, when the old request is pending, unknown here or another company’s', async () => {
    await insert(row({ verificationId: 'not-over-yet', status: 'pending' }));
    for (const old of ['not-over-yet', 'other-company', 'never-existed']) {
      const created = await createVerificationOnce(randomUUID(), request, ADA, old);
      // The create went through: the register holds it, unlinked.
      expect(await followsOf(created.verificationId), old).toBeNull();
      expect((await getFollowUpLinks(created.verificationId)).follows, old).toBeNull();
    }
    expect((await getFollowUpLinks('not-over-yet')).followedBy).toEqual([]);
  });

  it('lists every follow-up of a request, oldest first, and unlinks them when the old one is purged', async () => {
    await insert(row({ verificationId: 'tried-twice', status: 'expired', keptUntil: new Date(Date.now() + DAY) }));
    const first = await createVerificationOnce(randomUUID(), request, ADA, 'tried-twice');
    const second = await createVerificationOnce(randomUUID(), request, ADA, 'tried-twice');
    expect((await getFollowUpLinks('tried-twice')).followedBy.map((linked) => linked.verificationId)).toEqual([
      first.verificationId,
      second.verificationId,
    ]);

    // The old request's retention passes: the new ones stay, no longer linked to what is gone.
    await purgeExpiredRegisterEntries(new Date(Date.now() + 2 * DAY));
    expect(await followsOf(first.verificationId)).toBeNull();
    expect((await getFollowUpLinks(second.verificationId)).follows).toBeNull();
  });
});
