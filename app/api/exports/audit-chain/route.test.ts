// The audit chain's JSON Lines export through its route: real sessions, the real handler, the
// chain on a real database (PGlite, and PostgreSQL in the postgres project). Administrators only;
// the file the offline verifier reads; the download audited with its count of entries.
import { createPublicKey } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signCheckpointAtHead } from '@/lib/audit/chain/checkpoints.server';
import { publicKeysFromPem } from '@/lib/audit/chain/keys';
import { getAuditSigningKey } from '@/lib/audit/chain/signing-key.server';
import { verifyExportLines } from '@/lib/audit/chain/verify-export';
import { getDb } from '@/lib/db';
import { auditEntries } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { createStaff } from '@/lib/staff/staff-accounts';
import { sessionCookie } from '@/test/support/session-cookie';
import { GET as publicKeys } from '../../audit/public-keys/route';
import { GET } from './route';

const PASSWORD = 'correct horse battery staple';
const cookies = { admin: '', operator: '' };

const get = (handler: typeof GET, path: string, cookie?: string) =>
  handler(new Request(`http://localhost:3000${path}`, { headers: cookie ? { cookie } : undefined }), { params: Promise.resolve({}) });

async function* linesOf(text: string) {
  for (const line of text.split('\n')) yield line;
}

beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  process.env.APP_URL = 'http://localhost:3000';
  process.env.BETTER_AUTH_SECRET = 'test-secret-for-the-export-routes-0123456789';
  resetEnv();
  const adaId = await createStaff(null, { name: 'Ada Admin', email: 'ada@example.com', role: 'admin', password: PASSWORD });
  await createStaff(adaId, { name: 'Otto Operator', email: 'otto@example.com', role: 'operator', password: PASSWORD });
  cookies.admin = await sessionCookie('ada@example.com', PASSWORD);
  cookies.operator = await sessionCookie('otto@example.com', PASSWORD);
}, 120_000);

afterAll(async () => {
  await closeDatabases();
});

describe('GET /api/exports/audit-chain and /api/audit/public-keys', () => {
  it('give an administrator the whole chain as JSON Lines and the keys as PEM, which verify it offline; the export is audited', async () => {
    await signCheckpointAtHead();
    const response = await get(GET, '/api/exports/audit-chain', cookies.admin);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="audit-chain-\d{4}-\d{2}-\d{2}\.jsonl"$/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const text = await response.text();
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({ type: 'export', format: 'verification-desk-audit/1' });
    const entries = lines.filter((line) => line.type === 'entry');
    expect(entries.length).toBeGreaterThan(0);

    const pem = await get(publicKeys, '/api/audit/public-keys', cookies.admin);
    expect(pem.status).toBe(200);
    const pemText = await pem.text();
    expect(pemText).toContain(`Current key`);
    expect(
      createPublicKey((await getAuditSigningKey()).publicKeyPem)
        .export({ type: 'spki', format: 'pem' })
        .toString()
        .trim(),
    ).toBe(pemText.match(/-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/)![0]);
    const verdict = await verifyExportLines(linesOf(text), publicKeysFromPem(pemText));
    expect(verdict).toMatchObject({ intact: true, entries: entries.length });

    const [audited] = await (await getDb()).select().from(auditEntries).where(eq(auditEntries.action, 'audit.chain_exported'));
    expect(audited).toMatchObject({ details: { rows: entries.length, complete: true } });
  });

  it('refuse anyone but an administrator', async () => {
    expect((await get(GET, '/api/exports/audit-chain')).status).toBe(401);
    expect((await get(GET, '/api/exports/audit-chain', cookies.operator)).status).toBe(403);
    expect((await get(publicKeys, '/api/audit/public-keys', cookies.operator)).status).toBe(403);
  });
});
