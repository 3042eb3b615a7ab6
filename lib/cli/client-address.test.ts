// Which address the server hands the app as the client's: the connection's by default, and with
// TRUST_PROXY=<hops> the right-most X-Forwarded-For entry that no trusted proxy can have been
// told by the client. No value a client writes may become its address unless a trusted proxy
// vouched for it.
import { describe, expect, it } from 'vitest';
import { clientAddressOf, normaliseAddress, parseTrustProxy } from './client-address.mjs';

const SOCKET = '10.0.0.5';
const of = (forwardedFor: string | undefined, trustedHops: number, socketAddress: string | undefined = SOCKET) =>
  clientAddressOf({ socketAddress, forwardedFor, trustedHops });

describe('clientAddressOf without trusted proxies (TRUST_PROXY=0, the default)', () => {
  it("uses the connection's address whatever X-Forwarded-For says", () => {
    expect(of(undefined, 0)).toBe(SOCKET);
    expect(of('203.0.113.7', 0)).toBe(SOCKET);
    expect(of('203.0.113.7, 198.51.100.1', 0)).toBe(SOCKET);
    expect(of('garbage', 0)).toBe(SOCKET);
  });

  it('reports an IPv4 client of a dual-stack socket as IPv4, and IPv6 in lower case', () => {
    expect(of(undefined, 0, '::ffff:127.0.0.2')).toBe('127.0.0.2');
    expect(of(undefined, 0, '2001:DB8::1')).toBe('2001:db8::1');
    expect(of(undefined, 0, '::1')).toBe('::1');
  });

  it('is null when the socket has no address (it closed)', () => {
    expect(clientAddressOf({ socketAddress: undefined, forwardedFor: '203.0.113.7', trustedHops: 0 })).toBeNull();
    expect(clientAddressOf({ socketAddress: undefined, forwardedFor: '203.0.113.7', trustedHops: 1 })).toBeNull();
  });
});

describe('clientAddressOf behind trusted proxies (TRUST_PROXY=<hops>)', () => {
  it('takes the right-most hop past the trusted ones, not the first (which the client wrote)', () => {
    // The client forged "1.1.1.1"; the one trusted proxy appended the address it saw.
    expect(of('1.1.1.1, 203.0.113.7', 1)).toBe('203.0.113.7');
    // Two trusted proxies: the socket's peer is the second, the first appended the client's address.
    expect(of('1.1.1.1, 203.0.113.7, 10.0.0.9', 2)).toBe('203.0.113.7');
    expect(of('203.0.113.7', 1)).toBe('203.0.113.7');
  });

  it('tolerates spaces, IPv6 (bare, bracketed, with a port), ports and mapped IPv4', () => {
    expect(of('  1.1.1.1 ,   203.0.113.7   ', 1)).toBe('203.0.113.7');
    expect(of('1.1.1.1,2001:DB8::7', 1)).toBe('2001:db8::7');
    expect(of('1.1.1.1, [2001:db8::7]:443', 1)).toBe('2001:db8::7');
    expect(of('1.1.1.1, [2001:db8::7]', 1)).toBe('2001:db8::7');
    expect(of('1.1.1.1, 203.0.113.7:51234', 1)).toBe('203.0.113.7');
    expect(of('1.1.1.1, ::ffff:203.0.113.7', 1)).toBe('203.0.113.7');
  });

  it('with fewer entries than trusted hops, uses the furthest address a trusted hop reported', () => {
    // The request did not pass through every proxy: what is there was written by trusted hops.
    expect(of(undefined, 1)).toBe(SOCKET);
    expect(of('', 1)).toBe(SOCKET);
    expect(of('203.0.113.7', 2)).toBe('203.0.113.7');
    expect(of('203.0.113.7', 3)).toBe('203.0.113.7');
  });

  it('stops at a malformed entry and keeps the nearest address a trusted hop vouched for', () => {
    expect(of('1.1.1.1, not-an-address', 1)).toBe(SOCKET);
    expect(of('1.1.1.1, unknown, 10.0.0.9', 2)).toBe('10.0.0.9');
    expect(of('1.1.1.1, , 10.0.0.9', 2)).toBe('10.0.0.9');
    expect(of('1.1.1.1, 203.0.113.7; rm -rf', 1)).toBe(SOCKET);
    expect(of('1.1.1.1, 999.1.1.1', 1)).toBe(SOCKET);
    expect(of('1.1.1.1, <script>', 1)).toBe(SOCKET);
  });

  it('never returns an entry left of the trusted hops, however many the client adds', () => {
    const forged = Array.from({ length: 50 }, (_, i) => `198.51.100.${i}`).join(', ');
    expect(of(`${forged}, 203.0.113.7`, 1)).toBe('203.0.113.7');
    expect(of(`${forged}, 203.0.113.7, 10.0.0.9`, 2)).toBe('203.0.113.7');
  });
});

describe('normaliseAddress', () => {
  it.each([
    ['192.0.2.1', '192.0.2.1'],
    [' 192.0.2.1 ', '192.0.2.1'],
    ['192.0.2.1:8080', '192.0.2.1'],
    ['::FFFF:192.0.2.1', '192.0.2.1'],
    ['[::1]:3000', '::1'],
    ['FE80::1', 'fe80::1'],
  ])('reads %j as %j', (raw, address) => {
    expect(normaliseAddress(raw)).toBe(address);
  });

  it.each([[''], ['   '], ['localhost'], ['1.2.3'], ['1.2.3.4.5'], ['::g'], ['[1.2.3.4]x'], [undefined], [null]])('refuses %j', (raw) => {
    expect(normaliseAddress(raw)).toBeNull();
  });
});

describe('parseTrustProxy', () => {
  it('reads a whole number of hops; unset or blank is 0', () => {
    expect(parseTrustProxy(undefined)).toBe(0);
    expect(parseTrustProxy('')).toBe(0);
    expect(parseTrustProxy('  ')).toBe(0);
    expect(parseTrustProxy('0')).toBe(0);
    expect(parseTrustProxy(' 2 ')).toBe(2);
    expect(parseTrustProxy('10')).toBe(10);
  });

  it.each([['true'], ['yes'], ['-1'], ['1.5'], ['11'], ['1e1'], ['0x1'], ['loopback'], ['10.0.0.0/8']])(
    'refuses %j with a message naming TRUST_PROXY and what it must be',
    (value) => {
      expect(() => parseTrustProxy(value)).toThrow(
        /^TRUST_PROXY must be the number of reverse proxies in front of this server, a whole number from 0 to 10/,
      );
    },
  );
});
