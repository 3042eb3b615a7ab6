// Reading a page link's cursor (lib/db/keyset.ts): what counts as one, so that nothing that passes
// can make the page's query fail, and writing page links that keep the filters. Pure; the pages
// themselves are tested on a database in the register's and the audit trail's query tests.
import { describe, expect, it } from 'vitest';
import { parseCursor, readPagePosition, withPosition } from './keyset';

const TIME_ID = ['time', 'text'] as const;
const UUID = '0b9e8a52-6f3c-4e61-9a3e-2f9d3c6b1a00';

describe('page cursors', () => {
  it('reads the sort values, the id taking the rest (an opaque id may hold a ~)', () => {
    expect(parseCursor('2026-03-01T09:15:02.123456Z~v-1', TIME_ID)).toEqual(['2026-03-01T09:15:02.123456Z', 'v-1']);
    expect(parseCursor('2026-03-01T09:15:02.123456Z~a~b', TIME_ID)).toEqual(['2026-03-01T09:15:02.123456Z', 'a~b']);
    expect(parseCursor('2026-03-02T00:00:00.000000Z~2024-02-29T23:59:59.999999Z~x', ['time', 'time', 'text'])).toHaveLength(3);
    expect(parseCursor(`2026-03-01T09:15:02.123456Z~${UUID}`, ['time', 'uuid'])).toEqual(['2026-03-01T09:15:02.123456Z', UUID]);
  });

  it.each([
    ['no separator', 'page-2', TIME_ID],
    ['milliseconds only', '2026-03-01T09:15:02.123Z~v-1', TIME_ID],
    ['no such day', '2026-02-29T09:15:02.123456Z~v-1', TIME_ID],
    ['no such month', '2026-13-01T09:15:02.123456Z~v-1', TIME_ID],
    ['hour 24', '2026-03-01T24:00:00.000000Z~v-1', TIME_ID],
    ['a leap second', '2026-03-01T23:59:60.000000Z~v-1', TIME_ID],
    ['year 0, which Postgres has not', '0000-03-01T09:15:02.123456Z~v-1', TIME_ID],
    ['not in UTC', '2026-03-01T09:15:02.123456+01:00~v-1', TIME_ID],
    ['no id', '2026-03-01T09:15:02.123456Z~', TIME_ID],
    ['a control character in the id', '2026-03-01T09:15:02.123456Z~v\u0000', TIME_ID],
    ['an id longer than any', `2026-03-01T09:15:02.123456Z~${'v'.repeat(201)}`, TIME_ID],
    ['too few values for the view', '2026-03-01T09:15:02.123456Z~v-1', ['time', 'time', 'text'] as const],
    ['an audit id that is no UUID', '2026-03-01T09:15:02.123456Z~not-a-uuid', ['time', 'uuid'] as const],
  ])('refuses a cursor with %s', (_case, text, kinds) => {
    expect(parseCursor(text, kinds)).toBeUndefined();
    expect(readPagePosition({ after: text }, kinds)).toEqual({ problem: true });
  });

  it('reads the position from the query string: none, after, or before', () => {
    const text = '2026-03-01T09:15:02.123456Z~v-1';
    expect(readPagePosition({}, TIME_ID)).toEqual({ problem: false });
    // An old offset link, or an empty field, is no cursor and no problem: the first page.
    expect(readPagePosition({ page: '3', after: '' }, TIME_ID)).toEqual({ problem: false });
    expect(readPagePosition({ after: text }, TIME_ID).cursor).toEqual({ side: 'after', values: text.split('~') });
    expect(readPagePosition({ before: [text, 'x'] }, TIME_ID).cursor).toEqual({ side: 'before', values: text.split('~') });
  });

  it('writes page links that keep the filters', () => {
    expect(withPosition('?q=dubo&view=stuck', { after: '2026-03-01T09:15:02.123456Z~v-1' })).toBe(
      '?q=dubo&view=stuck&after=2026-03-01T09%3A15%3A02.123456Z%7Ev-1',
    );
    expect(withPosition('', { before: 'x~y' })).toBe('?before=x%7Ey');
    expect(withPosition('?q=a', {})).toBe('?q=a');
  });
});
