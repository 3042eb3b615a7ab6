// The "Export CSV" link of a list page. A plain anchor with `download`: the answer is a file, so
// there is no page to navigate to (next/link would try to), and the browser keeps the current page.
// Beside it, the file's other formats (docs/exports.md): the separator the exporter's language
// does not choose, and codes instead of words, in a disclosure that works without JavaScript.
import { getLocale, getTranslations } from 'next-intl/server';
import { buttonClasses } from '@/components/ui/button';
import { defaultDelimiterFor, withFormat } from '@/lib/export/export-format';
import { DEFAULT_LANGUAGE, isLanguage } from '@/lib/i18n/languages';

type Props = {
  href: string;
  /** What the file holds, for assistive technology and the tooltip ("the requests shown, with these filters"). */
  description: string;
  /** Offer codes instead of words (the register; the audit trail's file holds codes anyway). */
  offerCodes?: boolean;
  /** The link's words, when "Export CSV" does not say what the file is (the overview's figures). */
  label?: string;
};

const optionLinkClasses = 'block rounded px-2 py-1 text-slate-700 hover:bg-slate-100 hover:text-slate-900';

export async function ExportCsvLink({ href, description, offerCodes = false, label }: Props) {
  const [t, locale] = await Promise.all([getTranslations('exports.link'), getLocale()]);
  const usual = defaultDelimiterFor(isLanguage(locale) ? locale : DEFAULT_LANGUAGE);
  const other = usual === 'comma' ? 'semicolon' : 'comma';
  return (
    <div className="relative flex max-w-full flex-wrap items-center gap-1">
      <a href={href} download title={description} className={buttonClasses('secondary', 'sm')}>
        <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-4 text-slate-500">
          <path d="M10.75 2.75a.75.75 0 0 0-1.5 0v8.614L6.295 8.235a.75.75 0 1 0-1.09 1.03l4.25 4.5a.75.75 0 0 0 1.09 0l4.25-4.5a.75.75 0 0 0-1.09-1.03l-2.955 3.129V2.75Z" />
          <path d="M3.5 12.75a.75.75 0 0 0-1.5 0v2.5A2.75 2.75 0 0 0 4.75 18h10.5A2.75 2.75 0 0 0 18 15.25v-2.5a.75.75 0 0 0-1.5 0v2.5c0 .69-.56 1.25-1.25 1.25H4.75c-.69 0-1.25-.56-1.25-1.25v-2.5Z" />
        </svg>
        {label ?? t('label')}
      </a>
      <details className="group">
        <summary className={`${buttonClasses('ghost', 'sm')} cursor-pointer list-none [&::-webkit-details-marker]:hidden`}>
          {t('options')}
        </summary>
        <div className="absolute right-0 z-10 mt-1 w-64 max-w-[calc(100vw-2rem)] space-y-1 rounded-md border border-slate-200 bg-white p-2 text-sm shadow-lg">
          <p className="px-2 pb-1 text-xs text-slate-600">
            {t('optionsHint', { separator: usual === 'comma' ? t('separatorComma') : t('separatorSemicolon') })}
          </p>
          <a href={withFormat(href, { delimiter: other })} download className={optionLinkClasses}>
            {other === 'comma' ? t('commas') : t('semicolons')}
          </a>
          {offerCodes ? (
            <a href={withFormat(href, { values: 'codes' })} download className={optionLinkClasses}>
              {t('codes')}
            </a>
          ) : null}
        </div>
      </details>
    </div>
  );
}
