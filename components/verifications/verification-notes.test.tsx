// What the detail page's "Internal notes" card says, rendered on the server as the page does: the
// notes oldest first with author and time, their text marked as user data, a correction linked
// to the note it corrects; and the form only for those who may add a note, saying until when a
// note is kept and that it should hold no more personal data than needed.
import { prerender } from 'react-dom/static';
import { describe, expect, it } from 'vitest';
import { TimeZoneProvider } from '@/components/ui/time-zone';
import type { Language } from '@/lib/i18n/languages';
import type { VerificationNotes } from '@/lib/verifications/notes/notes.server';
import { inLanguage } from '@/test/support/in-language';
import { VerificationNotesSection } from './verification-notes';

const NOW = Date.parse('2026-11-24T16:05:00.000Z');
const FIRST = 'b3b6b1d2-0000-4000-8000-000000000001';
const SECOND = 'b3b6b1d2-0000-4000-8000-000000000002';

const NOTES: VerificationNotes = {
  notes: [
    {
      id: FIRST,
      text: 'Called her <b>twice</b>\nshe retries tomorrow',
      createdAt: new Date('2026-11-24T14:05:00.000Z'),
      authorId: 'staff-otto',
      authorName: 'Otto Operator',
      corrects: null,
    },
    {
      id: SECOND,
      text: 'She retries on Monday',
      createdAt: new Date('2026-11-24T15:00:00.000Z'),
      authorId: null,
      authorName: null,
      corrects: { id: FIRST, createdAt: new Date('2026-11-24T14:05:00.000Z') },
    },
  ],
  truncated: false,
};

const render = async (
  notes: VerificationNotes | undefined,
  canAdd: boolean,
  language: Language = 'en',
  keptUntil: string | null = '2026-12-24T14:05:00.000Z',
) => {
  // prerender waits for the note form's code, which the card loads on demand, as the page's
  // server render does.
  const { prelude } = await prerender(
    await inLanguage(
      <TimeZoneProvider timeZone="UTC" fixed>
        <VerificationNotesSection
          verificationId="id-1"
          notes={notes}
          canAdd={canAdd}
          keptUntil={keptUntil}
          timeZone="UTC"
          renderedAt={NOW}
        />
      </TimeZoneProvider>,
      language,
    ),
  );
  return new Response(prelude).text();
};
const text = (html: string) =>
  html
    // A streamed render separates adjacent text with empty comments.
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ');
const items = (html: string) => html.match(/<li[\s\S]*?<\/li>/g) ?? [];

describe('VerificationNotesSection', () => {
  it('lists the notes oldest first: author, time, the text as user data (escaped), a correction linked to its note', async () => {
    const html = await render(NOTES, false);
    expect(html).toMatch(/<h2[^>]*>Internal notes<\/h2>/);
    const [first, second] = items(html);
    expect(first).toContain(`id="note-${FIRST}"`);
    expect(text(first ?? '')).toContain('Otto Operator 24 Nov 2026, 14:05 UTC (2 hours ago)');
    expect(first).toMatch(/<p[^>]*translate="no"[^>]*>Called her &lt;b&gt;twice&lt;\/b&gt;\nshe retries tomorrow<\/p>/);
    expect(text(second ?? '')).toContain('A former colleague');
    expect(second).toMatch(new RegExp(`<a href="#note-${FIRST}"[^>]*>Corrects the note of 24 Nov 2026, 14:05 UTC</a>`));
  });

  it('gives a viewer no form, and says who adds notes', async () => {
    const html = await render(NOTES, false);
    expect(html).not.toContain('<form');
    expect(text(html)).toContain('Operators and administrators add notes.');
  });

  it('gives the form to those who may add, saying until when a note is kept and to hold no more personal data than needed', async () => {
    const html = await render(NOTES, true);
    expect(html).toContain('<form');
    expect(html).toMatch(/<textarea[^>]*name="text"[^>]*aria-describedby="note-text-hint"/);
    expect(text(html)).toContain(
      'Up to 2,000 characters. A note cannot be changed afterwards: correct it with a new note. It is kept until 24 Dec 2026, then purged with the request. Write no more personal data than the note needs.',
    );
    // A correction is chosen among this request's notes; none by default.
    expect(html).toMatch(/<select[^>]*name="corrects"/);
    expect(html).toContain(`<option value="${SECOND}">The note by A former colleague of 24 Nov 2026, 15:00 UTC</option>`);
    expect(html).toContain('<option value="" selected="">None: this is a new note</option>');
  });

  it('explains no notes, unreadable notes, and a request whose purge date is not known yet', async () => {
    expect(text(await render({ notes: [], truncated: false }, true))).toContain('No internal notes yet.');
    expect(await render({ notes: [], truncated: false }, true)).not.toContain('name="corrects"');
    expect(text(await render(undefined, false))).toContain('The notes could not be read just now.');
    expect(text(await render({ notes: [], truncated: false }, true, 'en', null))).toContain(
      'It is kept as long as the request, then purged with it.',
    );
  });

  it('reads in French and in Dutch', async () => {
    const fr = text(await render(NOTES, true, 'fr'));
    expect(fr).toContain('Notes internes');
    expect(fr).toContain('Rectifie la note du 24 nov. 2026, 14:05 UTC');
    expect(fr).toContain('Elle est conservée jusqu’au 24 déc. 2026, puis supprimée définitivement avec la demande.');
    const nl = text(await render(NOTES, false, 'nl'));
    expect(nl).toContain('Interne notities');
    expect(nl).toContain('Behandelaars en beheerders voegen notities toe.');
  });
});
