// The one better-auth path the dashboard exposes answers only for its own provider, and only
// when single sign-on is configured: anything else is a plain 404 that never reaches better-auth.
import { afterEach, describe, expect, it } from 'vitest';
import { refusalOf } from '@/lib/auth/single-sign-on-callback';
import { resetEnv } from '@/lib/env';
import { GET } from './route';

const OIDC = { OIDC_ISSUER: 'https://login.example.com', OIDC_CLIENT_ID: 'desk', OIDC_CLIENT_SECRET: 'secret' } as const;

const call = (providerId: string) =>
  GET(new Request(`http://localhost:3000/api/auth/callback/${providerId}?code=c&state=s`), { params: Promise.resolve({ providerId }) });

afterEach(() => {
  for (const name of Object.keys(OIDC)) delete process.env[name];
  resetEnv();
});

describe('GET /api/auth/callback/[providerId]', () => {
  it('answers 404 when single sign-on is not configured', async () => {
    resetEnv();
    const response = await call('oidc');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'Not found' });
  });

  it("answers 404 for any provider id but the dashboard's own", async () => {
    Object.assign(process.env, OIDC);
    resetEnv();
    for (const providerId of ['github', 'google', 'OIDC', '..']) expect((await call(providerId)).status).toBe(404);
  });
});

describe('refusalOf', () => {
  it("maps better-auth's callback errors to the refusal page's reasons", () => {
    expect(refusalOf('signup_disabled')).toBe('unknown');
    expect(refusalOf('email_not_found')).toBe('unverified');
    expect(refusalOf('account_not_linked')).toBe('unverified');
    expect(refusalOf('account_disabled')).toBe('disabled');
    expect(refusalOf('other_identity_linked')).toBe('other_identity');
    for (const other of ['state_not_found', 'invalid_code', 'access_denied', 'issuer_mismatch', ''])
      expect(refusalOf(other)).toBe('failed');
  });
});
