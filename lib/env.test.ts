import { describe, expect, it } from 'vitest';
import { InvalidEnvironmentError, parseEnv } from './env';

function problemsOf(source: Record<string, string>): string[] {
  try {
    parseEnv(source);
  } catch (error) {
    if (error instanceof InvalidEnvironmentError) return error.problems;
    throw error;
  }
  return [];
}

describe('parseEnv', () => {
  it('has defaults for everything but the service', () => {
    expect(parseEnv({})).toEqual({
      VERIFICATION_API_TIMEOUT_MS: 10_000,
      DATA_DIR: './data',
      PORT: 3000,
      SESSION_IDLE_HOURS: 12,
      AUDIT_RETENTION_DAYS: 365,
    });
  });

  it('reads the service settings and drops a trailing slash from the URL', () => {
    const env = parseEnv({
      VERIFICATION_API_URL: 'https://verify.example.com/',
      VERIFICATION_API_KEY: 'k',
      VERIFICATION_API_TIMEOUT_MS: '2500',
      PORT: '8080',
    });
    expect(env).toMatchObject({ VERIFICATION_API_URL: 'https://verify.example.com', VERIFICATION_API_TIMEOUT_MS: 2500, PORT: 8080 });
  });

  it('treats empty values as unset', () => {
    expect(parseEnv({ VERIFICATION_API_URL: ' ', PORT: '' })).toMatchObject({ PORT: 3000 });
    expect(parseEnv({ VERIFICATION_API_URL: '' }).VERIFICATION_API_URL).toBeUndefined();
  });

  it('names every bad variable and never echoes its value', () => {
    const problems = problemsOf({
      VERIFICATION_API_URL: 'ftp://secret-host',
      VERIFICATION_API_TIMEOUT_MS: 'soon',
      PORT: '99999',
      APP_URL: 'not a url',
      SANDBOX: 'maybe',
    });
    expect(problems.map((p) => p.split(' ')[0]).sort()).toEqual([
      'APP_URL',
      'PORT',
      'SANDBOX',
      'VERIFICATION_API_TIMEOUT_MS',
      'VERIFICATION_API_URL',
    ]);
    expect(problems.join('\n')).not.toContain('secret-host');
    expect(new InvalidEnvironmentError(problems).message).toMatch(/^Invalid configuration:/);
  });
});
