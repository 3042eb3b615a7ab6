// The overview's query read once for the page and its download: what it asks for, and every value
// it names that is not known, so that the download can refuse what the page quietly drops.
import { describe, expect, it } from 'vitest';
import { overviewQuery, readOverviewQuery } from './overview-query';

const NOW = new Date('2026-11-28T23:30:00.000Z');
const context = { now: NOW, timeZone: 'Europe/Brussels', staffIds: ['staff-1', 'staff-2'] };

describe('readOverviewQuery', () => {
  it('reads every filter it knows, and an empty value (the form’s “Any”) as no filter', () => {
    const { period, filter, problems } = readOverviewQuery(
      { period: '30d', purpose: 'legal_obligations', language: ['fr', 'nl'], channel: ' sms ', creator: 'staff-2' },
      context,
    );
    expect(period).toMatchObject({ kind: '30d', firstDay: '2026-10-31', lastDay: '2026-11-29' });
    expect(filter).toEqual({ purpose: 'legal_obligations', language: 'fr', channel: 'sms', createdBy: 'staff-2' });
    expect(problems).toEqual([]);
    expect(readOverviewQuery({ purpose: '', language: '', channel: '', creator: '' }, context)).toMatchObject({
      filter: {},
      problems: [],
    });
  });

  it('names each filter that names nothing known, and leaves it out of the filter', () => {
    const { filter, problems } = readOverviewQuery({ purpose: 'fun', language: 'de', channel: 'fax', creator: 'somebody-else' }, context);
    expect(filter).toEqual({});
    expect(problems).toEqual(['purpose', 'language', 'channel', 'creator']);
  });

  it('names an unknown period, days without a custom period, and custom days it cannot use, each falling back to this month', () => {
    const month = { kind: 'month', firstDay: '2026-11-01', lastDay: '2026-11-29' };
    expect(readOverviewQuery({ period: 'year' }, context)).toMatchObject({ period: month, problems: ['period'] });
    expect(readOverviewQuery({ period: 'quarter', from: '2026-01-01' }, context)).toMatchObject({
      period: { kind: 'quarter' },
      problems: ['days'],
    });
    expect(readOverviewQuery({ period: 'custom', from: '2026-13-01', to: '2026-11-02' }, context)).toMatchObject({
      period: month,
      problems: ['from'],
    });
    expect(readOverviewQuery({ period: 'custom', from: '2026-11-03', to: '2026-11-02' }, context).problems).toEqual(['order']);
    expect(readOverviewQuery({ period: 'custom', from: '2020-01-01', to: '2026-11-02' }, context).problems).toEqual(['length']);
    expect(readOverviewQuery({ period: 'custom', from: '2026-11-02', to: '2026-11-08' }, context)).toMatchObject({
      period: { kind: 'custom', firstDay: '2026-11-02', lastDay: '2026-11-08' },
      problems: [],
    });
  });
});

describe('overviewQuery', () => {
  it('writes back what was read, so the page’s download asks for the figures it shows', () => {
    const params = { period: 'custom', from: '2026-11-02', to: '2026-11-08', purpose: 'ensuring_compliance', creator: 'staff-1' };
    const { period, filter } = readOverviewQuery(params, context);
    const query = overviewQuery(period, filter);
    expect(query).toBe('?period=custom&from=2026-11-02&to=2026-11-08&purpose=ensuring_compliance&creator=staff-1');
    expect(readOverviewQuery(Object.fromEntries(new URLSearchParams(query)), context)).toMatchObject({ period, filter, problems: [] });
    // This month is the page's plain address.
    expect(overviewQuery(readOverviewQuery({}, context).period, {})).toBe('');
  });
});
