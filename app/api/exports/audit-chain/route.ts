// The whole audit trail as a hash chain in JSON Lines, for an auditor's offline verifier
// (`npm run audit -- verify`, docs/audit-chain.md), for administrators only, as the audit page.
// Unfiltered: only a chain without gaps can be verified. Audited when the stream ends, with the
// count of entries that went out.
import { authorizedRoute } from '@/lib/auth/guards';
import { auditChainExportBatches, entryCount, jsonLines } from '@/lib/export/audit-chain-export';
import { batchStream } from '@/lib/export/csv-stream';
import { attachment, auditExportEnd } from '@/lib/export/export-response';

export const dynamic = 'force-dynamic';

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
    onEnd: ({ complete }) => auditExportEnd({ actorId: staff.id, action: 'audit.chain_exported', filters: {} }, entries, complete),
  });
  return attachment(body, {
    contentType: 'application/x-ndjson; charset=utf-8',
    filename: `audit-chain-${now.toISOString().slice(0, 10)}.jsonl`,
  });
});
