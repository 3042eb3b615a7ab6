// Staff's internal notes on a request: adding one, and reading a request's notes for its detail
// page. Notes are append-only (the database's trigger refuses any change to what one says); a
// correction is a new note pointing to an earlier one of the same request. A note's text is free
// text that may name people, so it stays in verification_notes: the audit entry and the live
// event carry ids only, and nothing here logs it. Notes go with their register row (cascade).
import 'server-only';
import { and, desc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { recordAudit } from '@/lib/audit/audit';
import { getDb } from '@/lib/db';
import { staffUsers, verificationNotes, verificationRequests } from '@/lib/db/schema';
import { publishVerificationChange } from '@/lib/live';
import { isDatabaseUnavailable } from '@/lib/platform/database-errors';
import { logger } from '@/lib/platform/log';
import type { NoteInput } from './schema';

/** At most this many notes are read for a page: the latest ones. */
export const NOTES_LIMIT = 200;

export type VerificationNote = {
  id: string;
  text: string;
  createdAt: Date;
  authorId: string | null;
  /** The author's name as their account has it now; null once the account is gone. */
  authorName: string | null;
  /** The note this one corrects, with when that one was written. */
  corrects: { id: string; createdAt: Date } | null;
};

export type VerificationNotes = {
  /** Oldest first. */
  notes: VerificationNote[];
  /** True when older notes were left out. */
  truncated: boolean;
};

/** Why a note cannot be added, as a code: the form's action says it in the reader's words. */
export type NoteRefusal = 'not_in_register' | 'corrects_unknown';

export class NoteRefused extends Error {
  override name = 'NoteRefused';
  constructor(readonly reason: NoteRefusal) {
    super(`note refused: ${reason}`);
  }
}

/**
 * Adds `staffId`'s note to a request in the register, with an audit entry (ids only) and a live
 * event in the same transaction, so that open pages on every instance show it. Refused
 * (NoteRefused) for a request not in the register, or a correction of a note that is not one of
 * this request's.
 */
export async function addNote(staffId: string, input: NoteInput): Promise<{ id: string; createdAt: Date }> {
  try {
    return await insertNote(staffId, input);
  } catch (error) {
    if (error instanceof NoteRefused) throw error;
    throw new NoteNotStored(error);
  }
}

/**
 * A failed write, without the statement's parameters: drizzle's error quotes them (the note's
 * text among them) and so may the driver's details, and whoever catches this may log it. The
 * SQLSTATE stays, so that "the database cannot be reached" is still told apart
 * (lib/platform/database-errors.ts), and is named as such when only the driver's words said so.
 */
export class NoteNotStored extends Error {
  override name = 'NoteNotStored';
  readonly code: string | undefined;
  constructor(error: unknown) {
    const code = isDatabaseUnavailable(error) ? (sqlState(error) ?? '08006') : sqlState(error);
    super(`storing a note failed${code ? ` (${code})` : ''}`);
    this.code = code;
  }
}

function sqlState(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth += 1) {
    const { code } = current as { code?: unknown };
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

async function insertNote(staffId: string, { verificationId, text, corrects }: NoteInput): Promise<{ id: string; createdAt: Date }> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    // FOR SHARE: the register row cannot be purged between this check and the insert; two notes
    // at once both go in.
    const [request] = await tx
      .select({ status: verificationRequests.status })
      .from(verificationRequests)
      .where(eq(verificationRequests.verificationId, verificationId))
      .for('share');
    if (!request) throw new NoteRefused('not_in_register');
    if (corrects) {
      const [earlier] = await tx
        .select({ id: verificationNotes.id })
        .from(verificationNotes)
        .where(and(eq(verificationNotes.id, corrects), eq(verificationNotes.verificationId, verificationId)));
      if (!earlier) throw new NoteRefused('corrects_unknown');
    }
    const [note] = await tx
      .insert(verificationNotes)
      .values({ verificationId, authorId: staffId, text, correctsNoteId: corrects })
      .returning({ id: verificationNotes.id, createdAt: verificationNotes.createdAt });
    if (!note) throw new Error('the note was not stored');
    await recordAudit(
      {
        actorId: staffId,
        action: 'verification.note_added',
        target: { type: 'verification', id: verificationId },
        details: corrects ? { noteId: note.id, correctsNoteId: corrects } : { noteId: note.id },
      },
      tx,
    );
    await publishVerificationChange({ verificationId, status: request.status }, tx);
    return note;
  });
}

const corrected = alias(verificationNotes, 'corrected');

/** A request's notes, oldest first, with their authors' current names; the latest NOTES_LIMIT. */
export async function listNotes(verificationId: string): Promise<VerificationNotes> {
  const db = await getDb();
  const rows = await db
    .select({
      id: verificationNotes.id,
      text: verificationNotes.text,
      createdAt: verificationNotes.createdAt,
      authorId: verificationNotes.authorId,
      authorName: staffUsers.name,
      correctsId: verificationNotes.correctsNoteId,
      correctsCreatedAt: corrected.createdAt,
    })
    .from(verificationNotes)
    .leftJoin(staffUsers, eq(staffUsers.id, verificationNotes.authorId))
    .leftJoin(corrected, eq(corrected.id, verificationNotes.correctsNoteId))
    .where(eq(verificationNotes.verificationId, verificationId))
    .orderBy(desc(verificationNotes.createdAt), desc(verificationNotes.id))
    .limit(NOTES_LIMIT + 1);
  const notes = rows
    .slice(0, NOTES_LIMIT)
    .reverse()
    .map(({ correctsId, correctsCreatedAt, ...note }) => ({
      ...note,
      corrects: correctsId && correctsCreatedAt ? { id: correctsId, createdAt: correctsCreatedAt } : null,
    }));
  return { notes, truncated: rows.length > NOTES_LIMIT };
}

/** For the detail page: the notes, or undefined when they cannot be read (the page shows the record regardless). */
export function readNotesForPage(verificationId: string): Promise<VerificationNotes | undefined> {
  return listNotes(verificationId).catch((error: unknown) => {
    // Its code only: a driver's error can quote what it read.
    logger.child({ area: 'verifications' }).error({ code: sqlState(error), verificationId }, 'reading a verification’s notes failed');
    return undefined;
  });
}
