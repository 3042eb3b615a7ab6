// Types of client-address.mjs for the TypeScript side (the project's tsconfig does not read JavaScript).

export const CLIENT_ADDRESS_HEADER: string;
export const CLIENT_ADDRESS_SERVER_NAME: string;
export const CLIENT_ADDRESS_SERVER: symbol;
export const MAX_TRUSTED_HOPS: number;
export class InvalidTrustProxyError extends Error {}
export function parseTrustProxy(value: string | undefined): number;
export function normaliseAddress(raw: string | undefined | null): string | null;
export function clientAddressOf(request: {
  socketAddress: string | undefined;
  forwardedFor: string | undefined;
  trustedHops: number;
}): string | null;
