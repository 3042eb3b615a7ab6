// The companies' API keys: issuing, revoking, and authenticating a request's Bearer header.
// A key is shown once at issue and stored only as its SHA-256 hash.
import 'server-only';
import { and, eq, isNull } from 'drizzle-orm';
import { isEmbeddedStore } from '@/lib/platform/database';
import { processSingleton } from '@/lib/platform/process-singleton';
import type { SandboxDb, SandboxTx } from '@/lib/sandbox/db';
import { apiKeys } from '@/lib/sandbox/schema';
import { generateSecret, hashesEqual, hashSecret, SECRET_PATTERN } from '@/lib/sandbox/secrets';

/** Marks a string as a secret key of this service, so secret scanners and people recognise it. */
export const API_KEY_PREFIX = 'vd_sk_';

const API_KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}${SECRET_PATTERN.source.slice(1, -1)}$`);

type Queryable = SandboxDb | SandboxTx;

export type IssuedApiKey = { keyId: string; companyId: string; apiKey: string };

/** Creates a key for a company; the returned `apiKey` is the only copy there will ever be. */
export async function issueApiKey(db: Queryable, { companyId, label }: { companyId: string; label: string }): Promise<IssuedApiKey> {
  const apiKey = `${API_KEY_PREFIX}${generateSecret()}`;
  const keyId = crypto.randomUUID();
  await db.insert(apiKeys).values({
    id: keyId,
    companyId,
    keyHash: hashSecret(apiKey),
    // Enough to tell keys apart in a list, far too little to guess the rest (220 random bits remain).
    prefix: apiKey.slice(0, API_KEY_PREFIX.length + 6),
    label,
  });
  return { keyId, companyId, apiKey };
}

/** Revokes one key; revoked keys stay listed (with their time of revocation) but open nothing. */
export async function revokeApiKey(db: Queryable, keyId: string): Promise<void> {
  await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)));
  forgetAuthenticatedApiKeys();
}

/**
 * Keys that authenticated recently, by the hash of the presented key, so a busy integration does
 * not cost a database lookup per request. Only successes are kept, for API_KEY_CACHE_TTL_MS at
 * most. A revocation in this process (revokeApiKey, provisioning) empties the cache at once; the
 * TTL bounds anything else, though nothing else can change the keys: the data directory is locked
 * to this process. An authentication whose lookup started before a revocation is not cached, so a
 * lookup racing the revocation cannot put the key back.
 *
 * Only on the embedded store. On a PostgreSQL server another instance, or the sandbox CLI while
 * the servers run, can revoke a key, and a revoked key must stop working at once everywhere: each
 * request looks its key up (one indexed query, which there does not run on this process's thread).
 */
export const API_KEY_CACHE_TTL_MS = 5_000;
const API_KEY_CACHE_MAX_ENTRIES = 1_000;

type KeyCache = { entries: Map<string, { companyId: string; keyId: string; until: number }>; generation: number };
// One per process (a process singleton): a revocation must reach every route bundle.
function keyCache(): KeyCache {
  return processSingleton<KeyCache>('sandbox-api-key-cache', () => ({ entries: new Map(), generation: 0 }));
}

/** Call after any change to api_keys that could revoke a key. */
export function forgetAuthenticatedApiKeys(): void {
  const cache = keyCache();
  cache.entries.clear();
  cache.generation += 1;
}

export type Authentication = { ok: true; companyId: string; keyId: string } | { ok: false; error: string };

/**
 * Reads `Authorization: Bearer <key>`. The scheme name is case-insensitive (RFC 9110 §11.1),
 * the key is not. Every failure gets a 403, as contract §5 says.
 */
export async function authenticateApiKey(db: Queryable, authorization: string | null): Promise<Authentication> {
  if (!authorization) {
    return { ok: false, error: 'Missing API key: send the header Authorization: Bearer <API_KEY>' };
  }
  const match = /^bearer +(\S+)$/i.exec(authorization.trim());
  if (!match) {
    return { ok: false, error: 'Invalid Authorization header: expected Authorization: Bearer <API_KEY>' };
  }
  const presented = match[1]!;
  if (!API_KEY_PATTERN.test(presented)) return { ok: false, error: 'Invalid API key' };

  const presentedHash = hashSecret(presented);
  const cache = keyCache();
  const cacheable = isEmbeddedStore(db);
  const now = Date.now();
  const cached = cacheable ? cache.entries.get(presentedHash) : undefined;
  if (cached && cached.until > now) return { ok: true, companyId: cached.companyId, keyId: cached.keyId };
  if (cached) cache.entries.delete(presentedHash);

  const generation = cache.generation;
  const [key] = await db
    .select({ id: apiKeys.id, companyId: apiKeys.companyId, keyHash: apiKeys.keyHash, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, presentedHash))
    .limit(1);
  // The lookup goes through the hash index; comparing the hashes again in constant time keeps
  // the decision itself free of early-exit string comparison.
  if (!key || !hashesEqual(key.keyHash, presentedHash)) return { ok: false, error: 'Invalid API key' };
  if (key.revokedAt) return { ok: false, error: 'This API key has been revoked' };
  if (cacheable && cache.generation === generation) {
    // Bounded: past the limit, start over rather than track ages (a handful of keys is normal).
    if (cache.entries.size >= API_KEY_CACHE_MAX_ENTRIES) cache.entries.clear();
    cache.entries.set(presentedHash, { companyId: key.companyId, keyId: key.id, until: now + API_KEY_CACHE_TTL_MS });
  }
  return { ok: true, companyId: key.companyId, keyId: key.id };
}
