// The public keys that sign the audit chain's checkpoints and the evidence packs, as one PEM file
// for an auditor's verifier: the current key first, then every earlier one still needed for
// checkpoints signed before a rotation. Administrators only, as the audit page.
import { asc } from 'drizzle-orm';
import { groupedFingerprint } from '@/lib/audit/chain/keys';
import { getAuditSigningKey } from '@/lib/audit/chain/signing-key.server';
import { authorizedRoute } from '@/lib/auth/guards';
import { getDb } from '@/lib/db';
import { auditSigningKeys } from '@/lib/db/schema';

export const dynamic = 'force-dynamic';

export const GET = authorizedRoute('audit:read', async () => {
  const current = await getAuditSigningKey();
  const keys = await (await getDb()).select().from(auditSigningKeys).orderBy(asc(auditSigningKeys.firstUsedAt));
  const ordered = [
    keys.find((key) => key.fingerprint === current.fingerprint)!,
    ...keys.filter((key) => key.fingerprint !== current.fingerprint),
  ];
  // Text outside the PEM blocks is ignored by readers: it says which key is which.
  const text = ordered
    .map(
      (key, index) =>
        `${index === 0 ? 'Current key' : 'Earlier key'}, first used ${key.firstUsedAt.toISOString()}\nSHA-256 fingerprint: ${groupedFingerprint(key.fingerprint)}\n${key.publicKey.trim()}\n`,
    )
    .join('\n');
  return new Response(text, {
    headers: {
      'Content-Type': 'application/x-pem-file; charset=utf-8',
      'Content-Disposition': 'attachment; filename="verification-desk-audit-public-keys.pem"',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
});
