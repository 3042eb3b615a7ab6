// When the sandbox is on, where its data lives, and which base address its links use.
import { afterEach, describe, expect, it } from 'vitest';
import { isSandboxEnabled } from '@/lib/platform/sandbox-switch';
import { getPublicBaseUrl, getSandboxDataDir } from './config';

const saved = { ...process.env };

afterEach(() => {
  for (const name of ['SANDBOX', 'VERIFICATION_API_URL', 'DATA_DIR', 'APP_URL']) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

function setEnv(values: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}

describe('isSandboxEnabled', () => {
  it.each([
    [undefined, undefined, true],
    [undefined, '', true],
    [undefined, 'https://verify.example.com', false],
    ['on', undefined, true],
    // Zero-config mode: instrumentation sets SANDBOX=on and then points the dashboard at the sandbox.
    ['on', 'http://localhost:3000', true],
    ['off', undefined, false],
    ['off', 'https://verify.example.com', false],
    ['', undefined, true],
    ['', 'https://verify.example.com', false],
  ])('SANDBOX=%j VERIFICATION_API_URL=%j → %s', (sandbox, url, expected) => {
    setEnv({ SANDBOX: sandbox, VERIFICATION_API_URL: url });
    expect(isSandboxEnabled()).toBe(expected);
  });
});

describe('getSandboxDataDir', () => {
  it.each([
    [undefined, './data'],
    ['', './data'],
    ['  ', './data'],
    ['/var/lib/desk', '/var/lib/desk'],
    ['memory://', 'memory://'],
  ])('DATA_DIR=%j → %j', (value, expected) => {
    setEnv({ DATA_DIR: value });
    expect(getSandboxDataDir()).toBe(expected);
  });
});

describe('getPublicBaseUrl', () => {
  const request = new Request('http://127.0.0.1:3000/v1/verifications/new?x=1', { method: 'POST' });

  it("uses the request's origin without APP_URL", () => {
    setEnv({ APP_URL: undefined });
    expect(getPublicBaseUrl(request)).toBe('http://127.0.0.1:3000');
  });

  it.each([
    ['https://desk.example.com', 'https://desk.example.com'],
    ['https://desk.example.com/', 'https://desk.example.com'],
    ['https://example.com/desk//', 'https://example.com/desk'],
  ])('APP_URL=%j → %j', (value, expected) => {
    setEnv({ APP_URL: value });
    expect(getPublicBaseUrl(request)).toBe(expected);
  });
});
