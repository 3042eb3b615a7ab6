// Internal notes through their server action, on a real database (PGlite here, and PostgreSQL in
// the postgres project): who may add one, what the form must hold, that a note goes only on a
// request in the register and corrects only a note of the same request, that the database keeps
// notes append-only and purges them with their register row, and that a note's text never
// reaches the audit trail or the logs. The session is stood in for: outside a Next.js request
// there is no cookie to read.
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DENIAL_MESSAGES } from '@/lib/auth/guards';
import type { Staff } from '@/lib/auth/session';
import { getDb } from '@/lib/db';
import { auditEntries, liveEvents, verificationNotes } from '@/lib/db/schema';
import { purgeExpiredRegisterEntries } from '@/lib/verifications/register/retention.server';
import { captureLogs, stopCapturingLogs } from '@/test/support/logs';
import { ADA, at, DAY, insert, OTTO, row, setUpRegisterDatabase } from '@/test/support/register';
import { addNoteAction, type NoteFormState } from './actions';
import { listNotes, NoteNotStored } from './notes.server';

const session = vi.hoisted(() => ({ staff: null as Staff | null }));
vi.mock('@/lib/auth/session', () => ({
  getCurrentStaff: async () => session.staff,
  staffFromHeaders: async () => session.staff,
}));
// Outside a Next.js request there is no page cache to mark stale.
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

const OPERATOR: Staff = { id: OTTO, name: 'Otto Operator', email: 'otto@example.com', role: 'operator', sessionId: 's-1' };
const ADMIN: Staff = { id: ADA, name: 'Ada Admin', email: 'ada@example.com', role: 'admin', sessionId: 's-2' };
const VIEWER: Staff = { id: 'staff-vic', name: 'Vic Viewer', email: 'vic@example.com', role: 'viewer', sessionId: 's-3' };

const ID = 'noted-1';
const OTHER = 'noted-2';
const TEXT = 'Called Élodie: she will retry tomorrow';
const IDLE: NoteFormState = { status: 'idle', values: { verificationId: '', text: '', corrects: '' } };

setUpRegisterDatabase();

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

const submit = (fields: Partial<Record<'verificationId' | 'text' | 'corrects', string>>) =>
  addNoteAction(IDLE, form({ verificationId: ID, text: TEXT, corrects: '', ...fields }));

async function added(fields: Parameters<typeof submit>[0] = {}): Promise<string> {
  const answer = await submit(fields);
  if (answer.status !== 'added') throw new Error(`not added: ${JSON.stringify(answer)}`);
  return answer.noteId;
}

async function auditOf(id: string) {
  return (await getDb()).select().from(auditEntries).where(eq(auditEntries.targetId, id)).orderBy(auditEntries.at);
}

async function allNotes() {
  return (await getDb()).select().from(verificationNotes);
}

beforeEach(async () => {
  session.staff = OPERATOR;
  const db = await getDb();
  await db.delete(auditEntries);
  await insert(row({ verificationId: ID }), row({ verificationId: OTHER }));
});

afterEach(() => stopCapturingLogs());

describe('addNoteAction', () => {
  it('adds an operator’s note, trimmed, with its author and time, and audits its id only', async () => {
    const before = Date.now();
    const answer = await submit({ text: `  ${TEXT}\n` });
    expect(answer).toMatchObject({ status: 'added', message: 'Note added.', values: { text: '', corrects: '' } });

    const { notes } = await listNotes(ID);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ text: TEXT, authorId: OTTO, authorName: 'Otto Operator', corrects: null });
    expect(notes[0]!.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);

    const audit = await auditOf(ID);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actorId: OTTO,
      action: 'verification.note_added',
      targetType: 'verification',
      details: { noteId: notes[0]!.id },
    });
    expect(JSON.stringify(audit)).not.toContain('Élodie');
    expect(JSON.stringify(audit)).not.toContain('retry');
  });

  it('adds an administrator’s correction pointing to the earlier note, audited with both ids, the earlier note unchanged', async () => {
    const first = await added();
    session.staff = ADMIN;
    const second = await added({ text: 'Correction: she retries on Monday', corrects: first.toUpperCase() });

    const { notes } = await listNotes(ID);
    expect(notes.map((note) => [note.id, note.text, note.corrects?.id ?? null])).toEqual([
      [first, TEXT, null],
      [second, 'Correction: she retries on Monday', first],
    ]);
    expect(notes[1]!.corrects?.createdAt).toEqual(notes[0]!.createdAt);
    expect((await auditOf(ID)).map((entry) => [entry.actorId, entry.details])).toEqual([
      [OTTO, { noteId: first }],
      [ADA, { noteId: second, correctsNoteId: first }],
    ]);
  });

  it('tells open pages on every instance that the request changed', async () => {
    const db = await getDb();
    const [latest] = await db.select({ id: liveEvents.id }).from(liveEvents).orderBy(sql`${liveEvents.id} desc`).limit(1);
    await added();
    const events = await db.select().from(liveEvents).where(eq(liveEvents.verificationId, ID));
    expect(events.filter((event) => !latest || event.id > latest.id)).toHaveLength(1);
  });

  it('refuses a correction of another request’s note, or of a note that does not exist, keeping what was typed', async () => {
    const elsewhere = await added({ verificationId: OTHER });
    const answer = await submit({ text: 'Wrong request', corrects: elsewhere });
    expect(answer).toMatchObject({
      status: 'failed',
      values: { verificationId: ID, text: 'Wrong request', corrects: elsewhere },
      fieldErrors: { corrects: ['The note to correct is not one of this request’s notes. Reload the page and choose it again.'] },
    });
    expect(await submit({ corrects: '00000000-0000-4000-8000-000000000000' })).toMatchObject({ status: 'failed' });
    expect(await submit({ corrects: 'not-a-note' })).toMatchObject({
      status: 'invalid',
      fieldErrors: { corrects: ['Choose a note of this request to correct, or none.'] },
    });
    expect((await listNotes(ID)).notes).toHaveLength(0);
    expect(await auditOf(ID)).toHaveLength(0);
  });

  it('refuses a viewer, with what was typed, and a visitor without a session; records nothing', async () => {
    session.staff = VIEWER;
    expect(await submit({ text: 'I saw this' })).toEqual({
      status: 'failed',
      values: { verificationId: ID, text: 'I saw this', corrects: '' },
      fieldErrors: {},
      ...DENIAL_MESSAGES.forbidden,
    });
    session.staff = null;
    expect(await submit({})).toMatchObject({ status: 'failed', ...DENIAL_MESSAGES.unauthenticated });
    expect(await allNotes()).toHaveLength(0);
    expect(await auditOf(ID)).toHaveLength(0);
  });

  it('answers a blank or overlong note at its field, keeping what was typed; 2,000 characters go in', async () => {
    expect(await submit({ text: ' \n ' })).toMatchObject({
      status: 'invalid',
      values: { text: ' \n ' },
      fieldErrors: { text: ['Write the note.'] },
    });
    const long = 'x'.repeat(2001);
    expect(await submit({ text: long })).toMatchObject({
      status: 'invalid',
      values: { text: long },
      fieldErrors: { text: ['Keep the note to 2,000 characters or fewer.'] },
    });
    expect(await submit({ text: 'a\u0000b' })).toMatchObject({
      fieldErrors: { text: ['The note contains characters that are not text.'] },
    });
    expect(await allNotes()).toHaveLength(0);

    await added({ text: 'y'.repeat(2000) });
    expect((await listNotes(ID)).notes[0]?.text).toHaveLength(2000);
  });

  it('refuses a request that is not in the register', async () => {
    expect(await submit({ verificationId: 'somebody-elses' })).toMatchObject({
      status: 'failed',
      values: { verificationId: 'somebody-elses', text: TEXT },
      message: 'This verification was not created from this dashboard, so notes cannot be added to it here.',
    });
    expect(await allNotes()).toHaveLength(0);
  });

  it('never writes a note’s text to the logs, whether it is added or refused', async () => {
    const logs = captureLogs();
    await added();
    await submit({ text: `${TEXT} `.repeat(60) });
    await submit({ verificationId: 'somebody-elses' });
    session.staff = VIEWER;
    await submit({});
    logs.restore();
    expect(logs.text()).not.toContain('Élodie');
    expect(logs.text()).not.toContain('retry');
  });

  it('fails to store without quoting the note: the error that reaches Next.js’s log holds its SQLSTATE, not the statement’s values', async () => {
    // An author the staff table does not know: the database refuses the row (a foreign key).
    session.staff = { ...OPERATOR, id: 'staff-unknown' };
    const failure = await submit({}).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(NoteNotStored);
    const error = failure as NoteNotStored;
    expect(error.code).toBe('23503');
    expect(error.cause).toBeUndefined();
    for (const shown of [error.message, error.stack ?? '', JSON.stringify(error)]) {
      expect(shown).not.toContain('Élodie');
      expect(shown).not.toContain('retry');
    }
    expect(await allNotes()).toHaveLength(0);
  });
});

describe('verification_notes in the database', () => {
  it('refuses to change what a note says, even written around the application', async () => {
    const id = await added();
    const db = await getDb();
    await expect(db.update(verificationNotes).set({ text: 'Rewritten history' }).where(eq(verificationNotes.id, id))).rejects.toThrow();
    await expect(db.update(verificationNotes).set({ verificationId: OTHER }).where(eq(verificationNotes.id, id))).rejects.toThrow();
    expect((await listNotes(ID)).notes[0]?.text).toBe(TEXT);
  });

  it('refuses an empty or overlong text whoever writes it', async () => {
    const db = await getDb();
    await expect(db.insert(verificationNotes).values({ verificationId: ID, authorId: OTTO, text: '' })).rejects.toThrow();
    await expect(db.insert(verificationNotes).values({ verificationId: ID, authorId: OTTO, text: 'z'.repeat(2001) })).rejects.toThrow();
  });

  it('goes with its register row when retention purges it, corrections included; other requests keep theirs', async () => {
    const first = await added();
    await added({ corrects: first });
    await insert(row({ verificationId: 'kept-longer', keptUntil: at(90 * DAY) }));
    await added({ verificationId: 'kept-longer' });

    await purgeExpiredRegisterEntries(at(31 * DAY));

    expect((await allNotes()).map((note) => note.verificationId)).toEqual(['kept-longer']);
  });
});
