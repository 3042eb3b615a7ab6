// First run: while no staff account exists, a one-time setup link with a random token (lib/auth/
// setup-link.ts says where it goes) lets whoever holds it create the first administrator at
// /setup?token=…. Only the token's hash is stored, and a token is good for SETUP_TOKEN_LIFETIME_HOURS.
//
// One link serves the whole deployment. Instances that start together on one database must not
// void each other's link, so at start-up a token is issued only when no live one exists
// (claimSetupAtStart, serialised with SETUP_LOCK); the instance that issued it is the one that
// can show it. Because only a hash is stored, nobody can show it again: an operator who cannot
// reach that instance's terminal or file asks for a fresh one (`npm run users -- setup-link`,
// issueSetupToken), which voids the earlier link. Setup removes the token, and the link's file.
import 'server-only';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { count, gt, sql } from 'drizzle-orm';
import { recordAudit } from '@/lib/audit/audit';
import { type Db, getDb } from '@/lib/db';
import { setupTokens, staffUsers } from '@/lib/db/schema';
import { getEnv } from '@/lib/env';
import { SETUP_LOCK } from '@/lib/platform/advisory-locks';
import { logger } from '@/lib/platform/log';
import { removeSetupLinkFile } from './setup-link';
import { insertStaff, type NewStaff, StaffError } from './staff-records';

/** How long a setup link works. Long enough to hand it over; a forgotten one does not stay open for good. */
export const SETUP_TOKEN_LIFETIME_HOURS = 24;

const hashOf = (token: string) => createHash('sha256').update(token).digest();

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** The oldest creation time a token may have and still work. */
const oldestLiveToken = () => sql`now() - make_interval(hours => ${SETUP_TOKEN_LIFETIME_HOURS})`;

async function staffCount(db: Pick<Db, 'select'>): Promise<number> {
  const [staff] = await db.select({ n: count() }).from(staffUsers);
  return Number(staff?.n ?? 0);
}

async function replaceToken(tx: Tx): Promise<string> {
  await tx.delete(setupTokens);
  const token = randomBytes(32).toString('base64url');
  await tx.insert(setupTokens).values({ tokenHash: hashOf(token).toString('hex') });
  return token;
}

/** What a starting instance learns about first-run setup. */
export type SetupAtStart =
  /** Staff accounts exist: no link, and any old token is gone. */
  | { state: 'closed' }
  /** This instance issued the deployment's link. */
  | { state: 'issued'; token: string }
  /** A live link was issued earlier (by another instance, or an earlier start of this one). */
  | { state: 'pending'; issuedAt: Date };

/**
 * At start-up: issues a setup token only when no staff account exists and no live token does.
 * Serialised across instances, so of several instances starting together exactly one issues it.
 */
export async function claimSetupAtStart(db?: Db): Promise<SetupAtStart> {
  const database = db ?? (await getDb());
  return database.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SETUP_LOCK})`);
    if ((await staffCount(tx)) > 0) {
      await tx.delete(setupTokens);
      return { state: 'closed' } as const;
    }
    const [live] = await tx
      .select({ createdAt: setupTokens.createdAt })
      .from(setupTokens)
      .where(gt(setupTokens.createdAt, oldestLiveToken()))
      .limit(1);
    if (live) return { state: 'pending', issuedAt: live.createdAt } as const;
    return { state: 'issued', token: await replaceToken(tx) } as const;
  });
}

/**
 * A fresh token while no staff account exists (else null), replacing any earlier one: the
 * operator's way to a link that can be shown (the staff CLI's `setup-link`).
 */
export async function issueSetupToken(db?: Db): Promise<string | null> {
  const database = db ?? (await getDb());
  return database.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SETUP_LOCK})`);
    if ((await staffCount(tx)) > 0) {
      await tx.delete(setupTokens);
      return null;
    }
    return replaceToken(tx);
  });
}

export async function isSetupOpen(): Promise<boolean> {
  const db = await getDb();
  return (await staffCount(db)) === 0;
}

async function tokenMatches(db: Pick<Db, 'select'>, token: string): Promise<boolean> {
  if (typeof token !== 'string' || token.length < 16 || token.length > 200) return false;
  const rows = await db.select({ tokenHash: setupTokens.tokenHash }).from(setupTokens).where(gt(setupTokens.createdAt, oldestLiveToken()));
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
    if ((await staffCount(tx)) > 0 || !(await tokenMatches(tx, token))) throw new SetupClosedError();
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
