// The detail page on paper (Tailwind's print: variant): each of its parts rendered on the server
// as the page renders it, then read as printed (test/support/printed.ts drops what print:hidden
// hides). Buttons, forms (filled in or empty: the name review, the note, the assignment) and the
// download links do not print; the facts, the decisions, the notes and who has the request do.
import type { ReactNode } from 'react';
import { prerender } from 'react-dom/static';
import { describe, expect, it } from 'vitest';
import { TimeZoneProvider } from '@/components/ui/time-zone';
import type { VerificationRecord } from '@/lib/verification-service/schemas';
import { inLanguage } from '@/test/support/in-language';
import { printedMarkup } from '@/test/support/printed';
import { AssignmentPanel } from './assignment-panel';
import { NameReviewPanel } from './name-review-panel';
import { PurgeNotice } from './purge-notice';
import { RequestFacts } from './request-facts';
import { DetailsView } from './verification-details';
import { VerificationNotesSection } from './verification-notes';

const NOW = Date.parse('2030-06-15T12:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;

/** Rendered to the end (the forms loaded on demand included), as the page's server render does. */
async function render(node: ReactNode): Promise<string> {
  const { prelude } = await prerender(
    await inLanguage(
      <TimeZoneProvider timeZone="UTC" fixed>
        {node}
      </TimeZoneProvider>,
    ),
  );
  return new Response(prelude).text();
}

const text = (html: string) =>
  html
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');
/** What must never reach paper: anything to press, type in or choose. */
const CONTROLS = /<(form|button|input|select|textarea)\b/;

const record = {
  verification_id: 'id-1',
  inputted_name: 'Élodie Martin',
  identified_name: 'Élodie Martin',
  identified_date: '2030-06-10T11:00:00.000Z',
  verification_method: 'passport',
  status: 'completed',
  failed_reason: null,
  purpose: 'legal_obligations',
  access_expires_at: '2030-06-12T12:00:00.000Z',
  kept_until: new Date(NOW + 6 * DAY).toISOString(),
} as VerificationRecord;

describe('the detail page in print', () => {
  it('prints the record without its Refresh button', async () => {
    const html = await render(
      <DetailsView id="id-1" record={record} nameComparison={null} now={NOW} refreshing={false} onRefresh={() => undefined} />,
    );
    expect(html).toContain('Refresh');
    const printed = printedMarkup(html);
    expect(printed).not.toMatch(CONTROLS);
    expect(text(printed)).toContain('Élodie Martin');
    expect(text(printed)).toContain('Data kept until');
  });

  it('prints the name review’s decision, not its form, filled in or empty', async () => {
    const html = await render(
      <NameReviewPanel
        verificationId="id-1"
        canReview
        sameDecision="anyone"
        review={{ decision: 'same_person', note: 'Married name', decidedAt: '2030-06-11T09:00:00.000Z', decidedByName: 'Ada Admin' }}
      />,
    );
    expect(html).toMatch(CONTROLS);
    const printed = printedMarkup(html);
    expect(printed).not.toMatch(CONTROLS);
    expect(text(printed)).toContain('Decision: Same person');
    expect(text(printed)).toContain('Married name');
  });

  it('prints who has the request, not the controls to take, give or hand it back', async () => {
    const html = await render(
      <AssignmentPanel
        verificationId="id-1"
        view={{
          assignee: { id: 'staff-olga', name: 'Olga Operator', since: '2030-06-15T10:00:00.000Z' },
          colleagues: [{ id: 'staff-otto', name: 'Otto Operator' }],
          canAssign: true,
          me: 'staff-otto',
        }}
      />,
    );
    const printed = printedMarkup(html);
    expect(html).toMatch(CONTROLS);
    expect(printed).not.toMatch(CONTROLS);
    expect(text(printed)).toContain('Assigned to Olga Operator since');
  });

  it('prints the notes, not the form to add one', async () => {
    const html = await render(
      <VerificationNotesSection
        verificationId="id-1"
        notes={{
          notes: [
            {
              id: 'b3b6b1d2-0000-4000-8000-000000000001',
              text: 'Called her twice',
              createdAt: new Date(NOW - DAY),
              authorId: 'staff-otto',
              authorName: 'Otto Operator',
              corrects: null,
            },
          ],
          truncated: false,
        }}
        canAdd
        keptUntil={record.kept_until}
        timeZone="UTC"
        renderedAt={NOW}
      />,
    );
    expect(html).toContain('<textarea');
    const printed = printedMarkup(html);
    expect(printed).not.toMatch(CONTROLS);
    expect(text(printed)).toContain('Called her twice');
  });

  it('prints the request’s facts without the shareable link or its copy button', async () => {
    const link = 'https://svc.example/v/secret-token';
    const html = await render(
      <RequestFacts
        id="id-1"
        timeZone="UTC"
        facts={{
          createdAt: new Date(NOW - DAY),
          language: 'fr',
          channels: { shareableLink: true, emailNotification: false, smsNotification: false },
          link: { url: link, usable: true },
          keptUntil: record.kept_until,
        }}
      />,
    );
    expect(html).toContain(link);
    const printed = printedMarkup(html);
    expect(printed).not.toMatch(CONTROLS);
    expect(printed).not.toContain(link);
    expect(text(printed)).toContain('Français');
  });

  it('prints when the data goes, not the evidence pack’s download links', async () => {
    const html = await render(<PurgeNotice id="id-1" record={record} now={NOW} timeZone="UTC" />);
    expect(html).toContain('/evidence?format=pdf');
    const printed = printedMarkup(html);
    expect(printed).not.toContain('/evidence?format=');
    expect(text(printed)).toContain('This request’s data will be purged on 21 Jun 2030');
  });
});

describe('printedMarkup', () => {
  it('drops an element marked print:hidden with everything inside it, nested tags and void elements included', () => {
    const html =
      '<div><p>kept</p><div class="a print:hidden"><div><input name="x"/><br/><span>gone</span></div></div><p class="print:block">also kept</p></div>';
    expect(printedMarkup(html)).toBe('<div><p>kept</p><p class="print:block">also kept</p></div>');
  });
});
