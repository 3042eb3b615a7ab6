// The register's export against a slow reader on PostgreSQL, at a size where reading ahead would
// show: the database is read no further than one batch ahead of what the reader has taken. There
// the database works beside the reader and could run ahead of it; the embedded store answers in
// the same process, and the stream is the same code on both, so this runs on PostgreSQL only.
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { getDb } from '@/lib/db';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { csvDownload } from './export-response';
import { EXPORT_BATCH_SIZE, registerCsvLayout, registerExportBatches } from './register-export';

// Ten batches: an export that read ahead would be caught several batches ahead of its reader.
const ROWS = 20_000;

afterAll(async () => {
  await closeDatabases();
});

describe.skipIf(!process.env.DATABASE_URL)('registerExportBatches through the CSV download', () => {
  it('streams 20,000 rows to a slow reader with the database read at most one batch ahead of what it took', async () => {
    resetEnv();
    const db = await getDb();
    await db.execute(sql`
      insert into verification_requests
        (verification_id, name, purpose, language, shareable_link, email_notification, sms_notification, status, created_at)
      select 'many-' || lpad(i::text, 6, '0'), 'Élodie Martin-Lefèvre ' || i, 'legal_obligations', 'fr', true, true, false, 'pending',
             timestamptz '2030-01-01T00:00:00Z' + i * interval '1 second'
      from generate_series(1, ${ROWS}) as i`);
    // Every batch the export reads from the database, as the count of its rows.
    const pulled: Promise<number>[] = [];
    const execute = db.execute.bind(db);
    const spy = vi.spyOn(db, 'execute').mockImplementation((query) => {
      const result = execute(query);
      pulled.push(
        Promise.resolve(result).then(
          (value) => {
            const rows = (value as { rows?: { cursorAt?: unknown }[] }).rows ?? [];
            return rows[0]?.cursorAt === undefined ? 0 : rows.length;
          },
          () => 0,
        ),
      );
      return result;
    });
    try {
      const { header, toCells } = await registerCsvLayout({ timeZone: 'UTC', values: 'words' });
      const response = csvDownload({
        name: 'verification-register',
        header,
        batches: registerExportBatches({}, { now: new Date() }),
        toCells,
        audit: { actorId: 'staff-1', action: 'register.exported', filters: {} },
      });
      const reader = response.body!.getReader();
      let lines = 0;
      let bytes = 0;
      let widest = 0;
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        bytes += read.value.byteLength;
        for (const byte of read.value) if (byte === 0x0a) lines += 1;
        // A slow reader: before taking more, let the export do all it would do on its own.
        await Promise.all(pulled);
        await new Promise((resolve) => setImmediate(resolve));
        const rowsPulled = (await Promise.all(pulled)).reduce((sum, rows) => sum + rows, 0);
        widest = Math.max(widest, rowsPulled - (lines - 1));
      }
      expect(lines).toBe(1 + ROWS);
      expect(bytes).toBeGreaterThan(1024 * 1024);
      // Ahead by the one batch being read while the reader holds the last: never more.
      expect(widest).toBe(EXPORT_BATCH_SIZE);
    } finally {
      spy.mockRestore();
    }
  }, 60_000);
});
