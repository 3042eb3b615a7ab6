import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret } from '@/e2e/kit/webhook-secret.mjs';
import canaries from '@/e2e/support/canaries.json' with { type: 'json' };
import { TEST_AUDIT_SIGNING_KEY } from '@/test/support/audit-signing-key';
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
      DATABASE_POOL_MAX: 10,
      PORT: 3000,
      SESSION_IDLE_HOURS: 12,
      AUDIT_RETENTION_DAYS: 365,
      AUDIT_CHECKPOINT_ENTRIES: 1000,
      AUDIT_CHECKPOINT_MINUTES: 15,
      QUEUE_PENDING_DAYS: 3,
      QUEUE_FOLLOW_UP_DAYS: 30,
      CREATE_RATE_LIMIT_PER_MINUTE: 30,
      READ_RATE_LIMIT_PER_MINUTE: 120,
      REQUIRE_2FA: 'off',
      REVIEW_FOUR_EYES: 'on',
      LOG_LEVEL: 'info',
      OIDC_LABEL: 'Sign in with single sign-on',
      PASSWORD_SIGN_IN: 'on',
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

  it('reads CREATE_RATE_LIMIT_PER_MINUTE and refuses anything but a whole number of at least 1', () => {
    expect(parseEnv({ CREATE_RATE_LIMIT_PER_MINUTE: '5' }).CREATE_RATE_LIMIT_PER_MINUTE).toBe(5);
    for (const bad of ['0', '2.5', 'many']) {
      expect(problemsOf({ CREATE_RATE_LIMIT_PER_MINUTE: bad })).toEqual([expect.stringMatching(/^CREATE_RATE_LIMIT_PER_MINUTE must be/)]);
    }
  });
});

describe('REQUIRE_2FA', () => {
  it('is off unless set to on, and refuses anything but on or off', () => {
    expect(parseEnv({ REQUIRE_2FA: 'on' }).REQUIRE_2FA).toBe('on');
    expect(parseEnv({ REQUIRE_2FA: '' }).REQUIRE_2FA).toBe('off');
    for (const bad of ['yes', 'true', 'ON']) {
      expect(problemsOf({ REQUIRE_2FA: bad })).toEqual(['REQUIRE_2FA must be "on" or "off"']);
    }
  });
});

describe('REVIEW_FOUR_EYES', () => {
  it('is on unless set to off, and refuses anything but on or off', () => {
    expect(parseEnv({}).REVIEW_FOUR_EYES).toBe('on');
    expect(parseEnv({ REVIEW_FOUR_EYES: '' }).REVIEW_FOUR_EYES).toBe('on');
    expect(parseEnv({ REVIEW_FOUR_EYES: 'off' }).REVIEW_FOUR_EYES).toBe('off');
    for (const bad of ['no', 'false', 'OFF']) {
      expect(problemsOf({ REVIEW_FOUR_EYES: bad })).toEqual(['REVIEW_FOUR_EYES must be "on" or "off"']);
    }
  });
});

describe('LOG_LEVEL', () => {
  it("reads pino's levels and silent, in any case, and refuses anything else", () => {
    expect(parseEnv({ LOG_LEVEL: 'debug' }).LOG_LEVEL).toBe('debug');
    expect(parseEnv({ LOG_LEVEL: ' Silent ' }).LOG_LEVEL).toBe('silent');
    expect(parseEnv({ LOG_LEVEL: '' }).LOG_LEVEL).toBe('info');
    expect(problemsOf({ LOG_LEVEL: 'verbose' })).toEqual([expect.stringMatching(/^LOG_LEVEL must be one of fatal, error/)]);
  });
});

describe('WEBHOOK_SECRET', () => {
  const A = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const B = 'whsec_dGhlIHNlY29uZCBzZWNyZXQsIGZvciByb3RhdGlvbg==';

  it('is optional', () => {
    expect(parseEnv({}).WEBHOOK_SECRET).toBeUndefined();
    expect(parseEnv({ WEBHOOK_SECRET: ' ' }).WEBHOOK_SECRET).toBeUndefined();
  });

  it('reads one secret, or several separated by spaces or commas (rotation)', () => {
    expect(parseEnv({ WEBHOOK_SECRET: A }).WEBHOOK_SECRET).toEqual([A]);
    expect(parseEnv({ WEBHOOK_SECRET: `${A} ${B}` }).WEBHOOK_SECRET).toEqual([A, B]);
    expect(parseEnv({ WEBHOOK_SECRET: ` ${A},${B}, ` }).WEBHOOK_SECRET).toEqual([A, B]);
  });

  it('names the variable for a secret without the whsec_ prefix or with bad base64, and never echoes it', () => {
    for (const value of ['plain-secret-value', 'whsec_', 'whsec_not base64!', `${A} topsecretvalue`]) {
      const problems = problemsOf({ WEBHOOK_SECRET: value });
      expect(problems, value).toHaveLength(1);
      expect(problems[0]).toMatch(/^WEBHOOK_SECRET .*whsec_/);
      expect(problems[0]).not.toContain('secret-value');
      expect(problems[0]).not.toContain('topsecretvalue');
    }
  });

  // whsec_ + base64 of n bytes.
  const ofBytes = (n: number, fill = 7) => `whsec_${Buffer.alloc(n, fill).toString('base64')}`;

  it('refuses a key that decodes to fewer than 24 or more than 64 bytes, naming the variable and the position, never the value', () => {
    for (const [value, position] of [
      ['whsec_AA==', 'secret 1 of 1 is not'],
      [ofBytes(23), 'secret 1 of 1 is not'],
      [ofBytes(65), 'secret 1 of 1 is not'],
      [`${A} ${ofBytes(16)}`, 'secret 2 of 2 is not'],
      [`${ofBytes(1)},${ofBytes(100)}`, 'secrets 1, 2 of 2 are not'],
    ] as const) {
      const problems = problemsOf({ WEBHOOK_SECRET: value });
      expect(problems, value).toEqual([expect.stringMatching(/^WEBHOOK_SECRET keys must decode to 24 to 64 bytes/)]);
      expect(problems[0]).toContain(position);
      for (const secret of value.split(/[ ,]/)) expect(problems[0]).not.toContain(secret.slice('whsec_'.length));
    }
  });

  // The sandbox's secrets are 32-byte keys (lib/sandbox/webhook-sender/endpoints.test.ts holds it to that).
  it('accepts keys of 24 to 64 bytes, and the secrets the test harness generates', () => {
    for (const value of [ofBytes(24), ofBytes(32), ofBytes(64), newWebhookSecret(), canaries.WEBHOOK_SECRET]) {
      expect(parseEnv({ WEBHOOK_SECRET: value }).WEBHOOK_SECRET, value).toEqual([value]);
    }
  });
});

describe('BETTER_AUTH_SECRET and AUDIT_SIGNING_KEY with DATABASE_URL', () => {
  const DATABASE_URL = 'postgres://desk:pw@db.internal:5432/desk';
  const AUDIT_SIGNING_KEY = TEST_AUDIT_SIGNING_KEY;

  it('are required when the store is a PostgreSQL server, and the messages name them without echoing the URL', () => {
    const problems = problemsOf({ DATABASE_URL });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^BETTER_AUTH_SECRET is required with DATABASE_URL/);
    expect(problems[1]).toMatch(/^AUDIT_SIGNING_KEY is required with DATABASE_URL/);
    expect(problems.join('\n')).not.toContain('pw@db.internal');
    // A blank secret counts as unset.
    expect(problemsOf({ DATABASE_URL, AUDIT_SIGNING_KEY, BETTER_AUTH_SECRET: '  ' })[0]).toMatch(/^BETTER_AUTH_SECRET is required/);
  });

  it('are reported together with the other bad variables', () => {
    const problems = problemsOf({ DATABASE_URL, AUDIT_SIGNING_KEY, PORT: 'eighty' });
    expect(problems.map((p) => p.split(' ')[0]).sort()).toEqual(['BETTER_AUTH_SECRET', 'PORT']);
  });

  it('are satisfied by a secret of the usual length and an Ed25519 key, and stay optional on the embedded store', () => {
    expect(parseEnv({ DATABASE_URL, AUDIT_SIGNING_KEY, BETTER_AUTH_SECRET: 'x'.repeat(32) }).DATABASE_URL).toBe(DATABASE_URL);
    expect(parseEnv({}).BETTER_AUTH_SECRET).toBeUndefined();
    expect(parseEnv({}).AUDIT_SIGNING_KEY).toBeUndefined();
  });

  it('takes the key as base64 DER or as a PEM (line breaks written as \\n too), and refuses a key that cannot sign Ed25519', () => {
    const pem = createPrivateKey({ key: Buffer.from(TEST_AUDIT_SIGNING_KEY, 'base64'), format: 'der', type: 'pkcs8' })
      .export({ type: 'pkcs8', format: 'pem' })
      .toString();
    expect(parseEnv({ AUDIT_SIGNING_KEY: pem }).AUDIT_SIGNING_KEY).toBe(pem);
    expect(parseEnv({ AUDIT_SIGNING_KEY: pem.replaceAll('\n', '\\n') }).AUDIT_SIGNING_KEY).toBeDefined();
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    for (const wrong of [rsa, 'not a key']) {
      expect(problemsOf({ AUDIT_SIGNING_KEY: wrong })[0]).toMatch(/^AUDIT_SIGNING_KEY must be an Ed25519 private key/);
    }
  });
});

describe('single sign-on (OIDC_*) and PASSWORD_SIGN_IN', () => {
  const OIDC = { OIDC_ISSUER: 'https://login.example.com/', OIDC_CLIENT_ID: 'desk', OIDC_CLIENT_SECRET: 'client-secret-value' };

  it("reads the three settings together, drops the issuer's trailing slash and keeps a custom label", () => {
    const env = parseEnv({ ...OIDC, OIDC_LABEL: 'Sign in with Contoso', PASSWORD_SIGN_IN: 'off' });
    expect(env).toMatchObject({
      OIDC_ISSUER: 'https://login.example.com',
      OIDC_CLIENT_ID: 'desk',
      OIDC_LABEL: 'Sign in with Contoso',
      PASSWORD_SIGN_IN: 'off',
    });
  });

  it('names what is missing when only some of the three are set, never echoing the secret', () => {
    const onlyIssuer = problemsOf({ OIDC_ISSUER: OIDC.OIDC_ISSUER });
    expect(onlyIssuer).toHaveLength(1);
    expect(onlyIssuer[0]).toMatch(/^OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are required with OIDC_ISSUER/);

    const noSecret = problemsOf({ OIDC_ISSUER: OIDC.OIDC_ISSUER, OIDC_CLIENT_ID: 'desk' });
    expect(noSecret[0]).toMatch(/^OIDC_CLIENT_SECRET is required with OIDC_ISSUER and OIDC_CLIENT_ID/);

    const noIssuer = problemsOf({ OIDC_CLIENT_ID: 'desk', OIDC_CLIENT_SECRET: OIDC.OIDC_CLIENT_SECRET });
    expect(noIssuer[0]).toMatch(/^OIDC_ISSUER is required with OIDC_CLIENT_ID and OIDC_CLIENT_SECRET/);
    expect(noIssuer.join('\n')).not.toContain(OIDC.OIDC_CLIENT_SECRET);
  });

  it('wants an https issuer, allowing plain http only on loopback', () => {
    expect(problemsOf({ ...OIDC, OIDC_ISSUER: 'http://login.example.com' })[0]).toMatch(/^OIDC_ISSUER must be an https URL/);
    expect(problemsOf({ ...OIDC, OIDC_ISSUER: 'not a url' })[0]).toMatch(/^OIDC_ISSUER /);
    expect(parseEnv({ ...OIDC, OIDC_ISSUER: 'http://127.0.0.1:4000' }).OIDC_ISSUER).toBe('http://127.0.0.1:4000');
    expect(parseEnv({ ...OIDC, OIDC_ISSUER: 'http://localhost:4000/' }).OIDC_ISSUER).toBe('http://localhost:4000');
  });

  it.each(['QUEUE_PENDING_DAYS', 'QUEUE_FOLLOW_UP_DAYS'] as const)('takes %s as whole days from 1 to 365, naming it otherwise', (name) => {
    expect(parseEnv({ [name]: '7' })[name]).toBe(7);
    for (const value of ['0', '2.5', 'a week', '366']) {
      expect(problemsOf({ [name]: value }).join(' '), value).toMatch(new RegExp(`^${name}`));
    }
  });

  it('refuses PASSWORD_SIGN_IN=off without single sign-on, naming both, and anything but on or off', () => {
    const problems = problemsOf({ PASSWORD_SIGN_IN: 'off' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^PASSWORD_SIGN_IN=off requires single sign-on: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET/);
    expect(problemsOf({ ...OIDC, PASSWORD_SIGN_IN: 'no' })[0]).toMatch(/^PASSWORD_SIGN_IN must be "on" or "off"/);
    expect(parseEnv({ PASSWORD_SIGN_IN: 'on' }).PASSWORD_SIGN_IN).toBe('on');
  });
});

describe('DISPLAY_TIME_ZONE', () => {
  it('is optional: unset, each staff member sees their browser’s zone', () => {
    expect(parseEnv({}).DISPLAY_TIME_ZONE).toBeUndefined();
    expect(parseEnv({ DISPLAY_TIME_ZONE: '  ' }).DISPLAY_TIME_ZONE).toBeUndefined();
  });

  it('reads an IANA zone name in its canonical spelling', () => {
    expect(parseEnv({ DISPLAY_TIME_ZONE: 'Europe/Brussels' }).DISPLAY_TIME_ZONE).toBe('Europe/Brussels');
    expect(parseEnv({ DISPLAY_TIME_ZONE: ' america/new_york ' }).DISPLAY_TIME_ZONE).toBe('America/New_York');
    expect(parseEnv({ DISPLAY_TIME_ZONE: 'UTC' }).DISPLAY_TIME_ZONE).toBe('UTC');
  });

  it.each([['Europe/Atlantis'], ['+01:00'], ['CET; rm -rf']])('stops the server on %s, naming the variable', (value) => {
    const problems = problemsOf({ DISPLAY_TIME_ZONE: value });
    expect(problems).toEqual(['DISPLAY_TIME_ZONE must be an IANA time zone name, e.g. Europe/Brussels, America/New_York or UTC']);
  });
});

describe('DEFAULT_PHONE_REGION', () => {
  it('is optional: unset, the SMS number must carry its country code', () => {
    expect(parseEnv({}).DEFAULT_PHONE_REGION).toBeUndefined();
    expect(parseEnv({ DEFAULT_PHONE_REGION: ' ' }).DEFAULT_PHONE_REGION).toBeUndefined();
  });

  it('reads a country code in any case', () => {
    expect(parseEnv({ DEFAULT_PHONE_REGION: 'BE' }).DEFAULT_PHONE_REGION).toBe('BE');
    expect(parseEnv({ DEFAULT_PHONE_REGION: ' nl ' }).DEFAULT_PHONE_REGION).toBe('NL');
  });

  it.each([['Belgium'], ['XX'], ['+32']])('stops the server on %s, naming the variable', (value) => {
    expect(problemsOf({ DEFAULT_PHONE_REGION: value })).toEqual([
      'DEFAULT_PHONE_REGION must be a two-letter country code, e.g. BE, NL, FR or LU',
    ]);
  });
});
