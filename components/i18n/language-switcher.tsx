// The language switcher, one click from every page: a button per language, each the form's
// submit. It posts to a server action, so it works without JavaScript too; with it, Next renders
// the same page again in the new language, and what the page's forms hold stays typed.
import { getLocale, getTranslations } from 'next-intl/server';
import { chooseLanguageAction } from '@/lib/account/actions';
import { LANGUAGE_NAMES, LANGUAGES } from '@/lib/i18n/languages';

export async function LanguageSwitcher({ className = '' }: { className?: string }) {
  const [t, current] = await Promise.all([getTranslations('shell.language'), getLocale()]);
  return (
    <form action={chooseLanguageAction} className={className}>
      <fieldset className="flex items-center rounded-md border border-slate-200 p-0.5 text-xs">
        <legend className="sr-only">{t('legend')}</legend>
        {LANGUAGES.map((language) => (
          <button
            key={language}
            type="submit"
            name="language"
            value={language}
            lang={language}
            aria-pressed={language === current}
            title={LANGUAGE_NAMES[language]}
            className="rounded px-1.5 py-1 font-medium uppercase text-slate-600 hover:bg-slate-100 hover:text-slate-900 aria-pressed:bg-indigo-50 aria-pressed:text-indigo-700"
          >
            <span aria-hidden="true">{language}</span>
            <span className="sr-only">{LANGUAGE_NAMES[language]}</span>
          </button>
        ))}
      </fieldset>
    </form>
  );
}
