// The register's CSV export end to end: real better-auth sessions, the real route handler called
// with a Request, the register on a real database (PGlite, and PostgreSQL in the postgres
// project). The file is read back as a spreadsheet would, and the stream chunk by chunk.
import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { auditEntries, nameReviews, verificationRequests } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { EXPORT_BATCH_SIZE } from '@/lib/export/register-export';
import { closeDatabases } from '@/lib/platform/database';
import { createStaff } from '@/lib/staff/staff-accounts';
import { answerInLanguage } from '@/test/support/next-intl-server';
import { parseCsv } from '@/test/support/parse-csv';
import { sessionCookie } from '@/test/support/session-cookie';
import { GET } from './route';

const PASSWORD = 'correct horse battery staple';
// The English header (docs/exports.md), times in UTC: these requests carry no zone cookie.
const REGISTER_CSV_HEADER = [
  'Verification id',
  'Created at (UTC)',
  'Created by (staff id)',
  'Created by (name)',
  'Requested name',
  'Purpose',
  'Language',
  'Channels',
  'Status',
  'Identified name',
  'Link expires at (UTC)',
  'Purged after (UTC)',
  'Names differ',
  'Review decision',
  'Reviewed at (UTC)',
  'Reviewed by (name)',
  'Completed at (UTC)',
  'Method',
  'Failure reason',
  'Assigned to (staff id)',
  'Assigned to (name)',
];
const DAY = 24 * 60 * 60 * 1000;
let adaId: string;
let vicId: string;
let ada: string;
let vic: string;

function exportRegister(query: string, cookie?: string) {
  const headers = cookie ? { cookie } : undefined;
  return GET(new Request(`http://localhost:3000/api/exports/register${query}`, { headers }), { params: Promise.resolve({}) });
}

async function lastExportAudit() {
  const db = await getDb();
  const [entry] = await db
    .select()
    .from(auditEntries)
    .where(eq(auditEntries.action, 'register.exported'))
    .orderBy(desc(auditEntries.at), desc(auditEntries.id))
    .limit(1);
  return entry;
}

type Row = typeof verificationRequests.$inferInsert;
const row = (id: string, overrides: Partial<Row> = {}): Row => ({
  verificationId: id,
  name: `Person ${id}`,
  purpose: 'legal_obligations',
  language: 'en',
  shareableLink: true,
  emailNotification: false,
  smsNotification: false,
  status: 'pending',
  createdBy: adaId,
  createdAt: new Date('2030-06-15T12:00:00.000Z'),
  accessExpiresAt: new Date(Date.now() + 7 * DAY),
  keptUntil: new Date('2030-07-15T12:00:00.000Z'),
  ...overrides,
});

// Accounts and sign-ins hash passwords (scrypt): slow on a busy machine, hence the hook's budget.
beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  process.env.APP_URL = 'http://localhost:3000';
  process.env.BETTER_AUTH_SECRET = 'test-secret-for-the-export-routes-0123456789';
  resetEnv();
  adaId = await createStaff(null, { name: 'Ada Admin', email: 'ada@example.com', role: 'admin', password: PASSWORD });
  vicId = await createStaff(adaId, { name: 'Vic Viewer', email: 'vic@example.com', role: 'viewer', password: PASSWORD });
  [ada, vic] = [await sessionCookie('ada@example.com', PASSWORD), await sessionCookie('vic@example.com', PASSWORD)];
}, 120_000);

beforeEach(async () => {
  const db = await getDb();
  await db.delete(verificationRequests);
  await db.delete(auditEntries).where(eq(auditEntries.action, 'register.exported'));
});

afterAll(async () => {
  await closeDatabases();
});

describe('GET /api/exports/register', () => {
  it('downloads the filtered register as UTF-8 CSV with a BOM, a dated name, no caching, accents intact and formulas neutralised', async () => {
    const db = await getDb();
    await db.insert(verificationRequests).values([
      row('done-1', {
        name: 'Élodie Martin',
        status: 'completed',
        identifiedName: '=HYPERLINK("http://evil.example")',
        purpose: '+custom, "quoted" purpose',
        emailNotification: true,
        smsNotification: true,
        language: 'fr',
        createdAt: new Date('2030-06-15T12:00:00.000Z'),
      }),
      row('done-2', {
        name: '@SUM(A1)',
        status: 'completed',
        identifiedName: 'Søren Kierkegaard',
        createdAt: new Date('2030-06-14T08:30:00.000Z'),
      }),
      row('still-pending', { name: 'Pending Person' }),
    ]);

    const response = await exportRegister('?status=completed', vic);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="verification-register-${new Date().toISOString().slice(0, 10)}.csv"`,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');

    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    expect(text).toContain('Élodie Martin');
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual([...REGISTER_CSV_HEADER]);
    expect(rows).toEqual([
      [
        'done-1',
        '2030-06-15T12:00:00.000Z',
        adaId,
        'Ada Admin',
        'Élodie Martin',
        `'+custom, "quoted" purpose`,
        'French',
        'Link, E-mail, SMS',
        'Completed',
        `'=HYPERLINK("http://evil.example")`,
        expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        '2030-07-15T12:00:00.000Z',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
      ],
      [
        'done-2',
        '2030-06-14T08:30:00.000Z',
        adaId,
        'Ada Admin',
        "'@SUM(A1)",
        'Legal obligation',
        'English',
        'Link',
        'Completed',
        'Søren Kierkegaard',
        expect.any(String),
        '2030-07-15T12:00:00.000Z',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
      ],
    ]);
  });

  it('says for each completed request whether the names differ, what staff decided and who, never the note', async () => {
    const db = await getDb();
    await db.insert(verificationRequests).values([
      row('decided', { status: 'completed', name: 'Jane Doe', identifiedName: 'John Doe', nameMismatch: true }),
      row('waiting', {
        status: 'completed',
        name: 'Ann Lee',
        identifiedName: 'Bob Lee',
        nameMismatch: true,
        createdAt: new Date('2030-06-14T00:00:00Z'),
      }),
      row('matching', {
        status: 'completed',
        name: 'Kim Park',
        identifiedName: 'KIM PARK',
        nameMismatch: false,
        createdAt: new Date('2030-06-13T00:00:00Z'),
      }),
    ]);
    await db.insert(nameReviews).values({
      verificationId: 'decided',
      decision: 'different_person',
      note: 'Secret reasoning about Jane',
      decidedBy: adaId,
      decidedAt: new Date('2030-06-16T09:15:00.000Z'),
    });
    const response = await exportRegister('', ada);
    const text = await response.text();
    const [, ...rows] = parseCsv(text);
    expect(rows.map((cells) => [cells[0], ...cells.slice(12, 16)])).toEqual([
      ['decided', 'yes', 'Not the same person', '2030-06-16T09:15:00.000Z', 'Ada Admin'],
      ['waiting', 'yes', '', '', ''],
      ['matching', 'no', '', '', ''],
    ]);
    expect(text).not.toContain('Secret reasoning');
  });

  it('says "Purged" for a request past its kept_until, as the register\'s page does, in words and as the code', async () => {
    const db = await getDb();
    await db
      .insert(verificationRequests)
      .values([
        row('gone', { status: 'completed', keptUntil: new Date(Date.now() - DAY), createdAt: new Date('2030-06-15T12:00:00Z') }),
        row('kept', { status: 'completed', keptUntil: new Date(Date.now() + DAY), createdAt: new Date('2030-06-14T12:00:00Z') }),
        row('undated', { status: 'pending', keptUntil: null, createdAt: new Date('2030-06-13T12:00:00Z') }),
      ]);
    const [, ...rows] = parseCsv(await (await exportRegister('', ada)).text());
    expect(rows.map((cells) => [cells[0], cells[8]])).toEqual([
      ['gone', 'Purged'],
      ['kept', 'Completed'],
      ['undated', 'Pending'],
    ]);
    const [, ...codes] = parseCsv(await (await exportRegister('?values=codes', ada)).text());
    expect(codes.map((cells) => cells[8])).toEqual(['purged', 'completed', 'pending']);
  });

  it('applies every filter of the register page: search, created by, dates, purpose and views', async () => {
    const db = await getDb();
    const now = Date.now();
    await db
      .insert(verificationRequests)
      .values([
        row('a-1', { name: 'Élodie Martin', createdAt: new Date('2030-06-10T10:00:00Z') }),
        row('b-1', { name: 'Bob Stone', createdBy: vicId, createdAt: new Date('2030-06-11T10:00:00Z'), purpose: 'ensuring_compliance' }),
        row('c-1', { name: 'Carla Soon', createdAt: new Date(now - 6 * DAY), accessExpiresAt: new Date(now + 2 * 60 * 60 * 1000) }),
      ]);
    const idsOf = async (query: string, cookie = ada) => {
      const response = await exportRegister(query, cookie);
      expect(response.status, query).toBe(200);
      return parseCsv(await response.text())
        .slice(1)
        .map((cells) => cells[0]);
    };
    expect(await idsOf('')).toEqual(['b-1', 'a-1', 'c-1']);
    expect(await idsOf('?q=Martin')).toEqual(['a-1']);
    expect(await idsOf('?q=b-')).toEqual(['b-1']);
    expect(await idsOf(`?createdBy=${vicId}`)).toEqual(['b-1']);
    expect(await idsOf('?createdBy=mine', vic)).toEqual(['b-1']);
    expect(await idsOf('?from=2030-06-11&to=2030-06-11')).toEqual(['b-1']);
    expect(await idsOf('?purpose=ensuring_compliance')).toEqual(['b-1']);
    expect(await idsOf('?view=expiring')).toEqual(['c-1']);
    expect(await idsOf('?status=failed')).toEqual([]);
  });

  it('applies the assignee filter (mine, unassigned, a colleague) and names the assignee in the last two columns', async () => {
    const db = await getDb();
    await db
      .insert(verificationRequests)
      .values([
        row('to-vic', { assignedTo: vicId, assignedAt: new Date(), createdAt: new Date('2030-06-12T10:00:00Z') }),
        row('to-ada', { assignedTo: adaId, assignedAt: new Date(), createdAt: new Date('2030-06-11T10:00:00Z') }),
        row('free', { createdAt: new Date('2030-06-10T10:00:00Z') }),
      ]);
    const rowsOf = async (query: string, cookie = ada) => {
      const response = await exportRegister(query, cookie);
      expect(response.status, query).toBe(200);
      return parseCsv(await response.text())
        .slice(1)
        .map((cells) => [cells[0], ...cells.slice(19)]);
    };
    expect(await rowsOf('')).toEqual([
      ['to-vic', vicId, 'Vic Viewer'],
      ['to-ada', adaId, 'Ada Admin'],
      ['free', '', ''],
    ]);
    expect(await rowsOf('?assignee=mine')).toEqual([['to-ada', adaId, 'Ada Admin']]);
    expect(await rowsOf('?assignee=mine', vic)).toEqual([['to-vic', vicId, 'Vic Viewer']]);
    expect(await rowsOf('?assignee=unassigned')).toEqual([['free', '', '']]);
    expect(await rowsOf(`?assignee=${vicId}`)).toEqual([['to-vic', vicId, 'Vic Viewer']]);
    expect((await lastExportAudit())?.details).toMatchObject({ assignee: vicId });
  });

  it('reads the dates as whole days in the zone the browser reported, as the page does, and audits the zone', async () => {
    const db = await getDb();
    await db.insert(verificationRequests).values([
      // 23:30 on 14 June in New York, already the 15th in UTC.
      row('ny-evening', { createdAt: new Date('2030-06-15T03:30:00.000Z') }),
      row('ny-morning', { createdAt: new Date('2030-06-15T12:00:00.000Z') }),
    ]);
    const idsOf = async (cookie: string) =>
      parseCsv(await (await exportRegister('?from=2030-06-14&to=2030-06-14', cookie)).text())
        .slice(1)
        .map((cells) => cells[0]);
    expect(await idsOf(ada)).toEqual([]);
    expect(await idsOf(`${ada}; vd-time-zone=America/New_York`)).toEqual(['ny-evening']);
    expect((await lastExportAudit())?.details).toMatchObject({ from: '2030-06-14', to: '2030-06-14', timeZone: 'America/New_York' });
    // Anything but a zone name is ignored: the days are UTC's.
    expect(await idsOf(`${ada}; vd-time-zone=%3Cscript%3E`)).toEqual([]);
  });

  describe('for a French-speaking exporter', () => {
    afterEach(() => answerInLanguage('en'));

    /** The file's records split on `delimiter` (these cells hold no quotes or separators). */
    const recordsOf = (text: string, delimiter: string) =>
      text
        .replace(/^\uFEFF/, '')
        .split('\r\n')
        .filter(Boolean)
        .map((line) => line.split(delimiter));

    it('separates cells with semicolons, writes French headers and words, and times in the display zone', async () => {
      const db = await getDb();
      await db.insert(verificationRequests).values([
        row('fr-1', {
          status: 'completed',
          identifiedName: 'Jean Dupont',
          name: 'Jeanne Dupont',
          nameMismatch: true,
          completedAt: new Date('2030-01-15T12:30:00.000Z'),
          method: 'id_card',
          emailNotification: true,
          language: 'nl',
          createdAt: new Date('2030-01-15T12:00:00.000Z'),
          keptUntil: new Date('2030-07-15T12:00:00.000Z'),
        }),
      ]);
      await db.insert(nameReviews).values({
        verificationId: 'fr-1',
        decision: 'same_person',
        note: 'Checked',
        decidedBy: adaId,
        decidedAt: new Date('2030-01-16T09:15:00.000Z'),
      });
      answerInLanguage('fr');
      const text = await (await exportRegister('', `${ada}; vd-time-zone=Europe/Brussels`)).text();
      const [header, ...rows] = recordsOf(text, ';');
      expect(header).toEqual([
        'Identifiant de la vérification',
        'Créée le (Europe/Brussels)',
        'Créée par (identifiant du membre de l’équipe)',
        'Créée par (nom)',
        'Nom indiqué',
        'Finalité du traitement',
        'Langue de la personne',
        'Canaux d’envoi',
        'Statut',
        'Nom identifié',
        'Lien valable jusqu’au (Europe/Brussels)',
        'Conservée jusqu’au (Europe/Brussels)',
        'Divergence de nom',
        'Décision du contrôle du nom',
        'Contrôle du nom le (Europe/Brussels)',
        'Contrôle du nom par (nom)',
        'Terminée le (Europe/Brussels)',
        'Méthode de vérification',
        'Motif de l’échec',
        'Attribuée à (identifiant du membre de l’équipe)',
        'Attribuée à (nom)',
      ]);
      // Winter (+01:00) and summer (+02:00) in Brussels, each the same instant as in UTC.
      expect(rows).toEqual([
        [
          'fr-1',
          '2030-01-15T13:00:00.000+01:00',
          adaId,
          'Ada Admin',
          'Jeanne Dupont',
          'Obligation légale',
          'Néerlandais',
          'Lien, E-mail',
          'Terminée',
          'Jean Dupont',
          expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0[12]:00$/),
          '2030-07-15T14:00:00.000+02:00',
          'oui',
          'Même personne',
          '2030-01-16T10:15:00.000+01:00',
          'Ada Admin',
          '2030-01-15T13:30:00.000+01:00',
          'Carte d’identité',
          '',
          '',
          '',
        ],
      ]);
    });

    it('writes commas when asked, and the stored codes with values=codes, the method among them; the failure reason as the service wrote it', async () => {
      const db = await getDb();
      await db.insert(verificationRequests).values([
        row('codes-1', {
          emailNotification: true,
          language: 'fr',
          status: 'failed',
          method: 'passport',
          failureReason: 'document_expired',
        }),
      ]);
      answerInLanguage('fr');
      const commas = parseCsv(await (await exportRegister('?delimiter=comma', ada)).text());
      expect(commas[0]?.[0]).toBe('Identifiant de la vérification');
      expect(commas[1]?.slice(5, 9)).toEqual(['Obligation légale', 'Français', 'Lien, E-mail', 'Échouée']);
      expect(commas[1]?.slice(17, 19)).toEqual(['Passeport', 'document_expired']);
      const codes = recordsOf(await (await exportRegister('?values=codes', ada)).text(), ';');
      expect(codes[1]?.slice(5, 9)).toEqual(['legal_obligations', 'fr', 'link email', 'failed']);
      // The method as its code; the failure reason is the service's own text either way.
      expect(codes[1]?.slice(17, 19)).toEqual(['passport', 'document_expired']);
    });

    it('refuses a separator or a choice of values it does not know, in French', async () => {
      answerInLanguage('fr');
      const response = await exportRegister('?delimiter=tab&values=labels', ada);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error:
          'Rien n’a été exporté\u00a0: Le séparateur n’est ni «\u00a0comma\u00a0» ni «\u00a0semicolon\u00a0». Les valeurs ne sont ni «\u00a0words\u00a0» ni «\u00a0codes\u00a0». Corrigez les filtres de la page et exportez à nouveau.',
      });
    });
  });

  it.each([
    ['?status=sideways', 'The status is not one of pending, completed, expired or failed.'],
    ['?from=15-06-2030', 'The “From” date is not a date (use YYYY-MM-DD).'],
    [
      '?view=everything&purpose=fun',
      'The purpose is not one of the listed purposes or “custom”. The view is not one of the register’s views.',
    ],
    [`?q=${'x'.repeat(201)}`, 'The search is empty or too long.'],
    ['?createdBy=%00', 'The “created by” value is not a staff id.'],
    ['?assignee=two%20words', 'The “assigned to” value is not “mine”, “unassigned” or a staff id.'],
  ])('refuses %s with 400 naming the filter, and exports (and audits) nothing', async (query, problem) => {
    const response = await exportRegister(query, ada);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ error: `Nothing was exported: ${problem} Fix the filters on the page and export again.` });
    expect(await lastExportAudit()).toBeUndefined();
  });

  it('refuses a caller without a session with 401', async () => {
    const response = await exportRegister('');
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'Sign in to continue.' });
  });

  it('audits the export when the file is complete: who, which filters (never the search text) and how many rows', async () => {
    const db = await getDb();
    await db.insert(verificationRequests).values([row('m-1', { name: 'Élodie Martin' }), row('m-2', { name: 'Marc Martin' }), row('x-1')]);
    const response = await exportRegister('?q=Martin&status=pending&from=2030-01-01', vic);
    expect(await lastExportAudit()).toBeUndefined(); // not before the file has gone out
    expect(parseCsv(await response.text())).toHaveLength(3);
    const entry = await lastExportAudit();
    expect(entry).toMatchObject({
      actorId: vicId,
      action: 'register.exported',
      targetType: null,
      targetId: null,
      details: { status: 'pending', from: '2030-01-01', search: true, rows: 2, complete: true },
    });
    expect(JSON.stringify(entry)).not.toContain('Martin');
  });

  it(`streams 20,000 rows in batches of ${EXPORT_BATCH_SIZE}, reading no further than a batch ahead of the client`, async () => {
    const db = await getDb();
    // In bulk, four rows to each microsecond: the keyset walk must neither repeat nor skip ties
    // or rows a millisecond cursor could not tell apart.
    await db.execute(sql`
      insert into verification_requests
        (verification_id, name, purpose, language, shareable_link, email_notification, sms_notification, status, created_by, created_at)
      select 'bulk-' || lpad(i::text, 5, '0'), 'Zoë ' || i, 'legal_obligations', 'nl', true, false, false, 'pending', ${adaId},
             timestamptz '2030-01-01T00:00:00Z' + (i / 4) * interval '1 microsecond'
      from generate_series(1, 20000) as i`);

    // Read to the end: the BOM and header, then one chunk per batch.
    const full = await exportRegister('', ada);
    const reader = full.body!.getReader();
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    const chunks: string[] = [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(decoder.decode(read.value));
    expect(chunks).toHaveLength(1 + 20_000 / EXPORT_BATCH_SIZE);
    for (const chunk of chunks.slice(1)) expect(chunk.split('\r\n').length - 1).toBe(EXPORT_BATCH_SIZE);
    const ids = parseCsv(chunks.join(''))
      .slice(1)
      .map((cells) => cells[0]);
    expect(new Set(ids).size).toBe(20_000);
    expect(ids[0]).toBe('bulk-20000');
    expect(ids.at(-1)).toBe('bulk-00001');
    expect((await lastExportAudit())?.details).toMatchObject({ rows: 20_000, complete: true });

    // A client that takes two batches and goes away: nothing more was read, and the audit entry
    // says exactly what went out — the rows were not all loaded up front.
    const partial = await exportRegister('', ada);
    const partialReader = partial.body!.getReader();
    await partialReader.read(); // header
    await partialReader.read();
    await partialReader.read();
    await partialReader.cancel();
    expect((await lastExportAudit())?.details).toEqual({ rows: 2 * EXPORT_BATCH_SIZE, complete: false });
  }, 120_000); // 20,000 rows inserted and read back on a shared machine
});
