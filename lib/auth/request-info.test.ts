// The return path after sign-in must never take a browser to another site, and the client
// address is what per-address throttling counts.
import { afterEach, describe, expect, it } from 'vitest';
import { CLIENT_ADDRESS_HEADER, CLIENT_ADDRESS_SERVER } from '@/lib/cli/client-address.mjs';
import { HOME_PATH } from './landing';
import { clientAddress, safeReturnPath } from './request-info';

const ORIGIN = 'https://desk.example';

describe('safeReturnPath', () => {
  it.each([
    ['//evil.com'],
    ['//evil.com/verifications'],
    ['/\\evil'],
    ['/\\evil.com/path'],
    ['https://evil.com'],
    ['http://evil.com/'],
    ['javascript:alert(1)'],
    ['evil.com'],
    ['verifications/abc'],
    [''],
    ['/sign-in'],
    ['/sign-in?next=/audit'],
    ['/sign-in/'],
    ['/setup?token=abc'],
  ])('turns %j into the start page', (value) => {
    expect(safeReturnPath(value)).toBe(HOME_PATH);
  });

  it.each([[null], [undefined], [42], [{ toString: () => '/audit' }], [['/audit']], [true]])(
    'turns the non-string %j into the start page',
    (value) => {
      expect(safeReturnPath(value)).toBe(HOME_PATH);
    },
  );

  it.each([['/verifications/abc?x=1'], ['/'], ['/audit?actor=1&from=2030-01-01'], ['/verifications/new#result'], ['/settings']])(
    'keeps the same-site path %j',
    (value) => {
      expect(safeReturnPath(value)).toBe(value);
    },
  );

  it('refuses a very long path rather than carrying it through sign-in', () => {
    expect(safeReturnPath(`/verifications/${'a'.repeat(5000)}`)).toBe(HOME_PATH);
  });

  it('every accepted value resolves to this origin when a browser follows it', () => {
    // What matters is where a browser goes, so resolve each result the way a browser resolves a
    // Location header (WHATWG URL parsing).
    for (const value of [
      '//evil.com',
      '/\\evil.com',
      'https://evil.com',
      '/verifications/abc?x=1',
      '/./evil.com',
      '/%2F%2Fevil.com',
      '/ /evil.com',
    ]) {
      expect({ value, origin: new URL(safeReturnPath(value), ORIGIN).origin }).toEqual({ value, origin: ORIGIN });
    }
  });

  // Dot segments are resolved before the path is used: "/.//evil.example/x" normalises to
  // "//evil.example/x", a protocol-relative URL. Encoded dots count as dots ("%2e"); encoded
  // slashes and backslashes stay part of a path segment.
  it.each([
    ['/.//evil.example/x'],
    ['/..//evil.example/x'],
    ['/%2e%2e//evil.example/x'],
    ['/%2E//evil.example/x'],
    ['/a/..//evil.example/x'],
    ['/a/b/../..//evil.example'],
    ['/./\\evil.example'],
    ['/%2F%2Fevil.example'],
    ['/%5C%5Cevil.example'],
    ['/.%2F/evil.example'],
    ['/ //evil.example'],
    ['/\t/evil.example'],
    ['/.\n//evil.example'],
    ['JavaScript:alert(1)'],
    ['javascript://%0aalert(1)'],
    ['https://evil.example/x'],
    ['HTTPS:evil.example'],
    ['//evil.example'],
    ['///evil.example'],
  ])('never sends a browser elsewhere for %j', (value) => {
    const kept = safeReturnPath(value);
    expect(kept.startsWith('/') && !kept.startsWith('//')).toBe(true);
    expect(new URL(kept, ORIGIN).origin).toBe(ORIGIN);
  });

  it('turns the dot-segment vectors into the start page rather than into another host', () => {
    for (const value of ['/.//evil.example/x', '/%2e%2e//evil.example/x', '/a/..//evil.example/x'])
      expect(safeReturnPath(value)).toBe(HOME_PATH);
  });

  // Browsers remove ASCII tab and newline characters anywhere in a URL before parsing it, so
  // "/\t/evil.com" becomes "//evil.com", a protocol-relative URL to evil.com. A check of the raw
  // first two characters alone would let it through, and /sign-in?next=%2F%09%2Fevil.com would
  // send a signed-in user (the sign-in page redirects at once) or a user who has just signed in
  // to evil.com. A tab is legal in an HTTP header value, so the Location header would carry it.
  it('refuses paths that become protocol-relative once tabs and newlines are stripped', () => {
    for (const value of ['/\t/evil.com', '/\n/evil.com', '/\r/evil.com', '/\t\\evil.com']) {
      expect({ value, origin: new URL(safeReturnPath(value), ORIGIN).origin }).toEqual({ value, origin: ORIGIN });
    }
  });
});

describe('clientAddress', () => {
  const ownServer = globalThis as unknown as Record<symbol, unknown>;
  afterEach(() => {
    delete ownServer[CLIENT_ADDRESS_SERVER];
  });

  it('served by lib/cli/server.mjs: the address that server stamped, never a header the client chose', () => {
    ownServer[CLIENT_ADDRESS_SERVER] = true;
    const headers = new Headers({ [CLIENT_ADDRESS_HEADER]: '127.0.0.2', 'x-forwarded-for': '203.0.113.7', 'x-real-ip': '198.51.100.9' });
    expect(clientAddress(headers)).toBe('127.0.0.2');
    expect(clientAddress(new Headers({ 'x-forwarded-for': '203.0.113.7', 'x-real-ip': '198.51.100.9' }))).toBeNull();
  });

  it('without that server (next dev) the address is unknown, whatever the headers say', () => {
    expect(clientAddress(new Headers({ [CLIENT_ADDRESS_HEADER]: '127.0.0.2' }))).toBeNull();
    expect(clientAddress(new Headers({ 'x-forwarded-for': '203.0.113.7, 10.0.0.1', 'x-real-ip': '198.51.100.9' }))).toBeNull();
    expect(clientAddress(new Headers())).toBeNull();
  });
});
