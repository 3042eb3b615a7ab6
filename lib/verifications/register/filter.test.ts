// Reading the register's filter from a query string and writing it back: every filter, bad
// values dropped one by one with a reason, and the round trip through registerQuery. Pure: no
// database.
import { describe, expect, it } from 'vitest';
import { readAssigneeFilter } from '@/lib/verifications/assignment/assignee-filter';
import { filterForView, hasActiveFilters, MINE, parseRegisterFilter, type RegisterFilter, registerQuery, UNASSIGNED } from './filter';

const OTTO = 'staff-otto';

describe('parseRegisterFilter', () => {
  it('reads nothing from an empty query, or from the empty fields a GET form sends', () => {
    expect(parseRegisterFilter({})).toEqual({ filter: {}, problems: [] });
    expect(parseRegisterFilter({ q: '', status: '', purpose: ' ', createdBy: '', from: '', to: '', view: '' })).toEqual({
      filter: {},
      problems: [],
    });
  });

  it('reads every filter', () => {
    const { filter, problems } = parseRegisterFilter({
      q: '  Alice  ',
      status: 'completed',
      purpose: 'custom',
      createdBy: 'mine',
      from: '2030-01-01',
      to: '2030-01-31',
      view: 'stuck',
    });
    expect(problems).toEqual([]);
    expect(filter).toEqual({
      q: 'Alice',
      status: 'completed',
      purpose: 'custom',
      createdBy: 'mine',
      from: '2030-01-01',
      to: '2030-01-31',
      view: 'stuck',
    });
  });

  it('drops each bad value with a problem for it and keeps the good ones', () => {
    const { filter, problems } = parseRegisterFilter({
      q: 'x'.repeat(201),
      status: 'approved',
      purpose: 'something else',
      createdBy: 'a b',
      from: '2030-13-45',
      to: '2030-02-30',
      view: 'urgent',
      unknown: 'ignored',
    });
    expect(filter).toEqual({});
    expect(problems.map((p) => p.field).sort()).toEqual(['createdBy', 'from', 'purpose', 'q', 'status', 'to', 'view']);
    expect(problems.every((p) => p.message.length > 0)).toBe(true);

    const partly = parseRegisterFilter({ status: 'pending', from: 'yesterday' });
    expect(partly.filter).toEqual({ status: 'pending' });
    expect(partly.problems).toEqual([{ field: 'from', message: expect.stringContaining('YYYY-MM-DD') }]);
  });

  it.each(['0000-01-01', '1969-12-31', '9999-12-31', '2030-1-1', '2030-01-01T00:00:00Z', '20300101'])('refuses the date %s', (day) => {
    expect(parseRegisterFilter({ from: day }).problems.map((p) => p.field)).toEqual(['from']);
  });

  it('refuses a staff id no account could have', () => {
    for (const createdBy of ['x'.repeat(101), 'nul\u0000byte', 'tab\there', 'é']) {
      expect(parseRegisterFilter({ createdBy }).problems.map((p) => p.field)).toEqual(['createdBy']);
    }
    expect(parseRegisterFilter({ createdBy: 'x'.repeat(100) }).filter.createdBy).toBe('x'.repeat(100));
  });

  it('reads the assignee as the queue does: mine, unassigned or a staff id, and refuses what no id could be', () => {
    expect(parseRegisterFilter({ assignee: 'mine' })).toEqual({ filter: { assignee: 'mine' }, problems: [] });
    expect(parseRegisterFilter({ assignee: 'unassigned' })).toEqual({ filter: { assignee: 'unassigned' }, problems: [] });
    expect(parseRegisterFilter({ assignee: OTTO, createdBy: 'mine' }).filter).toEqual({ assignee: OTTO, createdBy: 'mine' });
    expect(parseRegisterFilter({ assignee: '' })).toEqual({ filter: {}, problems: [] });
    for (const assignee of ['x'.repeat(101), 'nul\u0000byte', 'two words', 'é']) {
      const parsed = parseRegisterFilter({ assignee, status: 'pending' });
      expect(parsed.filter).toEqual({ status: 'pending' });
      expect(parsed.problems).toEqual([{ field: 'assignee', message: expect.stringContaining('assignee was not recognised') }]);
    }
    // One vocabulary with the queue's `?assignee=`: a link means the same on both pages.
    expect(readAssigneeFilter(MINE)).toBe('mine');
    expect(readAssigneeFilter(UNASSIGNED)).toBe('unassigned');
    expect(readAssigneeFilter(OTTO)).toEqual({ staffId: OTTO });
  });

  it('turns control characters in the search into spaces (Postgres refuses NUL)', () => {
    expect(parseRegisterFilter({ q: 'Ali\u0000ce\n' }).filter.q).toBe('Ali ce');
    expect(parseRegisterFilter({ q: '\u0000' })).toEqual({ filter: {}, problems: [expect.objectContaining({ field: 'q' })] });
  });

  it('takes the first of repeated parameters', () => {
    expect(parseRegisterFilter({ status: ['failed', 'pending'] }).filter).toEqual({ status: 'failed' });
  });

  it('swaps reversed dates, drops view=all, and reads the old ?scope=mine', () => {
    expect(parseRegisterFilter({ from: '2030-02-01', to: '2030-01-01', view: 'all' }).filter).toEqual({
      from: '2030-01-01',
      to: '2030-02-01',
    });
    expect(parseRegisterFilter({ scope: 'mine' }).filter).toEqual({ createdBy: 'mine' });
    expect(parseRegisterFilter({ scope: 'mine', createdBy: OTTO }).filter).toEqual({ createdBy: OTTO });
  });

  it('round-trips through registerQuery', () => {
    const filter: RegisterFilter = {
      q: '50% & more',
      status: 'pending',
      purpose: 'ensuring_compliance',
      createdBy: OTTO,
      assignee: UNASSIGNED,
      from: '2030-01-01',
      to: '2030-01-02',
      view: 'expiring',
    };
    const query = registerQuery(filter);
    const params = Object.fromEntries(new URLSearchParams(query.slice(1)));
    expect(parseRegisterFilter(params)).toEqual({ filter, problems: [] });
    expect(registerQuery({})).toBe('');
    expect(registerQuery({ view: 'all' })).toBe('');
  });

  it('knows whether anything narrows the list (the view alone does not count)', () => {
    expect(hasActiveFilters({})).toBe(false);
    expect(hasActiveFilters({ view: 'stuck' })).toBe(false);
    expect(hasActiveFilters({ createdBy: 'mine' })).toBe(true);
    expect(hasActiveFilters({ assignee: 'unassigned' })).toBe(true);
    // The status a view implies is the view's, not a filter staff added.
    expect(hasActiveFilters({ view: 'expiring', status: 'pending' })).toBe(false);
    expect(hasActiveFilters({ status: 'pending' })).toBe(true);
  });

  it('the "Expiring soon" view sets the status it implies, and says so when another was asked for', () => {
    expect(parseRegisterFilter({ view: 'expiring' })).toEqual({ filter: { view: 'expiring', status: 'pending' }, problems: [] });
    const conflicting = parseRegisterFilter({ view: 'expiring', status: 'completed' });
    expect(conflicting.filter).toEqual({ view: 'expiring', status: 'pending' });
    expect(conflicting.problems).toEqual([
      { field: 'status', message: 'The “Expiring soon” view lists pending requests only, so the status is set to Pending.' },
    ]);
    // The other views leave the status alone.
    expect(parseRegisterFilter({ view: 'stuck' }).filter).toEqual({ view: 'stuck' });
    expect(parseRegisterFilter({ status: 'failed' }).filter).toEqual({ status: 'failed' });
  });

  it('leaves an implied status behind when switching views, and keeps one staff chose', () => {
    expect(filterForView({ view: 'expiring', status: 'pending', q: 'ann' }, 'all')).toEqual({ view: 'all', status: undefined, q: 'ann' });
    expect(filterForView({ status: 'pending' }, 'stuck')).toEqual({ view: 'stuck', status: 'pending' });
    expect(registerQuery(filterForView({ view: 'expiring', status: 'pending' }, 'all'))).toBe('');
  });
});
