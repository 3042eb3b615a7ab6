// The dashboard's form actions, refused before they reach the database, the service or
// better-auth: what each form is told (status, messages, field errors) and that the typed values
// come back, passwords never. The session is stood in for: outside a Next.js request there is
// no cookie to read. The database is an in-memory one, so a refusal that failed to refuse
// could not write into a real data directory.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DENIAL_MESSAGES } from '@/lib/auth/guards';
import type { Staff } from '@/lib/auth/session';
import { setupAction, signInAction } from '@/lib/auth/sign-in/actions';
import { getDb } from '@/lib/db';
import { staffAccounts, staffInvitations, staffUsers } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { changeRoleAction, createStaffAction, disableStaffAction } from '@/lib/staff/accounts/actions';
import { acceptInvitationAction, issueInvitationAction } from '@/lib/staff/invitations/actions';
import { createVerificationAction } from '@/lib/verifications/create/actions';

const session = vi.hoisted(() => ({ staff: null as Staff | null }));
vi.mock('@/lib/auth/session', () => ({
  getCurrentStaff: async () => session.staff,
  staffFromHeaders: async () => session.staff,
}));

// Outside a Next.js request there is no page cache to mark stale; a create that succeeds calls it.
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

const ADMIN: Staff = { id: 'u-admin', name: 'Ada Admin', email: 'ada@example.com', role: 'admin', sessionId: 's-1' };
const VIEWER: Staff = { id: 'u-viewer', name: 'Vic Viewer', email: 'vic@example.com', role: 'viewer', sessionId: 's-2' };
const PASSWORD = 'correct horse battery staple';

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

beforeAll(() => {
  process.env.DATA_DIR = 'memory://';
  resetEnv();
});

beforeEach(() => {
  session.staff = ADMIN;
});

afterAll(async () => {
  await closeDatabases();
});

describe('createVerificationAction', () => {
  const fields = {
    name: 'Alice Martin',
    email: 'alice@example.com',
    purpose: 'legal_obligations',
    customPurpose: '',
    language: 'en',
    emailNotification: 'on',
    phone: '',
  };
  const values = { ...fields, shareableLink: false, emailNotification: true, smsNotification: false };

  it("refuses a viewer with the values and the form's own submission key", async () => {
    session.staff = VIEWER;
    const key = randomUUID();
    expect(await createVerificationAction({ status: 'idle', submissionKey: key }, form({ ...fields, submissionKey: key }))).toEqual({
      status: 'failed',
      submissionKey: key,
      values,
      fieldErrors: {},
      ...DENIAL_MESSAGES.forbidden,
    });
  });

  it('answers mistakes as invalid, field by field, keeping a well-formed key', async () => {
    const key = randomUUID();
    const answer = await createVerificationAction(
      { status: 'idle', submissionKey: key },
      form({ ...fields, name: '', submissionKey: key }),
    );
    expect(answer).toEqual({
      status: 'invalid',
      submissionKey: key,
      values: { ...values, name: '' },
      fieldErrors: { name: ["Enter the person's full name."] },
      title: 'Some details need your attention',
      message: 'Nothing was created. Correct the highlighted fields and submit again.',
    });
  });

  it('asks for one more click, with a fresh key, when the form sent none', async () => {
    const answer = await createVerificationAction({ status: 'idle', submissionKey: 'old' }, form(fields));
    expect(answer).toMatchObject({ status: 'failed', values, fieldErrors: {}, title: 'The form has expired' });
    expect(answer.submissionKey).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('signInAction', () => {
  it('answers an empty form at the fields and sends the e-mail back, never the password', async () => {
    session.staff = null;
    const answer = await signInAction({ status: 'idle', values: { email: '' } }, form({ email: 'Not An Address', password: '' }));
    expect(answer).toEqual({
      status: 'failed',
      values: { email: 'Not An Address' },
      fieldErrors: { email: ['Enter a valid e-mail address, like name@example.com.'], password: ['Enter your password.'] },
    });

    const tooLong = await signInAction({ status: 'idle', values: { email: '' } }, form({ email: '', password: 'p'.repeat(300) }));
    expect(JSON.stringify(tooLong)).not.toContain('ppp');
  });
});

describe('setupAction', () => {
  it('answers mistakes at the fields with the name and e-mail, never the passwords', async () => {
    const answer = await setupAction(
      { status: 'idle', values: { name: '', email: '' } },
      form({ token: 't', name: 'Grace Hopper', email: 'grace@example.com', password: PASSWORD, confirmPassword: `${PASSWORD}!` }),
    );
    expect(answer).toEqual({
      status: 'failed',
      values: { name: 'Grace Hopper', email: 'grace@example.com' },
      fieldErrors: { confirmPassword: ['The two passwords differ.'] },
    });
    expect(JSON.stringify(answer)).not.toContain(PASSWORD);
  });
});

describe('invitation actions', () => {
  const TOKEN = 'a'.repeat(43);

  it('answers a common password, or two that differ, at the fields and sends no password back', async () => {
    session.staff = null;
    const common = await acceptInvitationAction(
      { status: 'idle', values: {} },
      form({ token: TOKEN, password: 'password1234', confirmPassword: 'password1234' }),
    );
    expect(common).toMatchObject({
      status: 'failed',
      values: {},
      fieldErrors: { password: [expect.stringContaining('most common ones')] },
    });
    const differ = await acceptInvitationAction(
      { status: 'idle', values: {} },
      form({ token: TOKEN, password: PASSWORD, confirmPassword: `${PASSWORD}!` }),
    );
    expect(differ).toEqual({ status: 'failed', values: {}, fieldErrors: { confirmPassword: ['The two passwords differ.'] } });
    expect(JSON.stringify([common, differ])).not.toContain('password1234');
    expect(JSON.stringify(differ)).not.toContain(PASSWORD);
  });

  it('refuses a token that was never issued, with a plain message', async () => {
    session.staff = null;
    const answer = await acceptInvitationAction(
      { status: 'idle', values: {} },
      form({ token: TOKEN, password: PASSWORD, confirmPassword: PASSWORD }),
    );
    expect(answer).toMatchObject({ status: 'failed', message: expect.stringContaining('This invitation link is not valid') });
  });

  it('refuses to issue a link to a caller without a session, and to a viewer', async () => {
    session.staff = null;
    expect(await issueInvitationAction({ status: 'idle', values: {} }, form({ userId: 'u-someone' }))).toMatchObject({
      status: 'failed',
      ...DENIAL_MESSAGES.unauthenticated,
    });
    session.staff = VIEWER;
    expect(await issueInvitationAction({ status: 'idle', values: {} }, form({ userId: 'u-someone' }))).toMatchObject({
      status: 'failed',
      ...DENIAL_MESSAGES.forbidden,
    });
  });
});

describe('staff actions', () => {
  const idleCreate = { status: 'idle' as const, values: { name: '', email: '', role: 'viewer' } };

  it('refuses a caller without a session, the create form keeping its values', async () => {
    session.staff = null;
    expect(await createStaffAction(idleCreate, form({ name: 'Grace', email: 'grace@example.com', role: 'admin' }))).toEqual({
      status: 'failed',
      values: { name: 'Grace', email: 'grace@example.com', role: 'admin' },
      fieldErrors: {},
      ...DENIAL_MESSAGES.unauthenticated,
    });
    expect(await changeRoleAction({ status: 'idle', values: {} }, form({ userId: 'u-1', role: 'admin' }))).toMatchObject({
      status: 'failed',
      message: DENIAL_MESSAGES.unauthenticated.message,
    });
  });

  it('answers a create with mistakes at the fields, the values cut to the fields', async () => {
    expect(await createStaffAction(idleCreate, form({ name: 'n'.repeat(300), email: '', role: 'owner' }))).toEqual({
      status: 'failed',
      values: { name: 'n'.repeat(200), email: '', role: 'owner' },
      fieldErrors: { name: ['Use at most 100 characters.'], email: ['Enter their e-mail address.'], role: ['Choose a role.'] },
    });
  });

  it('says in one sentence which part of a row change was wrong', async () => {
    const idle = { status: 'idle' as const, values: {} };
    expect(await changeRoleAction(idle, form({ userId: '', role: 'admin' }))).toEqual({
      status: 'failed',
      values: {},
      fieldErrors: {},
      message: 'That account does not exist.',
    });
    expect(await changeRoleAction(idle, form({ userId: 'u-1', role: 'owner' }))).toMatchObject({ message: 'Choose one of the roles.' });
    expect(await changeRoleAction(idle, form({}))).toMatchObject({ message: 'That account does not exist.' });
    expect(await disableStaffAction(idle, form({ userId: '' }))).toEqual({
      status: 'failed',
      values: {},
      fieldErrors: {},
      message: 'That account does not exist.',
    });
  });
});

describe('with PASSWORD_SIGN_IN=off', () => {
  const SETTINGS = {
    OIDC_ISSUER: 'http://127.0.0.1:9/',
    OIDC_CLIENT_ID: 'verification-desk',
    OIDC_CLIENT_SECRET: 'a-client-secret-for-the-tests',
    PASSWORD_SIGN_IN: 'off',
  };

  beforeAll(() => {
    Object.assign(process.env, SETTINGS);
    resetEnv();
  });

  afterAll(() => {
    for (const name of Object.keys(SETTINGS)) delete process.env[name];
    resetEnv();
  });

  it('creates a colleague without a password or an invitation: single sign-on is their way in', async () => {
    const email = `sso-only-${randomUUID()}@example.com`;
    const answer = await createStaffAction(
      { status: 'idle', values: { name: '', email: '', role: 'viewer' } },
      form({ name: 'Sol Single', email, role: 'operator' }),
    );
    expect(answer).toMatchObject({ status: 'created', created: { email, link: null, expiresAt: null } });
    const db = await getDb();
    const [user] = await db.select({ id: staffUsers.id, role: staffUsers.role }).from(staffUsers).where(eq(staffUsers.email, email));
    expect(user?.role).toBe('operator');
    expect(await db.select().from(staffAccounts).where(eq(staffAccounts.userId, user!.id))).toEqual([]);
    expect(await db.select().from(staffInvitations).where(eq(staffInvitations.userId, user!.id))).toEqual([]);

    // No link can be issued afterwards, nor any link used to set a password.
    expect(await issueInvitationAction({ status: 'idle', values: {} }, form({ userId: user!.id }))).toMatchObject({
      status: 'failed',
      message: expect.stringContaining('Password sign-in is turned off'),
    });
    session.staff = null;
    expect(
      await acceptInvitationAction(
        { status: 'idle', values: {} },
        form({ token: 'a'.repeat(43), password: PASSWORD, confirmPassword: PASSWORD }),
      ),
    ).toMatchObject({ status: 'failed', message: expect.stringContaining('Password sign-in is turned off') });
  });
});
