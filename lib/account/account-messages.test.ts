// The account's and staff room's messages that carry logic: plurals of ended sessions and
// waiting minutes, and a StaffError's English sentence shown in the reader's language.
import { afterEach, describe, expect, it } from 'vitest';
import { StaffError } from '@/lib/auth/staff-records';
import type { Translate } from '@/lib/i18n/translate';
import { translatorFor } from '@/lib/i18n/translator';
import { staffRefusal } from '@/lib/staff/refusals.server';
import { answerInLanguage } from '@/test/support/next-intl-server';

afterEach(() => answerInLanguage('en'));

describe('account messages', () => {
  it('counts the other sessions signed out in French and Dutch', async () => {
    const fr = (await translatorFor('fr', 'account.actions')) as unknown as Translate;
    const nl = (await translatorFor('nl', 'account.actions')) as unknown as Translate;
    expect([0, 1, 3].map((count) => fr('othersEnded', { count }))).toEqual([
      'Aucune autre session n’était ouverte.',
      '1 autre session a été déconnectée.',
      '3 autres sessions ont été déconnectées.',
    ]);
    expect([0, 1, 3].map((count) => nl('changedEndedOthers', { count }))).toEqual([
      'Wachtwoord gewijzigd. Er was geen andere sessie open.',
      'Wachtwoord gewijzigd. 1 andere sessie is beëindigd.',
      'Wachtwoord gewijzigd. 3 andere sessies zijn beëindigd.',
    ]);
    expect(nl('throttled', { minutes: 1 })).toContain('Wacht 1 minuut en');
    expect(fr('throttled', { minutes: 15 })).toContain('Patientez 15 minutes puis');
  });

  it('shows a refused staff change in the reader’s language, and an unlisted sentence as it came', async () => {
    answerInLanguage('fr');
    expect(await staffRefusal(new StaffError('You cannot disable your own account.'))).toBe(
      'Vous ne pouvez pas désactiver votre propre compte.',
    );
    answerInLanguage('nl');
    expect(await staffRefusal(new StaffError('That account does not exist.'))).toBe('Dat account bestaat niet.');
    expect(await staffRefusal(new StaffError('Something new.'))).toBe('Something new.');
  });
});
