// @ts-check
// Which address a request came from. Decided once, by the server that owns the socket
// (lib/cli/server.mjs), and handed to the app in a header of its own: the app cannot see the
// socket, and any header a client sends, X-Forwarded-For included, is the client's to choose.
//
// By default the connection's own address counts. Behind reverse proxies, TRUST_PROXY=<hops>
// says how many of them sit in front of this server: each appends the address it received the
// request from to X-Forwarded-For, so reading from the right, past the trusted hops, gives the
// first address no trusted party can have been told by the client.
import { isIP } from 'node:net';

/** The header the server sets on every request (any copy a client sends is replaced). */
export const CLIENT_ADDRESS_HEADER = 'x-verification-desk-client-address';

/**
 * Set to true by the server before Next.js starts, in the same process: the app trusts
 * CLIENT_ADDRESS_HEADER only when this server put it there (under `next dev` nobody does). The app
 * reads it as the process value of this name (lib/platform/process-singleton.ts).
 */
export const CLIENT_ADDRESS_SERVER_NAME = 'client-address-server';
/** The global key lib/platform/process-singleton.ts keeps that value under, for the server to set. */
export const CLIENT_ADDRESS_SERVER = Symbol.for(`verification-desk.${CLIENT_ADDRESS_SERVER_NAME}`);

/** More proxies than this in front of one app is a mistake in the setting, not a deployment. */
export const MAX_TRUSTED_HOPS = 10;

export class InvalidTrustProxyError extends Error {
  constructor() {
    super(
      `TRUST_PROXY must be the number of reverse proxies in front of this server, a whole number from 0 to ${MAX_TRUSTED_HOPS} ` +
        "(0, the default, trusts none: the connection's own address is the client's).",
    );
    this.name = 'InvalidTrustProxyError';
  }
}

/**
 * TRUST_PROXY as a number of trusted hops; unset or blank is 0.
 * @param {string | undefined} value
 * @returns {number}
 */
export function parseTrustProxy(value) {
  const text = (value ?? '').trim();
  if (text === '') return 0;
  if (!/^\d{1,2}$/.test(text) || Number(text) > MAX_TRUSTED_HOPS) throw new InvalidTrustProxyError();
  return Number(text);
}

/**
 * One address in a canonical spelling, or null when it is not an IP address. Accepts what proxies
 * and sockets write: surrounding spaces, `[v6]` and `[v6]:port`, `v4:port`, IPv4-mapped IPv6
 * (`::ffff:192.0.2.1`, how a dual-stack socket reports an IPv4 client).
 * @param {string | undefined | null} raw
 * @returns {string | null}
 */
export function normaliseAddress(raw) {
  let text = (raw ?? '').trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) text = bracketed[1] ?? '';
  else if (/^[\d.]+:\d{1,5}$/.test(text)) text = text.slice(0, text.lastIndexOf(':'));
  text = text.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (mapped) text = mapped[1] ?? '';
  return isIP(text) === 0 ? null : text;
}

/**
 * The client's address. With no trusted hops, the socket's. Otherwise the socket's peer is the
 * first trusted proxy, and each further trusted hop is read from the right of X-Forwarded-For;
 * the entry after the last trusted one is the client. When the header has fewer entries than
 * that, or a malformed one on the way, the nearest address a trusted party vouched for is used:
 * never a value the client could have written itself.
 * @param {{ socketAddress: string | undefined, forwardedFor: string | undefined, trustedHops: number }} request
 * @returns {string | null}
 */
export function clientAddressOf({ socketAddress, forwardedFor, trustedHops }) {
  let nearest = normaliseAddress(socketAddress);
  if (nearest === null || trustedHops === 0) return nearest;
  const entries = (forwardedFor ?? '').split(',');
  if (entries.length === 1 && entries[0]?.trim() === '') entries.pop();
  for (let hop = 1; hop <= trustedHops; hop++) {
    const reported = normaliseAddress(entries[entries.length - hop]);
    if (reported === null) return nearest;
    nearest = reported;
  }
  return nearest;
}
