// The whole audit trail as a hash chain in JSON Lines, for an auditor's offline verifier
// (`npm run audit -- verify`, docs/audit-chain.md), for administrators only, as the audit page.
// Unfiltered: only a chain without gaps can be verified. Audited when the stream ends, with the
// count of entries that went out.
import { recordAudit } from '@/lib/audit/audit';
import { authorizedRoute } from '@/lib/auth/guards';
import { auditChainExportBatches, entryCount, jsonLines } from '@/lib/export/audit-chain-export';
import { batchStream } from '@/lib/export/csv-stream';
import { logger } from '@/lib/platform/log';

export const dynamic = 'force-dynamic';

const log = logger.child({ area: 'export' });

export const GET = authorizedRoute('audit:read', async (_request, staff) => {
  const now = new Date();
  let entries = 0;
  const body = batchStream<unknown>({
    head: '',
    batches: auditChainExportBatches(now),
    toText: (batch) => {
      entries += entryCount(batch);
      return jsonLines(batch);
    },
    onEnd: async ({ complete }) => {
      try {
        await recordAudit({ actorId: staff.id, action: 'audit.chain_exported', details: { rows: entries, complete } });
      } catch (error) {
        log.error({ err: error, rows: entries }, 'recording an audit chain export in the audit trail failed');
      }
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      'Content-Type': 'application/x-ndjson; charset=utf-8',
      'Content-Disposition': `attachment; filename="audit-chain-${now.toISOString().slice(0, 10)}.jsonl"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
});
