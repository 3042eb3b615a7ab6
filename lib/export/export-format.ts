// How an export file is written, beside what it holds: the cell separator and whether values are
// words in the exporter's language or the codes the register stores. Each has a default that
// follows the exporter's language, and a query parameter that overrides it (docs/exports.md).
// Client-safe: the export links offer the choices.
import type { Language } from '@/lib/i18n/languages';
import type { CsvDelimiter } from './csv';

export const DELIMITER_PARAM = 'delimiter';
export const VALUES_PARAM = 'values';

const DELIMITERS = { comma: ',', semicolon: ';' } as const satisfies Record<string, CsvDelimiter>;
export type DelimiterName = keyof typeof DELIMITERS;
export type ValuesChoice = 'words' | 'codes';

export type ExportFormat = { delimiter: CsvDelimiter; values: ValuesChoice };

/** Spreadsheets set to French or Dutch read the comma as the decimal separator; English ones do not. */
export function defaultDelimiterFor(language: Language): DelimiterName {
  return language === 'en' ? 'comma' : 'semicolon';
}

type Params = Record<string, string | string[] | undefined>;

function first(params: Params, key: string): string | undefined {
  const value = params[key];
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || text.trim() === '' ? undefined : text.trim();
}

/**
 * The format asked for, or the exporter's language's defaults. A value that is not one of the
 * choices is a problem (the export refuses it, as it refuses a filter it cannot read).
 */
export function readExportFormat(params: Params, language: Language): { format: ExportFormat; problems: ('delimiter' | 'values')[] } {
  const problems: ('delimiter' | 'values')[] = [];
  const delimiterName = first(params, DELIMITER_PARAM) ?? defaultDelimiterFor(language);
  if (!(delimiterName in DELIMITERS)) problems.push('delimiter');
  const values = first(params, VALUES_PARAM) ?? 'words';
  if (values !== 'words' && values !== 'codes') problems.push('values');
  return {
    format: {
      delimiter: DELIMITERS[delimiterName as DelimiterName] ?? DELIMITERS[defaultDelimiterFor(language)],
      values: values === 'codes' ? 'codes' : 'words',
    },
    problems,
  };
}

/** The query without the format's parameters, for the filter parsers. */
export function withoutFormat(params: Params): Params {
  const { [DELIMITER_PARAM]: _delimiter, [VALUES_PARAM]: _values, ...rest } = params;
  return rest;
}

/** `href` with one format parameter set (the export links' choices). */
export function withFormat(href: string, choice: { delimiter?: DelimiterName; values?: ValuesChoice }): string {
  const [path, query = ''] = href.split('?', 2) as [string, string?];
  const params = new URLSearchParams(query);
  if (choice.delimiter) params.set(DELIMITER_PARAM, choice.delimiter);
  if (choice.values) params.set(VALUES_PARAM, choice.values);
  return `${path}?${params.toString()}`;
}
