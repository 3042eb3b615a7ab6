// Zero-config provisioning across restarts, on a real data directory: one default company,
// a fresh start-up key each time, earlier start-up keys revoked, CLI keys left alone; and a
// fresh default webhook endpoint (new secret) each time, endpoints added by hand left alone.

import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabases } from '@/lib/platform/database';
import { getSandboxDb } from '@/lib/sandbox/db';
import { apiKeys } from '@/lib/sandbox/schema';
import { deliverDueWebhooks } from '@/lib/sandbox/webhook-sender/delivery-pass';
import { addWebhookEndpoint, listWebhookEndpoints } from '@/lib/sandbox/webhook-sender/endpoints';
import { enqueueVerificationEvent } from '@/lib/sandbox/webhook-sender/enqueue';
import { startTestReceiver } from '@/lib/sandbox/webhook-sender/test-receiver';
import { seedDataDir } from '@/test/support/seeded-data-dir';
import { authenticateApiKey, issueApiKey } from './api-keys';
import { createCompany, listCompanies } from './companies';
import { DEFAULT_COMPANY_NAME, provisionSandbox, STARTUP_KEY_LABEL } from './provision';

let dataDir: string;

beforeAll(async () => {
  await closeDatabases();
  dataDir = await mkdtemp(path.join(tmpdir(), 'sandbox-provision-'));
  // A database already there (migrated, no company yet): the starts are under test, not creating one.
  await seedDataDir(dataDir);
  process.env.DATA_DIR = dataDir;
  process.env.SANDBOX = 'on';
});

afterAll(async () => {
  await closeDatabases();
  await rm(dataDir, { recursive: true, force: true });
});

// Each test starts the sandbox three times on a real data directory, each start reopening the
// database on disk: a budget of several ordinary tests.
const RESTARTS_BUDGET_MS = 60_000;

describe('provisionSandbox', { timeout: RESTARTS_BUDGET_MS }, () => {
  it('creates the default company once and rotates only the start-up key on every start', async () => {
    // First start.
    const first = await provisionSandbox();
    expect(first.apiKey).toMatch(/^vd_sk_[A-Za-z0-9_-]{43}$/);
    let db = await getSandboxDb();
    const otherCompany = await createCompany(db, { name: 'Unrelated' });
    const otherKey = await issueApiKey(db, { companyId: otherCompany.id, label: STARTUP_KEY_LABEL });
    const cliKey = await issueApiKey(db, { companyId: first.companyId, label: 'cli (key:create)' });
    expect(await authenticateApiKey(db, `Bearer ${first.apiKey}`)).toMatchObject({ ok: true, companyId: first.companyId });

    // Within one process, every caller gets the same answer.
    expect(await Promise.all([provisionSandbox(), provisionSandbox()])).toEqual([first, first]);

    // Restart.
    await closeDatabases();
    const second = await provisionSandbox();
    db = await getSandboxDb();
    expect(second.companyId).toBe(first.companyId);
    expect(second.apiKey).not.toBe(first.apiKey);
    expect(await authenticateApiKey(db, `Bearer ${second.apiKey}`)).toMatchObject({ ok: true, companyId: first.companyId });
    expect(await authenticateApiKey(db, `Bearer ${first.apiKey}`)).toEqual({ ok: false, error: 'This API key has been revoked' });
    expect(await authenticateApiKey(db, `Bearer ${cliKey.apiKey}`)).toMatchObject({ ok: true });
    // Another company's keys are never touched, whatever their label.
    expect(await authenticateApiKey(db, `Bearer ${otherKey.apiKey}`)).toMatchObject({ ok: true });

    // A third start, to be sure revocation keeps exactly one live start-up key.
    await closeDatabases();
    const third = await provisionSandbox();
    db = await getSandboxDb();
    const live = await db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(and(eq(apiKeys.companyId, first.companyId), eq(apiKeys.label, STARTUP_KEY_LABEL), isNull(apiKeys.revokedAt)));
    expect(live).toHaveLength(1);
    expect(await authenticateApiKey(db, `Bearer ${third.apiKey}`)).toMatchObject({ ok: true });
    expect(await authenticateApiKey(db, `Bearer ${second.apiKey}`)).toMatchObject({ ok: false });

    const companies = await listCompanies(db);
    expect(companies.filter((c) => c.isDefault)).toEqual([
      expect.objectContaining({
        id: first.companyId,
        name: DEFAULT_COMPANY_NAME,
        tokenValiditySeconds: 7 * 86_400,
        verificationRetentionSeconds: 30 * 86_400,
        auditLogRetentionSeconds: 90 * 86_400,
      }),
    ]);
    expect(companies).toHaveLength(2);
  });
});

describe('provisionSandbox with a webhook URL', { timeout: RESTARTS_BUDGET_MS }, () => {
  it('points the default company at the URL with a new secret on every start, keeping queued events', async () => {
    const receiver = await startTestReceiver();
    try {
      await closeDatabases();
      const first = await provisionSandbox({ webhookUrl: receiver.url });
      expect(first.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      let db = await getSandboxDb();
      const handMade = await addWebhookEndpoint(db, { companyId: first.companyId, url: 'https://hand.example.com/hooks' });
      let endpoints = await listWebhookEndpoints(db, first.companyId);
      expect(endpoints.filter((e) => e.disabledAt === null).map((e) => [e.url, e.isDefault])).toEqual([
        [receiver.url, true],
        ['https://hand.example.com/hooks', false],
      ]);

      // An event queued just before the server stops, not yet sent.
      const { messageId } = await db.transaction((tx) =>
        enqueueVerificationEvent(tx, {
          companyId: first.companyId,
          verificationId: randomUUID(),
          type: 'verification.completed',
          status: 'completed',
        }),
      );

      await closeDatabases();
      const second = await provisionSandbox({ webhookUrl: receiver.url });
      expect(second.companyId).toBe(first.companyId);
      expect(second.webhookSecret).toMatch(/^whsec_/);
      expect(second.webhookSecret).not.toBe(first.webhookSecret);
      db = await getSandboxDb();
      endpoints = await listWebhookEndpoints(db, first.companyId);
      const active = endpoints.filter((e) => e.disabledAt === null);
      expect(active.map((e) => [e.url, e.isDefault])).toEqual([
        ['https://hand.example.com/hooks', false],
        [receiver.url, true],
      ]);
      expect(active.map((e) => e.id)).toContain(handMade.id);
      expect(endpoints).toHaveLength(3);

      // The queued event reaches the receiver signed with the new secret, which the old one no longer verifies.
      receiver.setSecret(second.webhookSecret!);
      await deliverDueWebhooks(db);
      const hits = receiver.hits.filter((hit) => hit.headers['webhook-id'] === messageId);
      expect(hits).toHaveLength(1);
      expect(hits[0]!.verified).toBe(true);
      const headers = {
        'webhook-id': messageId,
        'webhook-timestamp': String(hits[0]!.headers['webhook-timestamp']),
        'webhook-signature': String(hits[0]!.headers['webhook-signature']),
      };
      expect(() => new Webhook(first.webhookSecret!).verify(hits[0]!.body, headers)).toThrow();

      // Without a URL, start-up leaves the endpoints as they are.
      await closeDatabases();
      const third = await provisionSandbox();
      expect(third.webhookSecret).toBeUndefined();
      db = await getSandboxDb();
      expect(await listWebhookEndpoints(db, first.companyId)).toEqual(endpoints);
    } finally {
      await receiver.close();
    }
  });
});
