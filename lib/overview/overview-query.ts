// The overview's query string (period, from, to, purpose, language, channel, creator) read once, for
// the page and for its CSV download alike: the period and the filters it asks for, and each value
// that could not be read. The page shows this month and drops a filter it cannot read (saying so
// for the period); the download refuses them instead, since a file must hold what its name and
// filters say. Client-safe: no database (the staff ids are given).
import { isLanguage, type Language } from '@/lib/i18n/languages';
import { isPredefinedPurpose } from '@/lib/verifications/labels';
import { PERIODS, type Period, type PeriodProblem, readPeriod } from './period';

export const OVERVIEW_CHANNELS = ['link', 'email', 'sms'] as const;
export type OverviewChannel = (typeof OVERVIEW_CHANNELS)[number];

/** The register's filters the overview offers; each narrows every figure. */
export type OverviewFilter = { purpose?: string; language?: Language; channel?: OverviewChannel; createdBy?: string };

/** A value of the query that names nothing known; `days`: days given without `period=custom`, which ignores them. */
export type OverviewQueryProblem = 'period' | 'days' | PeriodProblem | 'purpose' | 'language' | 'channel' | 'creator';

export const OVERVIEW_QUERY_KEYS = ['period', 'from', 'to', 'purpose', 'language', 'channel', 'creator'] as const;

type Params = Record<string, string | string[] | undefined>;

/** The first value of `key`, trimmed; an empty value (the form's "Any") is no value. */
function value(params: Params, key: string): string | undefined {
  const raw = params[key];
  const text = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return text ? text : undefined;
}

export function readOverviewQuery(
  params: Params,
  { now, timeZone, staffIds }: { now: Date; timeZone: string; staffIds: readonly string[] },
): { period: Period; filter: OverviewFilter; problems: OverviewQueryProblem[] } {
  const problems: OverviewQueryProblem[] = [];
  const kind = value(params, 'period');
  const from = value(params, 'from');
  const to = value(params, 'to');
  // An unknown period, or days without a custom period, would otherwise silently be this month.
  const knownKind = kind === undefined || (PERIODS as readonly string[]).includes(kind);
  if (!knownKind) problems.push('period');
  else if (kind !== 'custom' && (from !== undefined || to !== undefined)) problems.push('days');
  const { period, problem } = readPeriod({ period: knownKind ? kind : undefined, from, to }, now, timeZone);
  if (problem) problems.push(problem);

  const filter: OverviewFilter = {};
  const purpose = value(params, 'purpose');
  if (purpose !== undefined) {
    if (isPredefinedPurpose(purpose)) filter.purpose = purpose;
    else problems.push('purpose');
  }
  const language = value(params, 'language');
  if (language !== undefined) {
    if (isLanguage(language)) filter.language = language;
    else problems.push('language');
  }
  const channel = value(params, 'channel');
  if (channel !== undefined) {
    if ((OVERVIEW_CHANNELS as readonly string[]).includes(channel)) filter.channel = channel as OverviewChannel;
    else problems.push('channel');
  }
  const creator = value(params, 'creator');
  if (creator !== undefined) {
    if (staffIds.includes(creator)) filter.createdBy = creator;
    else problems.push('creator');
  }
  return { period, filter, problems };
}

/** The query that asks for `period` (unless this month) with `filter`: the page's links and its download. */
export function overviewQuery(period: Pick<Period, 'kind' | 'firstDay' | 'lastDay'>, filter: OverviewFilter): string {
  const query = new URLSearchParams();
  if (period.kind !== 'month') query.set('period', period.kind);
  if (period.kind === 'custom') {
    query.set('from', period.firstDay);
    query.set('to', period.lastDay);
  }
  for (const [key, text] of Object.entries({
    purpose: filter.purpose,
    language: filter.language,
    channel: filter.channel,
    creator: filter.createdBy,
  })) {
    if (text) query.set(key, text);
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}
