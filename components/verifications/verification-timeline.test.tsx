// What the detail page's "History" says, rendered on the server as the page does: an ordered
// list under its heading, each entry with a machine-readable time, a 24-hour clock with the
// zone's name and how long ago; who acted, a removed account without a name; and links to the
// audit trail for those who may read it only.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TimeZoneProvider } from '@/components/ui/time-zone';
import type { Language } from '@/lib/i18n/languages';
import type { Timeline, TimelineEntry } from '@/lib/verifications/timeline/timeline.server';
import { inLanguage } from '@/test/support/in-language';
import { VerificationTimeline } from './verification-timeline';

const NOW = Date.parse('2026-11-24T16:05:00.000Z');
const CREATED = new Date('2026-11-24T14:05:00.000Z');
const ADA = { id: 'staff-ada', name: 'Ada Admin' };

const ENTRIES: TimelineEntry[] = [
  {
    kind: 'created',
    key: 'created',
    at: CREATED,
    inAuditTrail: true,
    staff: ADA,
    channels: { shareableLink: false, emailNotification: true, smsNotification: true },
    language: 'fr',
  },
  { kind: 'link_copied', key: 'audit:1', at: new Date('2026-11-24T14:10:00.000Z'), inAuditTrail: true, staff: ADA },
  {
    kind: 'viewed',
    key: 'audit:2',
    at: new Date('2026-11-24T15:00:00.000Z'),
    inAuditTrail: true,
    staff: { id: 'staff-gone', name: null },
    count: 1,
    until: new Date('2026-11-24T15:00:00.000Z'),
  },
  {
    kind: 'status_changed',
    key: 'audit:3',
    at: new Date('2026-11-24T15:30:00.000Z'),
    inAuditTrail: true,
    status: 'completed',
    previous: 'pending',
    viaWebhook: true,
    failureReason: null,
  },
  {
    kind: 'service_notice',
    key: 'webhook:m',
    at: new Date('2026-11-24T15:31:00.000Z'),
    inAuditTrail: false,
    eventType: 'verification.completed',
    count: 1,
    until: new Date('2026-11-24T15:31:00.000Z'),
  },
  {
    kind: 'reviewed',
    key: 'review',
    at: new Date('2026-11-24T16:00:00.000Z'),
    inAuditTrail: false,
    staff: ADA,
    decision: 'different_person',
    previous: null,
  },
];

const render = async (timeline: Timeline | undefined, canReadAuditTrail = true, timeZone = 'UTC', language: Language = 'en') =>
  renderToStaticMarkup(
    await inLanguage(
      <TimeZoneProvider timeZone={timeZone} fixed>
        <VerificationTimeline
          verificationId="id-1"
          timeline={timeline}
          renderedAt={NOW}
          timeZone={timeZone}
          canReadAuditTrail={canReadAuditTrail}
        />
      </TimeZoneProvider>,
      language,
    ),
  );
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ');
const items = (html: string) => html.match(/<li[\s\S]*?<\/li>/g) ?? [];

describe('VerificationTimeline', () => {
  it('lists every entry, in order, in an ordered list under the "History" heading', async () => {
    const html = await render({ entries: ENTRIES, truncated: false });
    expect(html).toMatch(/<h2[^>]*>History<\/h2>/);
    expect(html).toContain('<ol');
    expect(items(html).map((item) => text(item).trim().split(' 24 Nov')[0])).toEqual([
      'Request created by Ada Admin Sent by: E-mail, SMS · Language: Français',
      'Link copied by Ada Admin',
      'Viewed by a former colleague',
      'Status changed to Completed Was Pending · Reported by the service',
      'Notice from the service: completed Nothing changed here: the status was already up to date',
      'Name review: Not the same person by Ada Admin',
    ]);
  });

  it('gives each entry its instant, a 24-hour time with the zone, and how long ago', async () => {
    const first = items(await render({ entries: ENTRIES, truncated: false }))[0] ?? '';
    expect(first).toContain('dateTime="2026-11-24T14:05:00.000Z"');
    expect(text(first)).toContain('24 Nov 2026, 14:05 UTC (2 hours ago)');
  });

  it('shows the times and links the audit trail days in the display zone', async () => {
    const late = { ...ENTRIES[1], at: new Date('2026-11-25T03:30:00.000Z') } as TimelineEntry;
    const html = await render({ entries: [late], truncated: false }, true, 'America/New_York');
    // 03:30 UTC on the 25th is still the evening of the 24th in New York.
    expect(text(html)).toContain('24 Nov 2026, 22:30 EST');
    expect(html).toContain('href="/audit?verification=id-1&amp;from=2026-11-24&amp;to=2026-11-24"');
  });

  it('links audited entries to their day of the audit trail, and the whole history to it, for those who may read it', async () => {
    const html = await render({ entries: ENTRIES, truncated: false });
    expect(html).toContain('href="/audit?verification=id-1"');
    expect(text(html)).toContain('See in the audit trail');
    // Four entries come from the audit trail; the notice and the stored decision do not.
    expect(html.match(/href="\/audit\?verification=id-1&amp;from=2026-11-24&amp;to=2026-11-24"/g)).toHaveLength(4);
  });

  it('offers no audit trail link to those who may not read it', async () => {
    const html = await render({ entries: ENTRIES, truncated: true }, false);
    expect(html).not.toContain('/audit');
    expect(text(html)).toContain('Older entries are in the audit trail, which administrators can read.');
  });

  it('says when older entries were left out, with a link to them', async () => {
    const html = await render({ entries: ENTRIES, truncated: true });
    expect(text(html)).toContain('Only the latest entries are shown.');
    expect(html).toMatch(/<a[^>]*href="\/audit\?verification=id-1"[^>]*>Older entries are in the audit trail<\/a>/);
  });

  it('names any other audited action on the request by its audit label, and an unknown notice by its type', async () => {
    const html = await render({
      entries: [
        { kind: 'other', key: 'audit:9', at: CREATED, inAuditTrail: true, staff: null, action: 'verification.removed' },
        {
          kind: 'service_notice',
          key: 'webhook:x',
          at: CREATED,
          inAuditTrail: false,
          eventType: 'verification.archived',
          count: 1,
          until: CREATED,
        },
      ],
      truncated: false,
    });
    expect(items(html).map((item) => text(item).trim().split(' 24 Nov')[0])).toEqual([
      'Removed from register',
      'Notice from the service: verification.archived Nothing changed here: the status was already up to date',
    ]);
  });

  it('says folded views and notices as one line with their count and span, a failure with the service’s reason, and notes without their text', async () => {
    const at = (time: string) => new Date(`2026-11-24T${time}:00.000Z`);
    const html = await render({
      entries: [
        { kind: 'viewed', key: 'audit:v', at: at('10:02'), until: at('10:09'), count: 4, inAuditTrail: true, staff: ADA },
        {
          kind: 'service_notice',
          key: 'webhook:n',
          at: at('10:10'),
          until: at('11:15'),
          count: 3,
          inAuditTrail: false,
          eventType: 'verification.created',
        },
        {
          kind: 'status_changed',
          key: 'audit:f',
          at: at('11:20'),
          inAuditTrail: true,
          status: 'failed',
          previous: 'pending',
          viaWebhook: true,
          failureReason: 'document_expired',
        },
        { kind: 'note_added', key: 'note:a', at: at('11:30'), inAuditTrail: true, staff: ADA, noteId: 'note-a', corrects: null },
        {
          kind: 'note_added',
          key: 'note:b',
          at: at('11:40'),
          inAuditTrail: true,
          staff: ADA,
          noteId: 'note-b',
          corrects: { at: at('11:30') },
        },
        { kind: 'note_added', key: 'audit:c', at: at('11:50'), inAuditTrail: true, staff: null, noteId: null, corrects: { at: null } },
      ],
      truncated: false,
    });
    expect(items(html).map((item) => text(item).trim().split(' 24 Nov')[0])).toEqual([
      'Viewed 4 times between 10:02 and 10:09 by Ada Admin',
      '3 notices from the service between 10:10 and 11:15 Nothing changed here: the status was already up to date each time',
      'Status changed to Failed Was Pending · Reported by the service Reason given by the service: document_expired',
      'Internal note added by Ada Admin',
      'Correction of a note added by Ada Admin Corrects the note of',
      'Correction of a note added Corrects an earlier note',
    ]);
    // The service's words are not translated; a kept note is linked in the Notes section.
    expect(html).toMatch(/<span[^>]*translate="no"[^>]*>document_expired<\/span>/);
    expect(html).toContain('href="#note-note-a"');
    expect(html).toContain('href="#note-note-b"');
    expect(text(items(html)[4] ?? '')).toContain('Corrects the note of 24 Nov 2026, 11:30 UTC');

    const nl = await render(
      {
        entries: [{ kind: 'viewed', key: 'v', at: at('10:02'), until: at('10:09'), count: 2, inAuditTrail: false, staff: ADA }],
        truncated: false,
      },
      false,
      'UTC',
      'nl',
    );
    expect(text(nl)).toContain('2 keer bekeken tussen 10:02 en 10:09 door Ada Admin');
  });

  it('explains an empty or unreadable history', async () => {
    expect(text(await render({ entries: [], truncated: false }))).toContain(
      'Nothing has been recorded for this request on this dashboard.',
    );
    expect(text(await render(undefined))).toContain('The history could not be read just now.');
  });

  it('reads in French and in Dutch: the entries, who acted, the statuses and decisions in the glossary’s words, and dates in the language', async () => {
    const fr = await render({ entries: ENTRIES, truncated: false }, true, 'UTC', 'fr');
    expect(fr).toMatch(/<h2[^>]*>Historique<\/h2>/);
    // The no-break spaces before French colons and inside guillemets stay in the page (the text helper reads them as spaces).
    expect(fr).toContain('Langue\u00a0: Français');
    expect(items(fr).map((item) => text(item).trim().split(' 24 nov')[0])).toEqual([
      'Demande créée par Ada Admin Envoyée par : Notification par e-mail, Notification par SMS · Langue : Français',
      'Lien copié par Ada Admin',
      'Consultée par un ancien collègue',
      'Statut passé à « Terminée » Auparavant : En attente · Signalé par le service',
      'Notification du service : terminée Aucun changement ici : le statut était déjà à jour',
      'Contrôle du nom : Personne différente par Ada Admin',
    ]);
    expect(text(fr)).toContain('Voir dans le journal d’audit');

    const nl = await render({ entries: ENTRIES, truncated: true }, false, 'UTC', 'nl');
    expect(nl).toMatch(/<h2[^>]*>Historiek<\/h2>/);
    expect(items(nl).map((item) => text(item).trim().split(' 24 nov')[0])).toEqual([
      'Verzoek aangemaakt door Ada Admin Verstuurd via: Melding per e-mail, Melding per sms · Taal: Français',
      'Link gekopieerd door Ada Admin',
      'Bekeken door een voormalige collega',
      'Status gewijzigd in Afgerond Was In afwachting · Gemeld door de dienst',
      'Melding van de dienst: afgerond Hier is niets gewijzigd: de status was al bijgewerkt',
      'Naamcontrole: Andere persoon door Ada Admin',
    ]);
    expect(text(nl)).toContain('Oudere items staan in de audittrail, die beheerders kunnen raadplegen.');
  });

  it('says who took the request, gave it, took it over and handed it back, and why it went back, names marked as data', async () => {
    const at = (time: string) => new Date(`2026-11-24T${time}:00.000Z`);
    const JAN = { id: 'staff-jan', name: 'Jan Peeters' };
    const GONE = { id: 'staff-gone', name: null };
    const common = (key: string, time: string) => ({ key, at: at(time), inAuditTrail: true });
    const timeline: Timeline = {
      entries: [
        { kind: 'assigned', ...common('audit:a1', '10:00'), staff: JAN, assignee: JAN, previous: null },
        { kind: 'unassigned', ...common('audit:a2', '10:01'), staff: JAN, previous: JAN, reason: null },
        { kind: 'assigned', ...common('audit:a3', '10:02'), staff: ADA, assignee: JAN, previous: null },
        { kind: 'assigned', ...common('audit:a4', '10:03'), staff: ADA, assignee: ADA, previous: JAN },
        { kind: 'assigned', ...common('audit:a5', '10:04'), staff: ADA, assignee: JAN, previous: ADA },
        { kind: 'unassigned', ...common('audit:a6', '10:05'), staff: ADA, previous: JAN, reason: null },
        { kind: 'unassigned', ...common('audit:a7', '10:06'), staff: ADA, previous: JAN, reason: 'staff_disabled' },
        { kind: 'unassigned', ...common('audit:a8', '10:07'), staff: null, previous: GONE, reason: 'staff_role_changed' },
        { kind: 'assigned', ...common('audit:a9', '10:08'), staff: GONE, assignee: GONE, previous: null },
      ],
      truncated: false,
    };
    const html = await render(timeline);
    expect(items(html).map((item) => text(item).trim().split(' 24 Nov')[0])).toEqual([
      'Jan Peeters took this request',
      'Jan Peeters handed this request back',
      'Ada Admin gave this request to Jan Peeters',
      'Ada Admin took this request over from Jan Peeters',
      'Ada Admin passed this request from Ada Admin to Jan Peeters',
      'Ada Admin withdrew this request from Jan Peeters',
      'Returned to unassigned: Jan Peeters ’s account was disabled by Ada Admin',
      'Returned to unassigned: a former colleague’s new role does not allow working on requests',
      'A former colleague took this request',
    ]);
    expect(html).toContain('<span translate="no">Jan Peeters</span> took this request');
    expect(items(html)[2]).toContain('<span translate="no">Ada Admin</span> gave this request to <span translate="no">Jan Peeters</span>');

    // (The text above puts a space where a tag ends: the page shows "Jan Peeters’s".)
    const french = await render(timeline, true, 'UTC', 'fr');
    expect(text(items(french)[0] ?? '')).toContain('Jan Peeters a pris en charge cette demande');
    expect(text(items(french)[6] ?? '')).toContain('Remise dans la file : compte désactivé pour Jan Peeters par Ada Admin');
    const dutch = await render(timeline, true, 'UTC', 'nl');
    expect(text(items(dutch)[1] ?? '')).toContain('Jan Peeters heeft dit verzoek teruggegeven');
  });
});
