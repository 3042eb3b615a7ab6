// The overview's figures as CSV rows, in long form: one figure per row (section, item, status,
// value), so that a spreadsheet's pivot table or filter takes any section apart without
// reshaping, and every value column holds numbers only. Open items add their oldest one's time
// in a column of its own. Words in the exporter's language, or the codes with values=codes
// (docs/exports.md). Staff names appear in the open-items section only, as on the page.
import 'server-only';
import { getTranslations } from 'next-intl/server';
import { NAME_REVIEW_DECISIONS } from '@/lib/db/name-review-decisions';
import type { OverviewFigures } from '@/lib/overview/figures.server';
import { bucketsOf, daysBetween, type Period } from '@/lib/overview/period';
import { verificationStatuses } from '@/lib/verification-service/contract/verification-status';
import type { CsvCell, CsvDelimiter } from './csv';
import type { ValuesChoice } from './export-format';
import { zoneLabel } from './sql-rows';

/** The sections in the file's order; each is `exports.overview.section.<code>` in words. */
export const OVERVIEW_SECTIONS = [
  'period',
  'created_per_day',
  'created_per_week',
  'totals',
  'completion',
  'failure_reasons',
  'methods',
  'name_mismatches',
  'open_items',
] as const;
type Section = (typeof OVERVIEW_SECTIONS)[number];

const KNOWN_METHODS = ['passport', 'id_card', 'drivers_license'] as const;
const COMPLETION_ITEMS = ['completion_rate', 'median_seconds', 'p90_seconds'] as const;

export type OverviewCsvRow = {
  section: Section;
  /** The bucket, reason, method, decision, completion figure or assignee's staff id, as a code. */
  item: string | null;
  /** Created rows: the requests' status now. */
  status?: string;
  value: number | null;
  /** Open items: the assignee's name (the page shows it) and the oldest item's creation. */
  name?: string | null;
  oldest?: string;
};

/**
 * An instant as ISO 8601 in `timeZone` with that moment's offset, to the millisecond, as the other
 * exports write times ("2030-06-15T14:00:00.000+02:00"; "Z" in UTC).
 */
export function zonedIso(at: Date, timeZone: string): string {
  if (zoneLabel(timeZone) === 'UTC') return at.toISOString();
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  const local = `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
  const millis = at.getUTCMilliseconds();
  const offsetMinutes = Math.round((Date.parse(`${local}.000Z`) + millis - at.getTime()) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${local}.${String(millis).padStart(3, '0')}${offset}`;
}

/** Every figure of the page as a row, zero counts included where the page draws them (each bucket's statuses). */
export function overviewCsvRows(period: Period, figures: OverviewFigures, timeZone: string): OverviewCsvRow[] {
  const rows: OverviewCsvRow[] = [
    { section: 'period', item: `${period.firstDay}/${period.lastDay}`, value: daysBetween(period.firstDay, period.lastDay) },
  ];
  const counts = new Map(figures.created.map((row) => [`${row.bucket} ${row.status}`, row.count]));
  const createdSection = period.bucket === 'day' ? 'created_per_day' : 'created_per_week';
  for (const bucket of bucketsOf(period)) {
    for (const status of verificationStatuses) {
      rows.push({ section: createdSection, item: bucket, status, value: counts.get(`${bucket} ${status}`) ?? 0 });
    }
  }
  rows.push({ section: 'totals', item: 'all_created', value: figures.totals.created });
  for (const status of verificationStatuses) rows.push({ section: 'totals', item: null, status, value: figures.totals[status] });
  const seconds = (value: number | null) => (value === null ? null : Math.round(value));
  rows.push(
    {
      section: 'completion',
      item: 'completion_rate',
      value: figures.completionRate === null ? null : Math.round(figures.completionRate * 10_000) / 10_000,
    },
    { section: 'completion', item: 'median_seconds', value: seconds(figures.completionSeconds.median) },
    { section: 'completion', item: 'p90_seconds', value: seconds(figures.completionSeconds.p90) },
  );
  for (const row of figures.failureReasons) rows.push({ section: 'failure_reasons', item: row.reason, value: row.count });
  for (const row of figures.methods) rows.push({ section: 'methods', item: row.method, value: row.count });
  for (const row of figures.mismatches.decisions)
    rows.push({ section: 'name_mismatches', item: row.decision ?? 'undecided', value: row.count });
  for (const row of figures.openItems) {
    rows.push({
      section: 'open_items',
      item: row.assigneeId,
      name: row.assigneeName,
      value: row.count,
      oldest: zonedIso(row.oldestCreatedAt, timeZone),
    });
  }
  return rows;
}

export type OverviewCsvLayout = { header: string[]; toCells: (row: OverviewCsvRow) => CsvCell[] };

/**
 * The header and cells in the exporter's language, or codes. A number with a fraction (the
 * completion rate) is written with the decimal mark the file's separator implies: a comma in a
 * semicolon file, which spreadsheets set to French or Dutch read as a number, a point otherwise.
 */
export async function overviewCsvLayout({
  timeZone,
  values,
  delimiter,
}: {
  timeZone: string;
  values: ValuesChoice;
  delimiter: CsvDelimiter;
}): Promise<OverviewCsvLayout> {
  const [t, tCommon] = await Promise.all([getTranslations('exports.overview'), getTranslations('common')]);
  const header = [
    t('header.section'),
    t('header.item'),
    t('header.status'),
    t('header.value'),
    t('header.oldest', { zone: zoneLabel(timeZone) }),
  ];
  const codes = values === 'codes';
  const words = (entries: [string, string][]) => new Map(codes ? [] : entries);
  const sections = words(OVERVIEW_SECTIONS.map((section) => [section, t(`section.${section}`)]));
  const statuses = words(verificationStatuses.map((status) => [status, tCommon(`status.${status}`)]));
  const completion = words(COMPLETION_ITEMS.map((item) => [item, t(`completion.${item}`)]));
  const methods = words(KNOWN_METHODS.map((method) => [method, tCommon(`method.${method}`)]));
  const decisions = words([
    ...NAME_REVIEW_DECISIONS.map((decision): [string, string] => [decision, tCommon(`nameReviewDecision.${decision}`)]),
    ['undecided', t('undecided')],
  ]);
  const word = (map: Map<string, string>, code: string | null | undefined) => (code == null ? null : (map.get(code) ?? code));
  const number = (value: number | null) =>
    value === null ? null : Number.isInteger(value) || delimiter === ',' ? value : String(value).replace('.', ',');
  const item = (row: OverviewCsvRow): CsvCell => {
    switch (row.section) {
      case 'totals':
        return row.item === 'all_created' && !codes ? t('allCreated') : row.item;
      case 'completion':
        return word(completion, row.item);
      case 'failure_reasons':
        // The service's own text, as it came; a failure without one says so in words.
        return row.item ?? (codes ? null : t('notGiven'));
      case 'methods':
        return row.item === null ? (codes ? null : t('notGiven')) : word(methods, row.item);
      case 'name_mismatches':
        return word(decisions, row.item);
      case 'open_items':
        // The staff id with codes; the name as the page shows it with words.
        return codes ? row.item : (row.name ?? t('unassigned'));
      default:
        return row.item;
    }
  };
  return {
    header,
    toCells: (row) => [word(sections, row.section), item(row), word(statuses, row.status), number(row.value), row.oldest ?? null],
  };
}
