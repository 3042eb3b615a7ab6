// better-auth's own log lines go through the scrubbing server logger, not the console: a provider
// redirect back with a state nobody issued (a real OpenID provider, real better-auth, an in-memory
// database) makes better-auth log the failure with an error whose details hold the state value.
// That line must reach the server log, without the state, and nothing may reach the console.
import { randomUUID } from 'node:crypto';
import { format } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type OidcProvider, startOidcProvider } from '@/e2e/support/oidc-provider';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { freePort } from '@/test/support/free-port';
import { captureLogs } from '@/test/support/logs';
import { getCliAuth } from './auth';

let provider: OidcProvider;
const SSO_NAMES = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'];

beforeAll(async () => {
  provider = await startOidcProvider({
    port: await freePort(),
    redirectUris: ['http://localhost:3000/api/auth/callback/oidc'],
    users: [],
  });
  process.env.DATA_DIR = 'memory://';
  Object.assign(process.env, {
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
  });
  resetEnv();
}, 120_000);

afterAll(async () => {
  for (const name of SSO_NAMES) delete process.env[name];
  resetEnv();
  await closeDatabases();
  await provider?.stop();
});

describe("better-auth's logger", () => {
  it('a callback with an unknown state is logged through the server logger, without the state, and nothing reaches the console', async () => {
    const auth = await getCliAuth();
    const state = `state-${randomUUID()}`;
    const printed: string[] = [];
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        printed.push(format(...args));
      }),
    );
    const logs = captureLogs();
    try {
      const answer = await auth.handler(new Request(`http://localhost:3000/api/auth/callback/oidc?code=some-code&state=${state}`));
      // better-auth refuses with a redirect to its error address.
      expect(answer.status).toBe(302);
      expect(answer.headers.get('location')).toContain('error=');
    } finally {
      logs.restore();
      for (const spy of spies) spy.mockRestore();
    }
    expect(printed).toEqual([]);
    const line = logs.records().find((record) => record.area === 'better-auth' && record.level === 'error');
    expect(line, logs.text()).toMatchObject({
      msg: 'Failed to parse state',
      err: { message: 'State mismatch: verification not found', code: 'state_mismatch' },
    });
    expect(logs.text()).not.toContain(state);
    // better-auth's first use (the provider's discovery, a fresh database) takes seconds on a busy machine.
  }, 60_000);
});
