// Test support only: the audit chain's signing key for tests whose store is a PostgreSQL server
// (lib/env.ts requires one there, as every instance must sign with the same key). A throwaway
// Ed25519 key, base64 of its PKCS#8 DER, that signs nothing outside the tests.
export const TEST_AUDIT_SIGNING_KEY = 'MC4CAQAwBQYDK2VwBCIEIO0Z0nEKvru0/faBJXvCs/ByA/di3QHIoZY4GUtOFBWm';
