// The create's refusals in French and Dutch, with their plural forms (the English words, and that
// nothing upstream leaks into any of them: lib/verification-service/messages.test.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { VerificationServiceError } from '@/lib/verification-service/errors';
import { answerInLanguage } from '@/test/support/next-intl-server';
import { createLimitRefusal } from './rate-limit.server';
import { describeCreateError } from './service-error-words.server';

afterEach(() => answerInLanguage('en'));

describe('describeCreateError', () => {
  it('waits in French and Dutch with their plural forms', async () => {
    const busy = new VerificationServiceError('unavailable', 'x', { status: 503, retryAfterSeconds: 120 });
    answerInLanguage('fr');
    expect((await describeCreateError(busy)).message).toBe(
      'Le service de vérification est indisponible pour le moment. Réessayez dans environ 2 minutes.',
    );
    answerInLanguage('nl');
    expect((await describeCreateError(busy)).message).toBe(
      'De verificatiedienst is op dit moment niet beschikbaar. Probeer het over ongeveer 2 minuten opnieuw.',
    );
  });
});

describe('createLimitRefusal', () => {
  it('counts the seconds to wait in the reader’s language', async () => {
    answerInLanguage('fr');
    expect((await createLimitRefusal({ allowed: false, limit: 30, retryAfterSeconds: 1 } as never)).message).toBe(
      'Vous avez créé 30 demandes au cours de la dernière minute. Attendez 1 seconde avant d’envoyer à nouveau le formulaire\u00a0; rien n’a été créé.',
    );
    answerInLanguage('nl');
    expect((await createLimitRefusal({ allowed: false, limit: 30, retryAfterSeconds: 12 } as never)).message).toMatch(
      /Wacht 12 seconden en/,
    );
  });
});
