// Webhook endpoints: the secret's format, which addresses are accepted, listing without
// secrets, and replacing the default endpoint without losing what was queued for it.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SandboxDb } from '@/lib/sandbox/db';
import { webhookDeliveries, webhookEndpoints } from '@/lib/sandbox/schema';
import { createTestCompany, useInMemorySandbox } from '@/test/support/sandbox';
import {
  addWebhookEndpoint,
  disableWebhookEndpoint,
  generateWebhookSecret,
  InvalidWebhookEndpointError,
  listWebhookEndpoints,
  parseEndpointUrl,
  replaceDefaultWebhookEndpoint,
} from './endpoints';
import { enqueueVerificationEvent } from './enqueue';

let db: SandboxDb;

beforeAll(async () => {
  db = await useInMemorySandbox();
});

describe('generateWebhookSecret', () => {
  it('is whsec_ and the base64 of 32 random bytes, different every time', () => {
    const secrets = new Set(Array.from({ length: 20 }, generateWebhookSecret));
    expect(secrets.size).toBe(20);
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    }
  });
});

describe('parseEndpointUrl', () => {
  it('accepts http and https addresses and drops a fragment', () => {
    expect(parseEndpointUrl(' https://example.com/hooks?x=1 ')).toBe('https://example.com/hooks?x=1');
    expect(parseEndpointUrl('http://127.0.0.1:3000/api/webhooks/verification-service#frag')).toBe(
      'http://127.0.0.1:3000/api/webhooks/verification-service',
    );
  });

  it.each([
    ['', 'absolute http(s) URL'],
    ['/relative/path', 'absolute http(s) URL'],
    ['example.com/hooks', 'absolute http(s) URL'],
    ['ftp://example.com/hooks', 'http or https'],
    ['javascript:alert(1)', 'http or https'],
    ['file:///etc/passwd', 'http or https'],
    ['https://user:pass@example.com/hooks', 'user name or password'],
    [`https://example.com/${'a'.repeat(2_000)}`, 'at most 2000 characters'],
  ])('refuses %j', (url, message) => {
    expect(() => parseEndpointUrl(url)).toThrow(InvalidWebhookEndpointError);
    expect(() => parseEndpointUrl(url)).toThrow(message);
  });
});

describe('endpoints', () => {
  it('adds, lists (without secrets) and disables a company’s endpoints', async () => {
    const { companyId } = await createTestCompany(db);
    const { companyId: other } = await createTestCompany(db);
    const first = await addWebhookEndpoint(db, { companyId, url: 'https://a.example.com/hooks' });
    const second = await addWebhookEndpoint(db, { companyId, url: 'https://b.example.com/hooks' });
    await addWebhookEndpoint(db, { companyId: other, url: 'https://other.example.com/hooks' });
    expect(first.secret).not.toBe(second.secret);
    await expect(addWebhookEndpoint(db, { companyId, url: 'mailto:x@example.com' })).rejects.toThrow(InvalidWebhookEndpointError);

    expect(await disableWebhookEndpoint(db, { endpointId: second.id })).toBe(true);
    expect(await disableWebhookEndpoint(db, { endpointId: randomUUID() })).toBe(false);

    const listed = await listWebhookEndpoints(db, companyId);
    expect(listed).toEqual([
      { id: first.id, companyId, url: 'https://a.example.com/hooks', isDefault: false, createdAt: expect.any(Date), disabledAt: null },
      {
        id: second.id,
        companyId,
        url: 'https://b.example.com/hooks',
        isDefault: false,
        createdAt: expect.any(Date),
        disabledAt: expect.any(Date),
      },
    ]);
    expect(JSON.stringify(listed)).not.toContain('whsec_');
  });

  it('replacing the default endpoint moves what was still queued to the new one, and leaves others alone', async () => {
    const { companyId } = await createTestCompany(db);
    const now = new Date('2030-01-01T00:00:00Z');
    const old = await db.transaction((tx) => replaceDefaultWebhookEndpoint(tx, { companyId, url: 'http://127.0.0.1:3000/hook', now }));
    const extra = await addWebhookEndpoint(db, { companyId, url: 'https://extra.example.com/hooks' });
    await db.transaction((tx) =>
      enqueueVerificationEvent(tx, { companyId, verificationId: randomUUID(), type: 'verification.created', status: 'pending', now }),
    );
    // The one for the old default has failed once and waits, as it would across a restart.
    await db
      .update(webhookDeliveries)
      .set({ attempts: 1, nextAttemptAt: new Date('2030-01-01T00:10:00Z'), lockedUntil: new Date('2030-01-01T00:01:00Z') })
      .where(eq(webhookDeliveries.endpointId, old.id));

    const restart = new Date('2030-01-01T00:05:00Z');
    const fresh = await db.transaction((tx) =>
      replaceDefaultWebhookEndpoint(tx, { companyId, url: 'http://127.0.0.1:4000/hook', now: restart }),
    );
    expect(fresh.secret).not.toBe(old.secret);

    const endpoints = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.companyId, companyId));
    const byId = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint]));
    expect(byId.get(old.id)).toMatchObject({ isDefault: false, disabledAt: restart });
    expect(byId.get(fresh.id)).toMatchObject({
      isDefault: true,
      disabledAt: null,
      url: 'http://127.0.0.1:4000/hook',
      secret: fresh.secret,
    });
    expect(byId.get(extra.id)).toMatchObject({ isDefault: false, disabledAt: null });

    const deliveries = await db.select().from(webhookDeliveries);
    const moved = deliveries.filter((delivery) => delivery.endpointId === fresh.id);
    expect(moved).toEqual([expect.objectContaining({ status: 'pending', attempts: 1, nextAttemptAt: restart, lockedUntil: null })]);
    expect(deliveries.filter((delivery) => delivery.endpointId === old.id)).toEqual([]);
    expect(deliveries.filter((delivery) => delivery.endpointId === extra.id)).toHaveLength(1);
  });
});
