// Test support for e2e/crash-restart.spec.ts, run once the server has stopped (PGlite admits one
// process): what the dashboard's register and audit trail hold, read from the data directory, so
// that "every acknowledged create is still there" is checked on what was stored.
//   DATA_DIR=… tsx --conditions=react-server e2e/support/register-report.ts
// Prints one JSON line: { register: [{ verificationId, name }], created: [verificationId] }.
import 'server-only';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db';
import { auditEntries, verificationRequests } from '@/lib/db/schema';
import { closeDatabases } from '@/lib/platform/database';

const db = await getDb({ waitForLockMs: 20_000 });
const register = await db
  .select({ verificationId: verificationRequests.verificationId, name: verificationRequests.name })
  .from(verificationRequests);
const created = await db
  .select({ verificationId: auditEntries.targetId })
  .from(auditEntries)
  .where(eq(auditEntries.action, 'verification.created'));
await closeDatabases();
console.log(JSON.stringify({ register, created: created.map((row) => row.verificationId) }));
process.exit(0);
