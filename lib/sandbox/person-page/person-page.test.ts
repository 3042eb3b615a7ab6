// The person's page (/sandbox/verify/<token>): what it shows for a valid, unknown, expired or
// closed link, in the request's language, rendered as static HTML. And the outbox endpoint.
import { eq } from 'drizzle-orm';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import VerifyPage from '@/app/(sandbox)/sandbox/verify/[token]/page';
import { GET as getOutbox } from '@/app/(sandbox)/v1/sandbox/outbox/route';
import { POST } from '@/app/(sandbox)/v1/verifications/new/route';
import { closeDatabases } from '@/lib/platform/database';
import type { SandboxDb } from '@/lib/sandbox/db';
import { verifications } from '@/lib/sandbox/schema';
import { createRequest, createTestCompany, type TestCompany, useInMemorySandbox, validBody } from '@/test/support/sandbox';
import { getPersonPageState } from './person-page';
import { purposeLabel } from './person-page-text';

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

/** Creates a request with a shareable link; returns its id and the token at the end of the link. */
async function createShared(overrides: Record<string, unknown> = {}): Promise<{ id: string; token: string }> {
  const response = await POST(createRequest(validBody({ shareableLink: true, ...overrides }), { apiKey: company.apiKey }), undefined);
  const body = (await response.json()) as { verificationId: string; link: string };
  return { id: body.verificationId, token: body.link.split('/sandbox/verify/')[1]! };
}

async function renderVerify(token: string): Promise<string> {
  return renderToStaticMarkup(await VerifyPage({ params: Promise.resolve({ token }) }));
}

describe('getPersonPageState', () => {
  it('shows who asks, for whom and why, for a pending request', async () => {
    const { token } = await createShared({ name: 'Jane Doe', chosenPurpose: 'ensuring_compliance', language: 'en' });
    expect(await getPersonPageState(token)).toEqual({
      kind: 'pending',
      language: 'en',
      companyName: 'Acme Bank',
      name: 'Jane Doe',
      purpose: 'Ensuring compliance',
      accessExpiresAt: expect.any(Date),
    });
  });

  it.each([
    ['legal_obligations', 'fr', 'Obligations légales'],
    ['processing_gdpr_request', 'nl', 'Behandeling van een AVG-verzoek'],
    ['processing_gdpr_request', 'en', 'Processing a GDPR request'],
    ['Opening a savings account', 'fr', 'Opening a savings account'],
    ['constructor', 'en', 'constructor'],
  ])('labels the purpose %j in %s as %j', (purpose, language, label) => {
    expect(purposeLabel(purpose, language as 'en' | 'fr' | 'nl')).toBe(label);
  });

  it.each([
    ['an unknown token', 'A'.repeat(43)],
    ['a token of the wrong shape', 'not-a-token'],
    ['an empty token', ''],
  ])('%s is invalid', async (_case, token) => {
    expect(await getPersonPageState(token)).toEqual({ kind: 'invalid' });
  });

  it('the verification id is not a token', async () => {
    const { id } = await createShared();
    expect(await getPersonPageState(id)).toEqual({ kind: 'invalid' });
  });

  it('is expired once access_expires_at has passed, and invalid once purged', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-07-01T09:00:00.000Z'));
    const { id, token } = await createShared({ language: 'nl' });
    const at = (iso: string) => getPersonPageState(token, { now: new Date(iso) });
    expect((await at('2026-07-01T09:59:59.999Z')).kind).toBe('pending');
    expect(await at('2026-07-01T10:00:00.000Z')).toEqual({ kind: 'expired', language: 'nl' });
    // Reading it made the expiry real, and moved kept_until to the expiry + 2 h of retention.
    const [row] = await db.select().from(verifications).where(eq(verifications.id, id));
    expect(row).toMatchObject({ status: 'expired', keptUntil: new Date('2026-07-01T12:00:00.000Z') });
    expect(await at('2026-07-01T11:59:59.999Z')).toEqual({ kind: 'expired', language: 'nl' });
    expect(await at('2026-07-01T12:00:00.000Z')).toEqual({ kind: 'invalid' });
  });

  it.each(['completed', 'failed', 'expired'])('a %s request is no longer usable', async (status) => {
    const { id, token } = await createShared({ language: 'fr' });
    await db.update(verifications).set({ status }).where(eq(verifications.id, id));
    expect(await getPersonPageState(token)).toEqual({ kind: status === 'expired' ? 'expired' : 'closed', language: 'fr' });
  });
});

describe('the page', () => {
  it('renders the request in its language, as text, and says it is the sandbox', async () => {
    const { token } = await createShared({
      name: '<script>alert(1)</script>',
      chosenPurpose: 'legal_obligations',
      language: 'fr',
    });
    const html = await renderVerify(token);
    expect(html).toContain('lang="fr"');
    expect(html).toContain('Vérifiez votre identité');
    expect(html).toContain('Acme Bank');
    expect(html).toContain('Obligations légales');
    expect(html).toContain('Bac à sable');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    // React's own form-replay <script> is there (the forms post to actions); the name is not code.
    expect(html).not.toContain('<script>alert(1)');
  });

  it('renders "This link is not valid" for an unknown token', async () => {
    const html = await renderVerify('B'.repeat(43));
    expect(html).toContain('This link is not valid');
    expect(html).not.toContain('Acme Bank');
  });

  it('renders the expired page', async () => {
    const { id, token } = await createShared({ language: 'en' });
    await db.update(verifications).set({ status: 'expired' }).where(eq(verifications.id, id));
    expect(await renderVerify(token)).toContain('This link has expired');
  });

  it('renders the closed page for a completed request', async () => {
    const { id, token } = await createShared({ language: 'nl' });
    await db.update(verifications).set({ status: 'completed' }).where(eq(verifications.id, id));
    expect(await renderVerify(token)).toContain('Deze verificatie is afgesloten');
  });

  it('is not found while the sandbox is off', async () => {
    const { token } = await createShared();
    process.env.SANDBOX = 'off';
    await expect(renderVerify(token)).rejects.toMatchObject({ digest: 'NEXT_HTTP_ERROR_FALLBACK;404' });
    expect((await getOutbox(outboxRequest(company.apiKey), undefined)).status).toBe(404);
  });
});

function outboxRequest(apiKey: string | null): Request {
  return new Request('http://localhost/v1/sandbox/outbox', { headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : {} });
}

describe('GET /v1/sandbox/outbox', () => {
  it("lists the company's own messages, newest first, and no other company's", async () => {
    const other = await createTestCompany(db, { name: 'Other Co' });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00.000Z'));
    await POST(createRequest(validBody({ email: 'first@example.com', language: 'nl' }), { apiKey: company.apiKey }), undefined);
    vi.setSystemTime(new Date('2030-01-01T00:00:01.000Z'));
    await POST(
      createRequest(validBody({ email: 'second@example.com', phonenumber: '+32470123456', smsNotification: true }), {
        apiKey: company.apiKey,
      }),
      undefined,
    );
    await POST(createRequest(validBody({ email: 'elsewhere@example.com' }), { apiKey: other.apiKey }), undefined);

    const response = await getOutbox(outboxRequest(company.apiKey), undefined);
    expect(response.status).toBe(200);
    const { messages } = (await response.json()) as {
      messages: { recipient: string; channel: string; language: string; link: string; createdAt: string }[];
    };
    const recipients = messages.map((m) => m.recipient);
    expect(recipients.indexOf('+32470123456')).toBeLessThan(recipients.indexOf('first@example.com'));
    expect(recipients.indexOf('second@example.com')).toBeLessThan(recipients.indexOf('first@example.com'));
    expect(recipients).not.toContain('elsewhere@example.com');
    const first = messages.find((m) => m.recipient === 'first@example.com')!;
    expect(first).toMatchObject({ channel: 'email', language: 'nl', createdAt: '2030-01-01T00:00:00.000Z' });
    expect(first.link).toMatch(/^http:\/\/localhost\/sandbox\/verify\/[A-Za-z0-9_-]{43}$/);
    expect(messages.find((m) => m.recipient === '+32470123456')?.channel).toBe('sms');
  });

  it('needs an API key', async () => {
    expect((await getOutbox(outboxRequest(null), undefined)).status).toBe(403);
    expect((await getOutbox(outboxRequest('vd_sk_wrong'), undefined)).status).toBe(403);
  });
});
