// formAction with a real zod schema and real FormData: the order of its checks (session and
// role, then the fields, then the action), and that every refusal sends the typed values back
// without the password. The session is the only thing stood in for: outside a Next.js request
// there is no cookie to read.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { DENIAL_MESSAGES } from '@/lib/auth/guards';
import type { Staff } from '@/lib/auth/session';
import { textField } from '@/lib/forms/action-input';
import type { FormState } from '@/lib/forms/form-state';
import { answerInLanguage } from '@/test/support/next-intl-server';
import { formAction } from './form-action';

const session = vi.hoisted(() => ({ staff: null as Staff | null, lookups: 0 }));
vi.mock('@/lib/auth/session', () => ({
  getCurrentStaff: async () => {
    session.lookups++;
    return session.staff;
  },
  staffFromHeaders: async () => session.staff,
}));

const ADMIN: Staff = { id: 'u-admin', name: 'Ada Admin', email: 'ada@example.com', role: 'admin', sessionId: 's-1' };
const VIEWER: Staff = { id: 'u-viewer', name: 'Vic Viewer', email: 'vic@example.com', role: 'viewer', sessionId: 's-2' };

const PASSWORD = 'correct horse battery staple';

const accountSchema = z.object({
  name: z.string().trim().min(1, 'Enter a name.').max(100, 'Use at most 100 characters.'),
  email: z.email('Enter a valid e-mail address.'),
  password: z.string().min(12, 'Use at least 12 characters.'),
});

type AccountValues = { name: string; email: string };
type AccountState = FormState<AccountValues, { status: 'done'; id: string }, 'name' | 'email' | 'password'>;

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

const run = vi.fn();

/** An action of the kind the dashboard's forms use: the password is validated, never sent back. */
function accountAction(options: { permission?: 'staff:manage' | 'public' } = {}) {
  return formAction({
    permission: options.permission ?? 'staff:manage',
    schema: accountSchema,
    read: (data) => ({ name: textField(data, 'name'), email: textField(data, 'email'), password: textField(data, 'password') }),
    values: (typed) => ({ name: typed.name.slice(0, 100), email: typed.email }),
    run: async (context): Promise<AccountState> => run(context),
  });
}

const idle: AccountState = { status: 'idle', values: { name: '', email: '' } };
const typed = { name: '  Grace Hopper ', email: 'grace@example.com', password: PASSWORD };

beforeEach(() => {
  session.staff = ADMIN;
  session.lookups = 0;
  run.mockReset();
  run.mockImplementation(async ({ data }) => ({ status: 'done', id: `id-of-${data.name}` }));
});

describe('formAction', () => {
  it('refuses a caller without a session before anything runs, and sends the typed values back without the password', async () => {
    session.staff = null;
    const answer = await accountAction()(idle, form(typed));

    expect(answer).toEqual({
      status: 'failed',
      values: { name: '  Grace Hopper ', email: 'grace@example.com' },
      fieldErrors: {},
      ...DENIAL_MESSAGES.unauthenticated,
    });
    expect(JSON.stringify(answer)).not.toContain(PASSWORD);
    expect(run).not.toHaveBeenCalled();
  });

  it('refuses a role without the permission the same way, also when the form has mistakes', async () => {
    session.staff = VIEWER;
    const answer = await accountAction()(idle, form({ ...typed, email: 'not an address' }));

    // Not a word about the fields: the caller may not use this form at all.
    expect(answer).toEqual({
      status: 'failed',
      values: { name: '  Grace Hopper ', email: 'not an address' },
      fieldErrors: {},
      ...DENIAL_MESSAGES.forbidden,
    });
    expect(run).not.toHaveBeenCalled();
  });

  it('says a refusal in the reader’s language', async () => {
    session.staff = VIEWER;
    try {
      answerInLanguage('fr');
      expect(await accountAction()(idle, form(typed))).toMatchObject({ title: 'Non autorisé pour votre rôle' });
      answerInLanguage('nl');
      expect(await accountAction()(idle, form(typed))).toMatchObject({ title: 'Niet toegestaan voor uw rol' });
    } finally {
      answerInLanguage('en');
    }
  });

  it('answers a form with mistakes field by field, with the values and without the password', async () => {
    const answer = await accountAction()(idle, form({ name: '   ', email: 'grace@', password: 'short' }));

    expect(answer).toEqual({
      status: 'failed',
      values: { name: '   ', email: 'grace@' },
      fieldErrors: { name: ['Enter a name.'], email: ['Enter a valid e-mail address.'], password: ['Use at least 12 characters.'] },
    });
    expect(JSON.stringify(answer)).not.toContain('short');
    expect(run).not.toHaveBeenCalled();
  });

  it('sends back what `values` chooses: here, a name cut to the field size', async () => {
    const answer = await accountAction()(idle, form({ ...typed, name: 'x'.repeat(10_000) }));
    expect(answer).toMatchObject({
      status: 'failed',
      values: { name: 'x'.repeat(100) },
      fieldErrors: { name: ['Use at most 100 characters.'] },
    });
  });

  it('treats anything but a FormData as an empty form', async () => {
    const action = accountAction() as (previous: unknown, formData: unknown) => Promise<unknown>;
    for (const argument of [undefined, null, 'text', { name: 'Grace', email: 'grace@example.com', password: PASSWORD }]) {
      expect(await action(undefined, argument)).toMatchObject({
        status: 'failed',
        values: { name: '', email: '' },
        fieldErrors: { name: ['Enter a name.'], password: ['Use at least 12 characters.'] },
      });
    }
    expect(run).not.toHaveBeenCalled();
  });

  it('runs the action with the parsed data, the staff member and the form, and returns its answer', async () => {
    const data = form({ ...typed, extra: 'kept in the form' });
    const answer = await accountAction()(idle, data);

    expect(answer).toEqual({ status: 'done', id: 'id-of-Grace Hopper' });
    expect(run).toHaveBeenCalledOnce();
    const context = run.mock.calls[0]![0];
    expect(context.data).toEqual({ name: 'Grace Hopper', email: 'grace@example.com', password: PASSWORD });
    expect(context.staff).toEqual(ADMIN);
    expect(context.formData.get('extra')).toBe('kept in the form');
  });

  it("gives the action a refusal of the same shape for its own failures (a limit, the service's answer)", async () => {
    run.mockImplementation(async ({ refuse }) => refuse({ title: 'Too many requests', message: 'Wait a minute and submit again.' }));
    const answer = await accountAction()(idle, form(typed));

    expect(answer).toEqual({
      status: 'failed',
      values: { name: '  Grace Hopper ', email: 'grace@example.com' },
      fieldErrors: {},
      title: 'Too many requests',
      message: 'Wait a minute and submit again.',
    });
    expect(JSON.stringify(answer)).not.toContain(PASSWORD);
  });

  it("runs a 'public' form without asking for a session", async () => {
    session.staff = null;
    const answer = await accountAction({ permission: 'public' })(idle, form(typed));

    expect(answer).toEqual({ status: 'done', id: 'id-of-Grace Hopper' });
    expect(run.mock.calls[0]![0].staff).toBeNull();
    expect(session.lookups).toBe(0);
  });

  it('answers mistakes as the form asks, and carries its own fields on every refusal', async () => {
    const carry = vi.fn((submission: { formData: FormData; previous: unknown }, reason: string) => ({
      key: `${reason}:${submission.formData.get('key') ?? 'none'}:${(submission.previous as { key?: string } | undefined)?.key ?? 'none'}`,
    }));
    const invalid = vi.fn(() => ({ status: 'invalid' as const, title: 'Some details need your attention', message: 'Nothing was saved.' }));
    const action = formAction({
      permission: 'staff:manage',
      schema: accountSchema,
      read: (data) => ({ name: textField(data, 'name'), email: textField(data, 'email'), password: textField(data, 'password') }),
      values: (values): AccountValues => ({ name: values.name, email: values.email }),
      invalid,
      carry,
      run: async ({ refuse }) => refuse({ message: 'The service did not answer.' }),
    });
    const previous = { key: 'k-previous' };

    expect(await action(previous as never, form({ ...typed, password: '', key: 'k-form' }))).toEqual({
      status: 'invalid',
      values: { name: '  Grace Hopper ', email: 'grace@example.com' },
      fieldErrors: { password: ['Use at least 12 characters.'] },
      title: 'Some details need your attention',
      message: 'Nothing was saved.',
      key: 'invalid:k-form:k-previous',
    });
    expect(invalid).toHaveBeenCalledWith({ password: ['Use at least 12 characters.'] });

    expect(await action(previous as never, form({ ...typed, key: 'k-form' }))).toMatchObject({
      status: 'failed',
      message: 'The service did not answer.',
      key: 'failed:k-form:k-previous',
    });

    session.staff = null;
    expect(await action(previous as never, form(typed))).toMatchObject({
      status: 'failed',
      ...DENIAL_MESSAGES.unauthenticated,
      key: 'unauthenticated:none:k-previous',
    });
  });
});
