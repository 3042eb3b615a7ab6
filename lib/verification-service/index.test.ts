// The module-level calls read the configuration at call time, so settings filled in after import
// (as instrumentation does for the sandbox) are the ones used.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidEnvironmentError, resetEnv } from '@/lib/env';
import { type FakeUpstream, json, startFakeUpstream } from './fake-upstream';
import { createVerification, describeReadError, getVerification } from './index';

let upstream: FakeUpstream;
const saved = { ...process.env };

beforeAll(async () => {
  upstream = await startFakeUpstream();
});

afterAll(async () => {
  process.env = saved;
  resetEnv();
  await upstream.close();
});

function configure(values: Record<string, string | undefined>) {
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  resetEnv();
}

describe('module-level calls', () => {
  it('refuse clearly while the service is not configured', async () => {
    configure({ VERIFICATION_API_URL: undefined, VERIFICATION_API_KEY: undefined });
    const error = await getVerification('abc').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidEnvironmentError);
    expect((await describeReadError(error)).kind).toBe('unknown');
  });

  it('use the configuration present at call time', async () => {
    configure({ VERIFICATION_API_URL: `${upstream.baseUrl}/`, VERIFICATION_API_KEY: 'late-key', VERIFICATION_API_TIMEOUT_MS: '500' });
    upstream.program(
      json(200, { message: 'Verification request created successfully.', verificationId: 'v-1' }),
      json(200, {
        inputted_name: 'A',
        status: 'expired',
        purpose: 'audit',
        access_expires_at: '2030-01-01T00:00:00Z',
        identified_name: null,
        identified_date: null,
        verification_method: null,
        failed_reason: null,
        kept_until: '2030-06-01T00:00:00Z',
      }),
    );

    const created = await createVerification({ email: 'a@b.example', name: 'A', chosenPurpose: 'audit', language: 'nl' });
    const record = await getVerification(created.verificationId);

    expect(record.status).toBe('expired');
    expect(upstream.requests.map((r) => `${r.method} ${r.url} ${r.headers.authorization}`)).toEqual([
      'POST /v1/verifications/new Bearer late-key',
      'GET /v1/verifications/v-1 Bearer late-key',
    ]);
  });
});
