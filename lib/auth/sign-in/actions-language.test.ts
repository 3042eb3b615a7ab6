// The sign-in page's forms answer in the language of the person who posted them: the schema's
// messages and the throttle's wait, whose minutes are an ICU plural in each language.
import { afterEach, describe, expect, it } from 'vitest';
import type { Translate } from '@/lib/i18n/translate';
import { answerInLanguage, getTranslations } from '@/test/support/next-intl-server';
import { setupAction, signInAction } from './actions';

const translator = async (locale: 'en' | 'fr' | 'nl') =>
  (await getTranslations({ locale, namespace: 'auth.actions' })) as unknown as Translate;

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

afterEach(() => answerInLanguage('en'));

describe('the sign-in forms in French and Dutch', () => {
  it('says a mistyped form’s field errors in French', async () => {
    answerInLanguage('fr');
    const answer = await signInAction({ status: 'idle', values: { email: '' } }, form({ email: 'Not An Address', password: '' }));
    expect(answer.status).toBe('failed');
    expect(answer.status === 'failed' && answer.fieldErrors).toEqual({
      email: ['Saisissez une adresse e-mail valide, par exemple nom@example.com.'],
      password: ['Saisissez votre mot de passe.'],
    });
  });

  it('says the setup form’s mismatch in Dutch', async () => {
    answerInLanguage('nl');
    const password = 'correct horse battery staple';
    const answer = await setupAction(
      { status: 'idle', values: { name: '', email: '' } },
      form({ token: 't', name: 'Grace Hopper', email: 'grace@example.com', password, confirmPassword: `${password}!` }),
    );
    expect(answer.status === 'failed' && answer.fieldErrors).toEqual({ confirmPassword: ['De twee wachtwoorden zijn niet gelijk.'] });
  });

  it('counts the minutes to wait with each language’s plural', async () => {
    const fr = await translator('fr');
    expect(fr('throttled.network', { minutes: 1 })).toBe(
      'Trop de tentatives de connexion échouées depuis ce réseau. Patientez 1 minute, puis réessayez.',
    );
    expect(fr('throttled.network', { minutes: 15 })).toContain('Patientez 15 minutes, puis');
    const nl = await translator('nl');
    expect(nl('throttled.account', { minutes: 1 })).toContain('Wacht 1 minuut en probeer');
    expect(nl('throttled.account', { minutes: 2 })).toContain('Wacht 2 minuten en probeer');
    const en = await translator('en');
    expect(en('throttled.pair', { minutes: 1 })).toBe(
      'Too many failed sign-ins for this e-mail address from this network. Wait 1 minute and try again.',
    );
  });
});
