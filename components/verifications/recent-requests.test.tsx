// What a register row shows, rendered on the server as the page does: the name check, the
// deadline hints, and who gets a copy button when.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TimeZoneProvider } from '@/components/ui/time-zone';
import type { Language } from '@/lib/i18n/languages';
import { relativeTime } from '@/lib/time/display-time';
import type { RegisterListEntry } from '@/lib/verifications/register/queries.server';
import { inLanguage } from '@/test/support/in-language';
import { expiresInText, RecentRequests } from './recent-requests';
import { RegisterFilters, RegisterViews } from './register-filters';

const HOUR = 60 * 60 * 1000;
const NOW = new Date('2030-06-15T12:00:00.000Z');
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);

function entry(overrides: Partial<RegisterListEntry> = {}): RegisterListEntry {
  return {
    verificationId: 'id-1',
    name: 'John Smith',
    purpose: 'legal_obligations',
    language: 'en',
    shareableLink: true,
    emailNotification: false,
    smsNotification: false,
    link: 'https://svc.example/v/token',
    status: 'pending',
    identifiedName: null,
    nameMismatch: null,
    nameReviewed: false,
    accessExpiresAt: at(7 * 24 * HOUR),
    keptUntil: at(30 * 24 * HOUR),
    createdBy: 'staff-1',
    createdAt: at(-HOUR),
    refreshedAt: null,
    followsVerificationId: null,
    completedAt: null,
    method: null,
    failureReason: null,
    assignedTo: null,
    assignedAt: null,
    searchNames: 'john smith\n',
    reviewDecision: null,
    createdByName: 'Ada Admin',
    assigneeName: null,
    followedUpBy: null,
    ...overrides,
  };
}

async function render(
  entries: RegisterListEntry[],
  props: Partial<Parameters<typeof RecentRequests>[0]> = {},
  language: Language = 'en',
): Promise<string> {
  return renderToStaticMarkup(
    await inLanguage(
      <RecentRequests entries={entries} now={NOW} showLinks canCreate caption="Requests" timeZone="UTC" {...props} />,
      language,
    ),
  );
}

describe('RecentRequests', () => {
  it('flags a completed request whose identified name differs, in words and with the reason', async () => {
    const html = await render([entry({ status: 'completed', name: 'Jane Smith', identifiedName: 'John Smith' })]);
    expect(html).toContain('data-name-match="mismatch"');
    expect(html).toContain('Name differs');
    expect(html).toContain('title="Requested “Jane”, identified “John”"');
    expect(html).toContain('John Smith');
  });

  it('once staff have decided, shows the decision in place of "Name differs", keeping the reason', async () => {
    const mismatch = { status: 'completed' as const, name: 'Jane Smith', identifiedName: 'John Smith' };
    const same = await render([entry({ ...mismatch, reviewDecision: 'same_person' })]);
    expect(same).toContain('data-name-review="same_person"');
    expect(same).toContain('Reviewed: same person');
    expect(same).not.toContain('Name differs');
    expect(same).toContain('title="Requested “Jane”, identified “John”"');
    const different = await render([entry({ ...mismatch, reviewDecision: 'different_person' })]);
    expect(different).toContain('Reviewed: not the same person');
    expect(different).not.toContain('Name differs');
  });

  it('marks a tolerable difference as a match, quietly', async () => {
    const html = await render([entry({ status: 'completed', name: 'J. Smith', identifiedName: 'JOHN SMITH' })]);
    expect(html).toContain('data-name-match="match"');
    expect(html).not.toContain('Name differs');
    expect(html).toContain('Names match: Same name, with initials');
  });

  it('compares only completed requests, and says when there is no identified name yet', async () => {
    expect(await render([entry({ status: 'failed', name: 'Jane Doe', identifiedName: 'John Smith' })])).not.toContain('data-name-match');
    expect(await render([entry()])).toContain('Not yet identified');
    expect(await render([entry({ status: 'expired' })])).toContain('Not identified');
    expect(await render([entry({ status: 'completed' })])).toContain('Not recorded here');
  });

  it('shows how long an expiring request has left, and a stuck one', async () => {
    expect(await render([entry({ accessExpiresAt: at(5 * HOUR + 59 * 60_000), createdAt: at(-6 * 24 * HOUR) })])).toContain(
      'expires in 5 hours',
    );
    expect(await render([entry({ accessExpiresAt: at(3 * 24 * HOUR), createdAt: at(-4 * 24 * HOUR) })])).toContain(
      'Past half its validity',
    );
    const fresh = await render([entry()]);
    expect(fresh).not.toContain('expires in');
    expect(fresh).not.toContain('Past half');
  });

  it('offers the copy button only to roles allowed to copy, while the request is pending and unexpired', async () => {
    const copy = 'Copy link for John Smith';
    expect(await render([entry()])).toContain(copy);
    expect(await render([entry()], { showLinks: false })).not.toContain(copy);
    expect(await render([entry({ status: 'completed' })])).not.toContain(copy);
    expect(await render([entry({ accessExpiresAt: at(0) })])).not.toContain(copy);
    expect(await render([entry({ link: null })])).not.toContain(copy);
  });

  it('renders names as text', async () => {
    const html = await render([
      entry({ status: 'completed', name: '<script>alert(1)</script>', identifiedName: '<img src=x onerror=alert(1)>' }),
    ]);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
  });

  it('says why the list is empty', async () => {
    expect(await render([], { filtered: true })).toContain('No requests match these filters.');
    expect(await render([], { view: 'expiring' })).toContain('No pending request expires within the next 24 hours.');
    expect(await render([])).toContain('No requests here yet');
  });

  it('invites to create only those who may: a viewer is not asked to create', async () => {
    expect(await render([])).toContain('Create a verification request');
    const forViewer = await render([], { canCreate: false });
    expect(forViewer).toContain('Requests your team creates appear here');
    expect(forViewer).not.toMatch(/create a verification request|requests you create/i);
  });

  it("labels every value with its column's header for the phone layout; the copy button's cell spans the card", async () => {
    const html = await render([entry()]);
    const text = (markup: string) => markup.replace(/<[^>]+>/g, '').trim();
    const headers = [...html.matchAll(/<th[^>]*>(.*?)<\/th>/g)].map((match) => text(match[1] ?? ''));
    const cells = [...html.matchAll(/<td([^>]*)>/g)].map((match) => /data-label="([^"]*)"/.exec(match[1] ?? '')?.[1]);
    expect(cells).toHaveLength(headers.length);
    expect(cells).toEqual([...headers.slice(0, -1), undefined]);
    expect(headers.at(-1)).toBe('Link');
  });

  it('keeps a long purpose to two lines, with the whole text in its title and in the cell, marked as not ours to translate', async () => {
    const purpose = 'Renewal of the supplier agreement for the northern warehouses, including the transport subcontractors';
    const html = await render([entry({ purpose })]);
    expect(html).toContain(`<span class="line-clamp-2" title="${purpose}" translate="no">${purpose}</span>`);
  });
});

describe('RecentRequests: who, when completed, and follow-ups', () => {
  it('names the creator as user data, or says the account was deleted', async () => {
    const html = await render([
      entry({ verificationId: 'by-ada' }),
      entry({ verificationId: 'gone', createdBy: null, createdByName: null }),
    ]);
    expect(html).toContain(
      '<td data-label="Created by" class="max-w-40 px-4 py-3 break-words text-slate-700"><span translate="no">Ada Admin</span></td>',
    );
    expect(html).toContain('<span class="text-slate-500">deleted account</span>');
  });

  it('names the assignee in a column of its own as user data, or says "Unassigned", in each language', async () => {
    const rows = [
      entry({ verificationId: 'taken', assignedTo: 'staff-2', assigneeName: 'Otto Operator' }),
      entry({ verificationId: 'free' }),
    ];
    const html = await render(rows);
    const headers = [...html.matchAll(/<th[^>]*>(.*?)<\/th>/g)].map((match) => match[1]);
    expect(headers.indexOf('Assigned to')).toBe(headers.indexOf('Created by') + 1);
    expect(html).toContain(
      '<td data-label="Assigned to" class="max-w-32 px-4 py-3 break-words text-slate-700"><span translate="no">Otto Operator</span></td>',
    );
    expect(html).toContain(
      '<td data-label="Assigned to" class="max-w-32 px-4 py-3 break-words text-slate-700"><span class="text-slate-500">Unassigned</span></td>',
    );
    const fr = await render(rows, {}, 'fr');
    expect(fr).toContain('data-label="Attribuée à"');
    expect(fr).toContain('<span class="text-slate-500">Non attribuée</span>');
    const nl = await render(rows, {}, 'nl');
    expect(nl).toContain('data-label="Toegewezen aan"');
    expect(nl).toContain('<span class="text-slate-500">Niet toegewezen</span>');
  });

  it('shows when a request was completed, in the display zone, and "Not completed" before', async () => {
    const html = await render([
      entry({
        verificationId: 'done',
        status: 'completed',
        identifiedName: 'John Smith',
        completedAt: new Date('2030-06-15T10:30:00.000Z'),
      }),
      entry({ verificationId: 'waiting' }),
    ]);
    const completedCells = [...html.matchAll(/<td data-label="Completed"[^>]*>(.*?)<\/td>/g)].map((match) =>
      (match[1] ?? '').replace(/<[^>]+>/g, ''),
    );
    expect(completedCells).toEqual(['15 Jun 2030 10:30 UTC', 'Not completed']);
  });

  it('shows "Purged" once kept_until has passed, whatever it last was, until the register removes the row', async () => {
    const html = await render([
      entry({ verificationId: 'gone', status: 'completed', identifiedName: 'John Smith', keptUntil: at(-HOUR) }),
      entry({ verificationId: 'due-now', status: 'expired', keptUntil: NOW }),
      entry({ verificationId: 'kept', status: 'completed', identifiedName: 'John Smith', keptUntil: at(HOUR) }),
    ]);
    const statusCells = [...html.matchAll(/<td data-label="Status"[^>]*>(.*?)<\/td>/g)].map((match) =>
      (match[1] ?? '').replace(/<[^>]+>/g, ''),
    );
    expect(statusCells).toEqual(['Purged', 'Purged', 'Completed']);
    expect(html).toContain('data-status="purged"');
    const fr = await render([entry({ status: 'completed', keptUntil: at(-HOUR) })], {}, 'fr');
    expect(fr).toContain('Supprimée définitivement');
    const nl = await render([entry({ status: 'completed', keptUntil: at(-HOUR) })], {}, 'nl');
    expect(nl).toContain('Definitief verwijderd');
  });

  it('says that a request follows up an earlier one, and that the earlier one was followed up, each linking to the other', async () => {
    const earlier = '7d0c52a6-1c3e-4f1e-9a39-5d7c2c1b9e01';
    const later = 'b41f9e30-62a1-4c8e-8f55-0d2b6f7a3c11';
    const html = await render([
      entry({ verificationId: later, followsVerificationId: earlier }),
      entry({ verificationId: earlier, status: 'expired', followedUpBy: later }),
    ]);
    expect(html).toContain(
      `Follows up <a class="font-mono text-indigo-700 underline underline-offset-2" aria-label="Request ${earlier}" title="${earlier}" href="/verifications/${earlier}">7d0c52a6…</a>`,
    );
    expect(html).toContain(
      `Followed up by <a class="font-mono text-indigo-700 underline underline-offset-2" aria-label="Request ${later}" title="${later}" href="/verifications/${later}">b41f9e30…</a>`,
    );
    // A request on its own says neither.
    expect(await render([entry()])).not.toMatch(/Follow(s|ed) up/);
  });
});

describe('expiresInText', () => {
  it.each([
    [24 * HOUR, 'expires in 1 day'],
    [23 * HOUR + 59 * 60_000, 'expires in 23 hours'],
    [HOUR, 'expires in 1 hour'],
    [59 * 60_000 + 59_000, 'expires in 59 minutes'],
    [1, 'expires in 1 second'],
  ])('%i ms → %s', (left, text) => {
    expect(expiresInText(at(left), NOW)).toBe(text);
  });

  it('says what the detail page says of the same deadline at the same moment', async () => {
    for (const left of [5 * HOUR + 59 * 60_000, 23 * HOUR + 40 * 60_000, 90_000]) {
      expect(expiresInText(at(left), NOW)).toBe(`expires ${relativeTime(at(left).toISOString(), NOW.getTime())}`);
    }
  });
});

describe('RecentRequests times', () => {
  it('shows when each request was created on a 24-hour clock, in the display zone, with its name', async () => {
    // The page's zone, passed by the page: formatted on the server, whatever zone the client's provider holds.
    const html = renderToStaticMarkup(
      await inLanguage(
        <TimeZoneProvider timeZone="Europe/Brussels" fixed>
          <RecentRequests
            entries={[entry({ createdAt: new Date('2030-06-15T17:05:00.000Z') })]}
            now={NOW}
            showLinks
            canCreate
            caption="Requests"
            timeZone="America/New_York"
          />
        </TimeZoneProvider>,
      ),
    );
    expect(html).toContain('15 Jun 2030</span> <span class="block whitespace-nowrap text-slate-500">13:05 EDT');
    expect(html).not.toMatch(/\b[AP]M\b/);
  });
});

describe('RegisterViews', () => {
  it('marks the active view, keeps the other filters in each link, and shows the counts', async () => {
    const html = renderToStaticMarkup(
      await inLanguage(<RegisterViews filter={{ q: 'smith', view: 'stuck' }} counts={{ expiring: 2, stuck: 0 }} />),
    );
    expect(html).toMatch(/<a[^>]*aria-current="page"[^>]*>Stuck/);
    expect(html).toContain('href="/?q=smith"');
    expect(html).toContain('href="/?q=smith&amp;view=expiring"');
    expect(html).toContain('<span class="sr-only">(</span>2<span class="sr-only">)</span>');
  });
});

describe('RegisterFilters', () => {
  it('offers the assignee filter in the GET form: all, me, nobody, or a colleague by name, with the chosen one selected', async () => {
    const staff = [
      { id: 'staff-1', label: 'Ada Admin' },
      { id: 'staff-2', label: 'Otto Operator' },
    ];
    const select = async (filter: Parameters<typeof RegisterFilters>[0]['filter']) => {
      const html = renderToStaticMarkup(await inLanguage(<RegisterFilters filter={filter} staff={staff} timeZone="UTC" />));
      expect(html).toMatch(/<form[^>]*method="get"/);
      expect(html).toContain('<label for="register-assignee"');
      return /<select[^>]*name="assignee"[^>]*>(.*?)<\/select>/.exec(html)?.[1] ?? '';
    };
    const options = await select({});
    expect([...options.matchAll(/<option value="([^"]*)"[^>]*>([^<]*)</g)].map((match) => [match[1], match[2]])).toEqual([
      ['', 'All requests'],
      ['mine', 'Me'],
      ['unassigned', 'Nobody (unassigned)'],
      ['staff-1', 'Ada Admin'],
      ['staff-2', 'Otto Operator'],
    ]);
    expect(options).toContain('<option value="staff-2" translate="no">Otto Operator</option>');
    expect(await select({ assignee: 'unassigned' })).toContain('<option value="unassigned" selected="">');
    expect(await select({ assignee: 'staff-2' })).toContain('<option value="staff-2" translate="no" selected="">');
  });
});

describe('in French and Dutch', () => {
  it("words the deadline, the name check and the purpose in the reader's language", async () => {
    const expiring = entry({ accessExpiresAt: at(5 * HOUR + 59 * 60_000), createdAt: at(-6 * 24 * HOUR) });
    const mismatch = entry({ verificationId: 'id-2', status: 'completed', name: 'Jane Smith', identifiedName: 'John Smith' });
    const fr = await render([expiring, mismatch], {}, 'fr');
    expect(fr).toContain('expire dans 5 heures');
    expect(fr).toContain('Divergence de nom');
    expect(fr).toContain('Obligation légale');
    const nl = await render([expiring, mismatch], {}, 'nl');
    expect(nl).toContain('verloopt over 5 uur');
    expect(nl).toContain('Naamsverschil');
    expect(nl).toContain('Wettelijke verplichting');
  });

  it("names the quick views in the reader's language", async () => {
    const html = renderToStaticMarkup(await inLanguage(<RegisterViews filter={{ view: 'stuck' }} counts={{}} />, 'fr'));
    expect(html).toMatch(/<a[^>]*aria-current="page"[^>]*>Au point mort/);
    expect(html).toContain('À contrôler');
  });
});
