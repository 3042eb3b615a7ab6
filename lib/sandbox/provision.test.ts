// Zero-config provisioning across restarts, on a real data directory: one default company,
// a fresh start-up key each time, earlier start-up keys revoked, CLI keys left alone.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabases } from '@/lib/db/connection';
import { authenticateApiKey, issueApiKey } from './api-keys';
import { createCompany, listCompanies } from './companies';
import { getSandboxDb } from './db';
import { DEFAULT_COMPANY_NAME, provisionSandbox, STARTUP_KEY_LABEL } from './provision';
import { apiKeys } from './schema';

let dataDir: string;

beforeAll(async () => {
  await closeDatabases();
  dataDir = await mkdtemp(path.join(tmpdir(), 'sandbox-provision-'));
  process.env.DATA_DIR = dataDir;
  process.env.SANDBOX = 'on';
});

afterAll(async () => {
  await closeDatabases();
  await rm(dataDir, { recursive: true, force: true });
});

describe('provisionSandbox', () => {
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
