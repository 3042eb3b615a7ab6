// What counts as "the database cannot be reached". The real driver's errors during a real
// outage are checked in app/api/ready/outage.test.ts; here, the shapes they come in.
import { describe, expect, it } from 'vitest';
import { DatabaseDeadlineError, isDatabaseUnavailable, withinDeadline } from './database-errors';

const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('recognises refused and cut connections, servers shutting down or starting, and class 08, also wrapped', () => {
    for (const error of [
      coded('ECONNREFUSED'),
      coded('57P01'),
      coded('57P03'),
      coded('08006'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Failed query', { cause: coded('ECONNRESET') }),
      Object.assign(new AggregateError([coded('ECONNREFUSED')]), {}),
      new DatabaseDeadlineError(2000),
    ]) {
      expect({ error: String(error), unavailable: isDatabaseUnavailable(error) }).toEqual({ error: String(error), unavailable: true });
    }
  });

  it('leaves every other failure alone', () => {
    for (const error of [coded('42P01'), coded('23505'), new Error('boom'), 'ECONNREFUSED', null, undefined]) {
      expect(isDatabaseUnavailable(error)).toBe(false);
    }
  });
});

describe('withinDeadline', () => {
  it('passes an answer through, and turns no answer into a DatabaseDeadlineError', async () => {
    expect(await withinDeadline(Promise.resolve(1), 1_000)).toBe(1);
    const never = new Promise<never>(() => undefined);
    await expect(withinDeadline(never, 20)).rejects.toBeInstanceOf(DatabaseDeadlineError);
  });
});
