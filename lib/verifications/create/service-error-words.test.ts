// The create's refusals in the reader's language: the same failure reads the same in English as
// describeServiceError says it, and French and Dutch readers get their plural forms.
import { afterEach, describe, expect, it } from 'vitest';
import { VerificationServiceError } from '@/lib/verification-service/errors';
import { describeServiceError } from '@/lib/verification-service/messages';
import { answerInLanguage } from '@/test/support/next-intl-server';
import { createLimitRefusal } from './rate-limit.server';
import { describeCreateError } from './service-error-words.server';

afterEach(() => answerInLanguage('en'));

const failures = [
  new VerificationServiceError('unauthorized', 'x', { status: 401 }),
  new VerificationServiceError('forbidden', 'x', { status: 403 }),
  new VerificationServiceError('not_found', 'x', { status: 404 }),
  new VerificationServiceError('invalid', 'x', { status: 400, detail: 'email must be a valid address' }),
  new VerificationServiceError('invalid', 'x', { status: 400 }),
  new VerificationServiceError('unavailable', 'x', { unreachable: true }),
  new VerificationServiceError('unavailable', 'x', { status: 429, retryAfterSeconds: 30 }),
  new VerificationServiceError('unavailable', 'x', { status: 503, retryAfterSeconds: 120 }),
  new VerificationServiceError('unavailable', 'x', { status: 503, retryAfterSeconds: 1 }),
  new VerificationServiceError('unavailable', 'x', { status: 503 }),
  new VerificationServiceError('timeout', 'x'),
  new VerificationServiceError('protocol', 'x'),
  new Error('a bug'),
];

describe('describeCreateError', () => {
  it('says in English exactly what describeServiceError says for a create', async () => {
    for (const error of failures) {
      const { title, message } = describeServiceError(error, 'create');
      expect(await describeCreateError(error)).toEqual({ title, message });
    }
  });

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
