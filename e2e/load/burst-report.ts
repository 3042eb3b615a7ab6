// Test support for `npm run test:load`, run after the server has stopped (PGlite admits one
// process): reads what the webhook burst left in the data directory, so that "each change applied
// exactly once" is checked on what was stored, not only on what the receiver answered.
//   DATA_DIR=… tsx --conditions=react-server e2e/load/burst-report.ts '<json input>'
// Input: { prefix, from, to, targets: string[], registered: string[] }. Prints one JSON line.
import 'server-only';
import { and, eq, gte, inArray, like, lte } from 'drizzle-orm';
import { getDb } from '@/lib/db';
import { auditEntries, verificationRequests, webhookReceipts } from '@/lib/db/schema';
import { closeDatabases } from '@/lib/platform/database';
import { getSandboxDb } from '@/lib/sandbox/db';
import { apiAuditLog } from '@/lib/sandbox/schema';

type Input = { prefix: string; from: string; to: string; targets: string[]; registered: string[] };

const input = JSON.parse(process.argv[2] ?? '{}') as Input;
// The server has just been stopped; its lock may take a moment to go.
const db = await getDb({ waitForLockMs: 20_000 });
const sandboxDb = await getSandboxDb({ waitForLockMs: 20_000 });

const receipts = await db
  .select({ webhookId: webhookReceipts.webhookId, verificationId: webhookReceipts.verificationId })
  .from(webhookReceipts)
  .where(like(webhookReceipts.webhookId, `${input.prefix}%`));

const statusChanges = await db
  .select({ targetId: auditEntries.targetId, details: auditEntries.details })
  .from(auditEntries)
  .where(and(eq(auditEntries.action, 'verification.status_changed'), inArray(auditEntries.targetId, input.registered)));

const register = await db
  .select({ verificationId: verificationRequests.verificationId, status: verificationRequests.status })
  .from(verificationRequests);

// The dashboard's re-reads during the burst, as the service logged them. Nothing else reads
// these records in that window: the load's own reads ended phases earlier, and the sandbox has
// no webhook endpoint in this run, so it sends no deliveries of its own.
const reads = await sandboxDb
  .select({ path: apiAuditLog.path })
  .from(apiAuditLog)
  .where(and(eq(apiAuditLog.method, 'GET'), gte(apiAuditLog.at, new Date(input.from)), lte(apiAuditLog.at, new Date(input.to))));
const targets = new Set(input.targets);
const readsById: Record<string, number> = {};
for (const { path } of reads) {
  const id = path.replace(/^\/v1\/verifications\//, '');
  if (targets.has(id)) readsById[id] = (readsById[id] ?? 0) + 1;
}

await closeDatabases();
console.log(JSON.stringify({ receipts, statusChanges, register, readsById, readsInWindow: reads.length }));
process.exit(0);
