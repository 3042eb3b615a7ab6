// The "Notes" card of a detail page: staff's internal notes on the request, oldest first, each
// with its author and time (a correction says which note it corrects), and for operators and
// administrators the form to add one. The only place a note's text is shown, marked as user data
// (translate="no"). Renders on the server; a note added elsewhere shows when the live stream
// announces it and the page is rendered again (components/live/live-updates.tsx). The page hands
// the form its words ('detail.noteForm', through ClientMessagesFor).

import { useLocale, useTranslations } from 'next-intl';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { TimeText } from '@/components/ui/time-text';
import { isLanguage } from '@/lib/i18n/languages';
import { formatDate, formatDateTime } from '@/lib/time/display-time';
import type { VerificationNotes } from '@/lib/verifications/notes/notes.server';
import { NOTE_TEXT_MAX } from '@/lib/verifications/notes/schema';
import { NoteFormOnDemand } from './loaded-on-demand';

const linkClass = 'font-medium text-indigo-700 underline underline-offset-2 hover:no-underline';

export function VerificationNotesSection({
  verificationId,
  notes,
  canAdd,
  keptUntil,
  timeZone,
  renderedAt,
}: {
  verificationId: string;
  /** Undefined when they could not be read: the page shows the record regardless. */
  notes: VerificationNotes | undefined;
  canAdd: boolean;
  /** When the request's data, its notes with it, is purged (ISO), if known. */
  keptUntil: string | null;
  timeZone: string;
  renderedAt: number;
}) {
  const t = useTranslations('detail.notes');
  const locale = useLocale();
  const language = isLanguage(locale) ? locale : undefined;
  const author = (name: string | null) => name ?? t('formerColleague');
  return (
    <Card aria-labelledby="notes-heading" data-testid="notes">
      <CardHeader>
        <h2 id="notes-heading" className="text-base font-semibold text-slate-900">
          {t('heading')}
        </h2>
      </CardHeader>
      <CardBody className="space-y-4 text-sm">
        {!notes ? (
          <p className="text-slate-600">{t('unreadable')}</p>
        ) : notes.notes.length === 0 ? (
          <p className="text-slate-600">{t('empty')}</p>
        ) : (
          <>
            {notes.truncated ? <p className="text-slate-600">{t('truncated')}</p> : null}
            <ol className="space-y-4">
              {notes.notes.map((note) => (
                <li key={note.id} id={`note-${note.id}`} className="space-y-1 scroll-mt-4" data-testid="note">
                  <p className="flex flex-wrap items-baseline gap-x-2">
                    <span className="font-medium text-slate-900">{author(note.authorName)}</span>
                    <TimeText
                      iso={note.createdAt.toISOString()}
                      timeZone={timeZone}
                      language={language}
                      relativeFrom={renderedAt}
                      className="text-slate-600"
                    />
                  </p>
                  {note.corrects ? (
                    <p className="text-slate-600">
                      <a href={`#note-${note.corrects.id}`} className={linkClass}>
                        {t('correctsNoteOf', { time: formatDateTime(note.corrects.createdAt, timeZone, language) })}
                      </a>
                    </p>
                  ) : null}
                  <p className="whitespace-pre-line break-words text-slate-900" translate="no">
                    {note.text}
                  </p>
                </li>
              ))}
            </ol>
          </>
        )}
        {/* The form is for the screen: a printed page keeps the notes. */}
        {canAdd ? (
          <div className="print:hidden">
            <NoteFormOnDemand
              verificationId={verificationId}
              hint={
                keptUntil
                  ? t('hint', { max: NOTE_TEXT_MAX, date: formatDate(keptUntil, timeZone, language) })
                  : t('hintNoDate', { max: NOTE_TEXT_MAX })
              }
              // A correction names the note it corrects by its author and time.
              choices={(notes?.notes ?? []).map((note) => ({
                id: note.id,
                label: t('correctsChoice', {
                  name: author(note.authorName),
                  time: formatDateTime(note.createdAt, timeZone, language),
                }),
              }))}
            />
          </div>
        ) : (
          <p className="text-slate-600 print:hidden">{t('whoAdds')}</p>
        )}
      </CardBody>
    </Card>
  );
}
