// First run: while no staff account exists, the server makes a one-time setup link with a
// random token (lib/auth/setup-link.ts says where it goes), and /setup?token=… creates the first
// administrator. Only the token's hash is stored; a new token replaces the old at every start,
// and setup removes it, and the link's file.
import 'server-only';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { count, sql } from 'drizzle-orm';
import { recordAudit } from '@/lib/audit/audit';
import { getDb } from '@/lib/db';
import { setupTokens, staffUsers } from '@/lib/db/schema';
import { getEnv } from '@/lib/env';
import { SETUP_LOCK } from '@/lib/platform/advisory-locks';
import { logger } from '@/lib/platform/log';
import { insertStaff, type NewStaff, StaffError } from '@/lib/staff/staff-accounts';
import { removeSetupLinkFile } from './setup-link';

const hashOf = (token: string) => createHash('sha256').update(token).digest();

/** Returns a fresh setup token when there is no staff account yet, else null. */
export async function issueSetupTokenIfNeeded(): Promise<string | null> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [staff] = await tx.select({ n: count() }).from(staffUsers);
    await tx.delete(setupTokens);
    if ((staff?.n ?? 0) > 0) return null;
    const token = randomBytes(32).toString('base64url');
    await tx.insert(setupTokens).values({ tokenHash: hashOf(token).toString('hex') });
    return token;
  });
}

export async function isSetupOpen(): Promise<boolean> {
  const db = await getDb();
  const [staff] = await db.select({ n: count() }).from(staffUsers);
  return (staff?.n ?? 0) === 0;
}

async function tokenMatches(db: Pick<Awaited<ReturnType<typeof getDb>>, 'select'>, token: string): Promise<boolean> {
  if (typeof token !== 'string' || token.length < 16 || token.length > 200) return false;
  const rows = await db.select({ tokenHash: setupTokens.tokenHash }).from(setupTokens);
  const presented = hashOf(token);
  return rows.some((row) => timingSafeEqual(Buffer.from(row.tokenHash, 'hex'), presented));
}

export async function isSetupTokenValid(token: string): Promise<boolean> {
  return (await isSetupOpen()) && tokenMatches(await getDb(), token);
}

export class SetupClosedError extends Error {
  constructor() {
    super('Setup is no longer possible');
    this.name = 'SetupClosedError';
  }
}

/** Creates the first administrator, if the token is right and nobody has done it yet. */

export async function completeSetup(token: string, admin: Omit<NewStaff, 'role'>): Promise<string> {
  const db = await getDb();
  const id = await db.transaction(async (tx) => {
    // One setup at a time, across instances: a second one waits here, then finds the first
    // administrator and the token gone.
    await tx.execute(sql`select pg_advisory_xact_lock(${SETUP_LOCK})`);
    const [staff] = await tx.select({ n: count() }).from(staffUsers);
    if ((staff?.n ?? 0) > 0 || !(await tokenMatches(tx, token))) throw new SetupClosedError();
    const id = await insertStaff(tx, { ...admin, role: 'admin' });
    await tx.delete(setupTokens);
    await recordAudit({ actorId: id, action: 'setup.completed', target: { type: 'staff', id } }, tx);
    return id;
  });
  // After the commit: the token is void by now, so a file that cannot be removed holds a dead
  // link — worth a warning, not a failed setup. (The next start removes it too.)
  await removeSetupLinkFile(getEnv().DATA_DIR).catch((error: unknown) =>
    logger.warn({ area: 'setup', err: error }, 'could not remove the setup link file after setup'),
  );
  return id;
}

export { StaffError };
