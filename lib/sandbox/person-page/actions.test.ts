// The person's page with its simulated outcomes: the server actions called as a browser without
// JavaScript would (FormData in, redirect out), what they refuse, and the page each redirect
// leads to, in the request's language, rendered as static HTML.
import { asc, eq, sql } from 'drizzle-orm';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import VerifyPage from '@/app/(sandbox)/sandbox/verify/[token]/page';
import { POST } from '@/app/(sandbox)/v1/verifications/new/route';
import { closeDatabases } from '@/lib/platform/database';
import type { SandboxDb } from '@/lib/sandbox/db';
import { verifications, webhookMessages } from '@/lib/sandbox/schema';
import { createRequest, createTestCompany, type TestCompany, useInMemorySandbox, validBody } from '@/test/support/sandbox';
import { completeVerificationAction, failVerificationAction } from './actions';
import { getPersonPageState, type PersonPageQuery } from './person-page';

let db: SandboxDb;
let company: TestCompany;

beforeAll(async () => {
  db = await useInMemorySandbox();
  company = await createTestCompany(db, { name: 'Acme Bank', tokenValiditySeconds: 3_600, verificationRetentionSeconds: 7_200 });
});

afterAll(async () => {
  await closeDatabases();
});

afterEach(() => {
  vi.useRealTimers();
  process.env.SANDBOX = 'on';
});

async function createShared(overrides: Record<string, unknown> = {}): Promise<{ id: string; token: string }> {
  const response = await POST(createRequest(validBody({ shareableLink: true, ...overrides }), { apiKey: company.apiKey }), undefined);
  const body = (await response.json()) as { verificationId: string; link: string };
  return { id: body.verificationId, token: body.link.split('/sandbox/verify/')[1]! };
}

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

/** Runs an action and returns where it redirected to (actions always end with a redirect or a 404). */
async function submit(action: (data: FormData) => Promise<void>, fields: Record<string, string>): Promise<string> {
  try {
    await action(form(fields));
  } catch (error) {
    const digest = (error as { digest?: unknown }).digest;
    if (typeof digest === 'string' && digest.startsWith('NEXT_REDIRECT;')) return digest.split(';')[2]!;
    if (digest === 'NEXT_HTTP_ERROR_FALLBACK;404') return '404';
    throw error;
  }
  throw new Error('the action neither redirected nor answered 404');
}

async function stored(id: string) {
  const [row] = await db.select().from(verifications).where(eq(verifications.id, id));
  return row!;
}

async function eventTypes(id: string): Promise<string[]> {
  const rows = await db
    .select({ type: webhookMessages.type })
    .from(webhookMessages)
    .where(sql`${webhookMessages.payload} -> 'data' ->> 'verificationId' = ${id}`)
    .orderBy(asc(webhookMessages.createdAt));
  return rows.map((row) => row.type);
}

async function renderVerify(token: string, query: PersonPageQuery = {}): Promise<string> {
  return renderToStaticMarkup(await VerifyPage({ params: Promise.resolve({ token }), searchParams: Promise.resolve(query) }));
}

describe('completing', () => {
  it('records the method and the typed name, and the page thanks the person in their language', async () => {
    const { id, token } = await createShared({ name: 'Jane Doe', language: 'fr' });
    const to = await submit(completeVerificationAction, { token, method: 'itsme', identifiedName: '  Jane Marie Doe  ' });
    expect(to).toBe(`/sandbox/verify/${token}?result=completed`);
    expect(await stored(id)).toMatchObject({
      status: 'completed',
      verificationMethod: 'itsme',
      identifiedName: 'Jane Marie Doe',
      identifiedDate: expect.any(Date),
      failedReason: null,
    });
    expect(await eventTypes(id)).toEqual(['verification.created', 'verification.completed']);

    const html = await renderVerify(token, { result: 'completed' });
    expect(html).toContain('lang="fr"');
    expect(html).toContain('Merci — votre identité a été vérifiée');
    expect(html).not.toContain('<form');
    // Coming back later: the link is used, without the thanks.
    expect(await renderVerify(token)).toContain('Cette vérification est clôturée');
  });

  it.each(['passport', 'id_card', 'drivers_license', 'itsme', 'bank_id'])('accepts the method %s', async (method) => {
    const { id, token } = await createShared();
    await submit(completeVerificationAction, { token, method, identifiedName: 'Jane Doe' });
    expect((await stored(id)).verificationMethod).toBe(method);
  });
});

describe('failing', () => {
  it('stores the readable English reason, no method, and the page shows it in the request’s language', async () => {
    const { id, token } = await createShared({ language: 'nl' });
    expect(await submit(failVerificationAction, { token, reason: 'name_mismatch' })).toBe(`/sandbox/verify/${token}?result=failed`);
    expect(await stored(id)).toMatchObject({
      status: 'failed',
      failedReason: 'Name mismatch',
      verificationMethod: null,
      identifiedName: null,
      identifiedDate: null,
    });
    expect(await eventTypes(id)).toEqual(['verification.created', 'verification.failed']);
    const html = await renderVerify(token, { result: 'failed' });
    expect(html).toContain('lang="nl"');
    expect(html).toContain('De verificatie is mislukt');
    expect(html).toContain('Naam komt niet overeen');
  });
});

describe('refused input changes nothing', () => {
  it.each([
    ['an unknown method', completeVerificationAction, { method: 'selfie', identifiedName: 'Jane' }, 'method'],
    ['no method', completeVerificationAction, { identifiedName: 'Jane' }, 'method'],
    ['an empty name', completeVerificationAction, { method: 'passport', identifiedName: '   ' }, 'name'],
    ['no name', completeVerificationAction, { method: 'passport' }, 'name'],
    ['a name of 201 characters', completeVerificationAction, { method: 'passport', identifiedName: 'x'.repeat(201) }, 'name'],
    ['an unknown reason', failVerificationAction, { reason: 'bored' }, 'reason'],
    ['no reason', failVerificationAction, {}, 'reason'],
    ['the English text instead of the code', failVerificationAction, { reason: 'Document expired' }, 'reason'],
  ] as const)('%s: back to the page with the error', async (_case, action, fields, error) => {
    const { id, token } = await createShared();
    const before = await stored(id);
    expect(await submit(action, { token, ...fields })).toBe(`/sandbox/verify/${token}?error=${error}`);
    expect(await stored(id)).toEqual(before);
    expect(await eventTypes(id)).toEqual(['verification.created']);
  });

  it('shows the error on the page, in its language, tied to the form', async () => {
    const { token } = await createShared({ name: 'Jan Jansen', language: 'nl' });
    const html = await renderVerify(token, { error: 'name' });
    expect(html).toContain('role="alert"');
    expect(html).toContain('Vul de naam in die van het identiteitsdocument gelezen werd');
    expect(html).toMatch(/aria-describedby="identified-name-hint form-error"/);
    expect(html).toContain('aria-invalid="true"');
    // An unknown error code shows nothing.
    expect(await renderVerify(token, { error: '<b>hi</b>' })).not.toContain('role="alert"');
  });

  it.each([
    ['a malformed token', { token: 'not-a-token' }],
    ['no token', {}],
  ])('%s: 404', async (_case, fields) => {
    expect(await submit(completeVerificationAction, { method: 'passport', identifiedName: 'Jane', ...fields })).toBe('404');
    expect(await submit(failVerificationAction, { reason: 'other', ...fields })).toBe('404');
  });

  it('an unknown token goes back to its page, which says the link is not valid', async () => {
    const token = 'C'.repeat(43);
    expect(await submit(completeVerificationAction, { token, method: 'passport', identifiedName: 'Jane' })).toBe(
      `/sandbox/verify/${token}`,
    );
    expect(await renderVerify(token)).toContain('This link is not valid');
  });

  it('an expired token completes nothing; the page says it has expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-01-01T09:00:00.000Z'));
    const { id, token } = await createShared({ language: 'fr' });
    vi.setSystemTime(new Date('2031-01-01T10:00:00.000Z'));
    expect(await submit(completeVerificationAction, { token, method: 'passport', identifiedName: 'Jane' })).toBe(
      `/sandbox/verify/${token}`,
    );
    expect(await submit(failVerificationAction, { token, reason: 'other' })).toBe(`/sandbox/verify/${token}`);
    expect(await stored(id)).toMatchObject({ status: 'expired', identifiedName: null, verificationMethod: null, failedReason: null });
    expect(await eventTypes(id)).toEqual(['verification.created', 'verification.expired']);
    const html = await renderVerify(token, { result: 'completed' });
    expect(html).toContain('Ce lien a expiré');
    expect(html).not.toContain('<form');
  });

  it('a used token changes nothing: the first outcome stands', async () => {
    const { id, token } = await createShared();
    await submit(completeVerificationAction, { token, method: 'passport', identifiedName: 'Jane' });
    expect(await submit(failVerificationAction, { token, reason: 'person_declined' })).toBe(`/sandbox/verify/${token}`);
    expect(await submit(completeVerificationAction, { token, method: 'bank_id', identifiedName: 'Someone Else' })).toBe(
      `/sandbox/verify/${token}`,
    );
    expect(await stored(id)).toMatchObject({
      status: 'completed',
      verificationMethod: 'passport',
      identifiedName: 'Jane',
      failedReason: null,
    });
    expect(await eventTypes(id)).toEqual(['verification.created', 'verification.completed']);
  });

  it('two outcomes submitted at once: one wins, the other is told the link is used', async () => {
    const { id, token } = await createShared();
    const [completed, failed] = await Promise.all([
      submit(completeVerificationAction, { token, method: 'id_card', identifiedName: 'Jane' }),
      submit(failVerificationAction, { token, reason: 'document_unreadable' }),
    ]);
    const results = [completed, failed].filter((to) => to.includes('?result='));
    expect(results).toHaveLength(1);
    expect((await stored(id)).status).toBe(results[0]!.endsWith('completed') ? 'completed' : 'failed');
    expect(await eventTypes(id)).toHaveLength(2);
  });

  it('nothing works while the sandbox is off', async () => {
    const { id, token } = await createShared();
    process.env.SANDBOX = 'off';
    expect(await submit(completeVerificationAction, { token, method: 'passport', identifiedName: 'Jane' })).toBe('404');
    expect(await submit(failVerificationAction, { token, reason: 'other' })).toBe('404');
    process.env.SANDBOX = 'on';
    expect((await stored(id)).status).toBe('pending');
  });
});

describe('the pending page', () => {
  it.each([
    [
      'en',
      'Verify your identity',
      'Complete with a passport',
      'Complete with a bank identity service<',
      'Document expired',
      'Legal obligations',
    ],
    [
      'fr',
      'Vérifiez votre identité',
      'Réussir avec un passeport',
      'Réussir avec un service d&#x27;identité bancaire<',
      'Document expiré',
      'Obligations légales',
    ],
    [
      'nl',
      'Bevestig uw identiteit',
      'Voltooien met een paspoort',
      'Voltooien met een bankidentiteitsdienst<',
      'Document verlopen',
      'Wettelijke verplichtingen',
    ],
  ])('in %s: who asks, why, and a labelled button per outcome', async (language, heading, passport, bank, expired, purpose) => {
    const { token } = await createShared({ name: 'Jane Doe', language, chosenPurpose: 'legal_obligations' });
    const html = await renderVerify(token);
    expect(html).toContain(`lang="${language}"`);
    expect(html).toContain(`<h1 class="text-2xl font-semibold text-gray-900">${heading}</h1>`);
    expect(html).toContain('Acme Bank');
    expect(html).toContain(purpose);
    expect(html).toContain(passport);
    expect(html).toContain(bank);
    // A raw code is not words for the person: "(bank_id)" is nowhere on the page.
    expect(html).not.toContain('(bank_id)');
    expect(html).toContain(expired);
    for (const method of ['passport', 'id_card', 'drivers_license', 'itsme', 'bank_id']) {
      expect(html).toContain(`value="${method}"`);
    }
    // The name field is labelled and holds the requested name; the token travels with each form.
    expect(html).toContain('<label for="identified-name"');
    expect(html).toMatch(/id="identified-name"[^>]*value="Jane Doe"/);
    expect(html.match(new RegExp(`name="token" value="${token}"`, 'g'))).toHaveLength(2);
    expect(html).toContain('<legend');
  });

  it('shows a custom purpose as typed', async () => {
    const { token } = await createShared({ chosenPurpose: 'Opening a savings account', language: 'nl' });
    expect(await renderVerify(token)).toContain('Opening a savings account');
  });

  it('a crafted result in the address does not claim an outcome that did not happen', async () => {
    const { token } = await createShared();
    for (const result of ['completed', 'failed']) {
      const state = await getPersonPageState(token, { query: { result } });
      expect(state.kind).toBe('pending');
    }
    const { id, token: other } = await createShared();
    await submit(failVerificationAction, { token: other, reason: 'other' });
    expect((await getPersonPageState(other, { query: { result: 'completed' } })).kind).toBe('closed');
    expect((await stored(id)).status).toBe('failed');
  });
});
