// The staff account rows identity owns: inserting an account with its password (first-run setup
// and staff management both come through here), finding one by e-mail address (sign-in's audit
// entries), and the error a refused account change throws, with the field it is about.
import 'server-only';
import { randomUUID } from 'node:crypto';
import { hashPassword } from 'better-auth/crypto';
import { eq } from 'drizzle-orm';
import { type Db, getDb } from '@/lib/db';
import { staffAccounts, staffUsers } from '@/lib/db/schema';
import { passwordProblem } from './password-policy';
import type { StaffRole } from './roles';

export class StaffError extends Error {
  constructor(
    message: string,
    readonly field?: 'email' | 'role' | 'password',
  ) {
    super(message);
    this.name = 'StaffError';
  }
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export async function findStaffIdByEmail(email: string): Promise<string | null> {
  const db = await getDb();
  const [row] = await db.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.email, email.trim().toLowerCase()));
  return row?.id ?? null;
}

/** Without a password, the account gets one through an invitation (lib/staff/invitations). */
export type NewStaff = { name: string; email: string; role: StaffRole; password?: string };

const ACCOUNT_EXISTS = 'An account with this e-mail address already exists.';

/** Inserts the account, and its password if given, inside `tx` (used by setup and by staff management). */
export async function insertStaff(tx: Tx, staff: NewStaff): Promise<string> {
  // Every way an account gets a password comes through here; each caller checks first to put
  // the message where it belongs, and this makes sure none can skip the rules.
  const problem = staff.password === undefined ? null : passwordProblem(staff.password);
  if (problem) throw new StaffError(problem, 'password');
  const email = staff.email.trim().toLowerCase();
  const [existing] = await tx.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.email, email));
  if (existing) throw new StaffError(ACCOUNT_EXISTS, 'email');
  const id = randomUUID();
  const now = new Date();
  // The check above cannot see an account another transaction (on another instance, say) is
  // adding at this moment: the unique e-mail decides, and nothing is written for the loser.
  const [inserted] = await tx
    .insert(staffUsers)
    .values({ id, name: staff.name.trim(), email, role: staff.role, emailVerified: true, createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: staffUsers.email })
    .returning({ id: staffUsers.id });
  if (!inserted) throw new StaffError(ACCOUNT_EXISTS, 'email');
  if (staff.password === undefined) return id;
  await tx.insert(staffAccounts).values({
    id: randomUUID(),
    accountId: id,
    providerId: 'credential',
    userId: id,
    password: await hashPassword(staff.password),
    createdAt: now,
    updatedAt: now,
  });
  return id;
}
