// The cache of validated sessions on its own: TTL, the session's own expiry, no negative
// entries, and an invalidation that a validation running at the same time cannot undo.
import { afterEach, describe, expect, it } from 'vitest';
import { forgetValidatedSessions, rememberValidatedSession, SESSION_CACHE_TTL_MS } from './session-cache';

const inAnHour = () => new Date(Date.now() + 60 * 60 * 1000);

afterEach(() => forgetValidatedSessions());

describe('rememberValidatedSession', () => {
  it('validates once within the TTL, and again after it', async () => {
    let calls = 0;
    const validate = async () => ({ value: ++calls, expiresAt: inAnHour() });
    const now = Date.now();
    expect(await rememberValidatedSession('a', validate, now)).toBe(1);
    expect(await rememberValidatedSession('a', validate, now + SESSION_CACHE_TTL_MS - 1)).toBe(1);
    expect(await rememberValidatedSession('a', validate, now + SESSION_CACHE_TTL_MS)).toBe(2);
    expect(await rememberValidatedSession('b', validate, now)).toBe(3);
  });

  it('never keeps a session past its own expiry', async () => {
    let calls = 0;
    const now = Date.now();
    const validate = async () => ({ value: ++calls, expiresAt: new Date(now + 100) });
    await rememberValidatedSession('a', validate, now);
    expect(await rememberValidatedSession('a', validate, now + 99)).toBe(1);
    expect(await rememberValidatedSession('a', validate, now + 100)).toBe(2);
  });

  it('does not remember "no session"', async () => {
    let calls = 0;
    const validate = async () => {
      calls += 1;
      return undefined;
    };
    expect(await rememberValidatedSession('a', validate)).toBeUndefined();
    expect(await rememberValidatedSession('a', validate)).toBeUndefined();
    expect(calls).toBe(2);
  });

  it('forgets everything at once', async () => {
    let calls = 0;
    const validate = async () => ({ value: ++calls, expiresAt: inAnHour() });
    await rememberValidatedSession('a', validate);
    forgetValidatedSessions();
    expect(await rememberValidatedSession('a', validate)).toBe(2);
  });

  it('does not store a validation that was running when the sessions were forgotten', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const slow = rememberValidatedSession('a', async () => {
      calls += 1;
      await gate; // it read the session before the sign-out below…
      return { value: 'stale', expiresAt: inAnHour() };
    });
    forgetValidatedSessions(); // …which happens while it is still running
    release();
    expect(await slow).toBe('stale');
    expect(await rememberValidatedSession('a', async () => ({ value: `fresh ${++calls}`, expiresAt: inAnHour() }))).toBe('fresh 2');
  });
});
