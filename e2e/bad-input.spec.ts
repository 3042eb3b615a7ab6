// Bad input to every server action: each action of the build, called by a
// caller who may call it, gets empty, huge, over-limit, Unicode, wrongly typed, prototype-named
// and unknown input in both encodings React uses (multipart with a FormData, and plain JSON
// arguments). Every answer must be a 2xx/3xx/4xx without a stack or an internal path, naming
// what is wrong; nothing may be half-written, and the server must be unharmed afterwards.
// The sandbox API (POST /v1/verifications/new, GET /v1/verifications/{id}) is fed the same over
// real HTTP, for what its Vitest suites (create-verification*.test.ts, get-verification.test.ts)
// cannot see: Next's own URL decoding, and a 2 MB body through the real server.
import { randomUUID } from 'node:crypto';
import { type APIRequestContext, type APIResponse, expect, test } from '@playwright/test';
import { registerRowsNamed } from './support/over-http';
import {
  type CapturedAction,
  type FormPart,
  listServerActions,
  multipartActionCall,
  plainActionCall,
  replayAction,
} from './support/server-actions';
import { storageStateOf } from './support/staff';

const SIGNED_OUT = { cookies: [], origins: [] };
const MARKER = `bi${Math.random().toString(36).slice(2, 8)}`;
const LONG = 'x'.repeat(10_000);
const TWO_MB = 'y'.repeat(2 * 1024 * 1024);
// Right-to-left text with an override, an emoji ZWJ sequence, combining marks and a zero-width space.
const UNICODE = `Zoë \u202Eأحمد\u202C 👩🏽‍💻 Ǹ̷o\u0301 zw\u200Bj ${MARKER}`;
// lib/proxy/server-action-gate.ts
const TOO_LARGE = 'The form is too large to send: at most 1 MB is accepted.';
const MALFORMED = 'This request is not a valid call of a server action';
const POLLUTION_MARK = `POLLUTED-${MARKER}`;

/** Which answer a call should get: messages in the action's own answer, or a refusal. */
type Expectation =
  | { messages: string[] }
  | { status: number; text?: string }
  /** A person-page action: back to the token's page, with the field's error code when given. */
  | { redirect: string };

interface Profile {
  page: string;
  caller: 'anonymous' | 'admin';
  /** The root argument array; '$K1' is the FormData. */
  args: unknown[];
  /** A complete, well-formed form (fresh values per call where a value must be unique). */
  fields: () => Record<string, string>;
  /** Fields every mangled variant keeps, so the answer is about the other fields. */
  keep?: string[];
  baseline: Expectation;
  empty: Expectation;
  /** Every field (but the kept ones) empty, a file, or repeated with an empty first value; default `empty`. */
  blank?: Expectation;
  long: Expectation;
}

/** Set in beforeAll: a shareable-link request's token for each person-page action. */
const tokens: Record<'complete' | 'fail', string> = { complete: '', fail: '' };
const signInEmail = `nobody.${MARKER}@example.com`;

/** An administrator's change to an account id that was never issued: nobody is changed. */
const unknownAccountProfile = (state: Record<string, unknown>): Profile => ({
  page: '/staff',
  caller: 'admin',
  args: [state, '$K1'],
  fields: () => ({ userId: randomUUID() }),
  baseline: { messages: ['That account does not exist.'] },
  empty: { messages: ['That account does not exist.'] },
  long: { messages: ['That account does not exist.'] },
});

/**
 * One's own account, sent without a session: refused before any field is read, so no wrong
 * password counts against the shared administrator's sign-ins and no session of theirs ends.
 */
const refusedWithoutSessionProfile = (page: string, args: unknown[], fields: () => Record<string, string>): Profile => ({
  page,
  caller: 'anonymous',
  args,
  fields,
  baseline: { messages: ['Nothing was done. Sign in again'] },
  empty: { messages: ['Nothing was done. Sign in again'] },
  long: { messages: ['Nothing was done. Sign in again'] },
});

const PROFILES: Record<string, Profile> = {
  signInAction: {
    page: '/sign-in',
    caller: 'anonymous',
    args: [{ status: 'idle', email: '' }, '$K1'],
    fields: () => ({ email: signInEmail, password: 'not-the-password-123' }),
    baseline: { messages: ['Incorrect e-mail address or password.'] },
    empty: { messages: ['Enter your e-mail address.', 'Enter your password.'] },
    long: { messages: ['That e-mail address is too long.', 'That password is too long.'] },
  },
  // Single sign-on is not configured on the shared server: every form gets that answer.
  startSingleSignOnAction: {
    page: '/sign-in',
    caller: 'anonymous',
    args: [{ status: 'idle', values: {} }, '$K1'],
    fields: () => ({ next: '/verifications' }),
    baseline: { messages: ['Single sign-on is not set up for this dashboard'] },
    empty: { messages: ['Single sign-on is not set up for this dashboard'] },
    long: { messages: ['Single sign-on is not set up for this dashboard'] },
  },
  // Nobody issued this link: whatever the token field holds, the answer is that it is not one.
  signInWithLinkAction: {
    page: '/sign-in/link',
    caller: 'anonymous',
    args: [{ status: 'idle', values: {} }, '$K1'],
    fields: () => ({ token: 'a'.repeat(43) }),
    baseline: { messages: ['This is not a valid sign-in link'] },
    empty: { messages: ['This is not a valid sign-in link'] },
    long: { messages: ['This is not a valid sign-in link'] },
  },
  setupAction: {
    page: '/setup',
    caller: 'anonymous',
    args: [{ status: 'idle', values: { name: '', email: '' } }, '$K1'],
    fields: () => ({
      token: 'a'.repeat(43),
      name: `Setup ${MARKER}`,
      email: `setup.${MARKER}@example.com`,
      password: 'setup-password-123',
      confirmPassword: 'setup-password-123',
    }),
    // Setup is closed on a server with accounts: a well-formed form reaches the token check.
    baseline: { messages: ['This setup link is no longer valid'] },
    empty: { messages: ['Enter a name.', 'Enter your e-mail address.', 'Use at least 12 characters.'] },
    long: { messages: ['Use at most 100 characters.', 'That e-mail address is too long.', 'Use at most 256 characters.'] },
  },
  createVerificationAction: {
    page: '/verifications/new',
    caller: 'admin',
    args: [{ status: 'idle', submissionKey: randomUUID() }, '$K1'],
    fields: () => ({
      submissionKey: randomUUID(),
      name: `Bad Input ${MARKER}`,
      email: 'bad.input@example.com',
      purpose: 'legal_obligations',
      customPurpose: '',
      language: 'en',
      emailNotification: 'on',
      phone: '',
    }),
    keep: ['submissionKey'],
    baseline: { messages: ['Verification request created successfully.'] },
    empty: {
      messages: ["Enter the person's full name.", 'Choose the purpose of the verification.', 'Choose English, Français or Nederlands.'],
    },
    long: {
      messages: [
        'The name can be at most 200 characters.',
        'The e-mail address can be at most 254 characters.',
        'Keep the purpose under 500 characters.',
        'That is too long for a phone number.',
      ],
    },
  },
  createStaffAction: {
    page: '/staff',
    caller: 'admin',
    args: [{ status: 'idle', values: { name: '', email: '', role: 'viewer' } }, '$K1'],
    fields: () => ({ name: `Staff ${MARKER}`, email: `staff.${randomUUID().slice(0, 8)}.${MARKER}@example.com`, role: 'viewer' }),
    baseline: { messages: ['"status":"created"'] },
    empty: { messages: ['Enter a name.', 'Enter their e-mail address.', 'Choose a role.'] },
    long: { messages: ['Use at most 100 characters.', 'That e-mail address is too long.', 'Choose a role.'] },
  },
  // Never a real account id: these must not change anybody.
  changeRoleAction: {
    page: '/staff',
    caller: 'admin',
    args: [{ status: 'idle' }, '$K1'],
    fields: () => ({ userId: randomUUID(), role: 'admin' }),
    baseline: { messages: ['That account does not exist.'] },
    empty: { messages: ['That account does not exist.'] },
    long: { messages: ['That account does not exist.'] },
  },
  disableStaffAction: unknownAccountProfile({ status: 'idle' }),
  issueInvitationAction: unknownAccountProfile({ status: 'idle', values: {} }),
  // A token that was never issued: a well-formed form reaches the token check, and no password is set.
  acceptInvitationAction: {
    page: `/invitation/${'a'.repeat(43)}`,
    caller: 'anonymous',
    args: [{ status: 'idle', values: {} }, '$K1'],
    fields: () => ({ token: 'a'.repeat(43), password: 'invited-password-123', confirmPassword: 'invited-password-123' }),
    baseline: { messages: ['This invitation link is not valid'] },
    empty: { messages: ['Use at least 12 characters.'] },
    long: { messages: ['Use at most 256 characters.'] },
  },
  enableStaffAction: unknownAccountProfile({ status: 'idle', values: {} }),
  // An id the register does not hold: a well-formed form reaches that check, and nothing is recorded.
  recordNameReviewAction: {
    page: `/verifications/${randomUUID()}`,
    caller: 'admin',
    args: [{ status: 'idle', values: { verificationId: '', decision: '', note: '' } }, '$K1'],
    fields: () => ({ verificationId: randomUUID(), decision: 'different_person', note: `Checked ${MARKER}` }),
    baseline: { messages: ['This verification was not created from this dashboard'] },
    empty: {
      messages: [
        'The form does not say which verification it is for: reload the page.',
        'Choose “Same person” or “Not the same person”.',
        'Write a short note saying why you decided this.',
      ],
    },
    long: {
      messages: [
        'The form does not say which verification it is for: reload the page.',
        'Choose “Same person” or “Not the same person”.',
        'Keep the note to 500 characters or fewer.',
      ],
    },
  },
  // An id the register does not hold: a well-formed form reaches that check, and nobody is assigned.
  changeAssignmentAction: {
    page: `/verifications/${randomUUID()}`,
    caller: 'admin',
    args: [{ status: 'idle', values: { verificationId: '', intent: '', to: '', expected: '' } }, '$K1'],
    fields: () => ({ verificationId: randomUUID(), intent: 'take', to: '', expected: '' }),
    baseline: { messages: ['This request is not in the register'] },
    empty: { messages: ['This request has no valid id. Reload the page.', 'Choose what to do.'] },
    long: { messages: ['This request has no valid id. Reload the page.', 'Choose what to do.'] },
  },
  // An id the register does not hold: a well-formed form reaches that check, and no note is written.
  addNoteAction: {
    page: `/verifications/${randomUUID()}`,
    caller: 'admin',
    args: [{ status: 'idle', values: { verificationId: '', text: '', corrects: '' } }, '$K1'],
    fields: () => ({ verificationId: randomUUID(), text: `Note ${MARKER}`, corrects: '' }),
    baseline: { messages: ['notes cannot be added to it here'] },
    empty: { messages: ['The form does not say which verification it is for: reload the page.', 'Write the note.'] },
    long: {
      messages: [
        'The form does not say which verification it is for: reload the page.',
        'Keep the note to 2,000 characters or fewer.',
        'Choose a note of this request to correct, or none.',
      ],
    },
  },
  resetTwoFactorAction: unknownAccountProfile({ status: 'idle', values: {} }),
  changePasswordAction: refusedWithoutSessionProfile('/account', [{ status: 'idle', values: { endOtherSessions: true } }, '$K1'], () => ({
    currentPassword: 'not-the-password-123',
    newPassword: 'a new password nobody uses',
    confirmPassword: 'a new password nobody uses',
    endOtherSessions: 'on',
  })),
  // The language switcher is public (the pages before sign-in have it); a code it does not know,
  // in any shape, changes nothing. Anonymous, and English: an administrator's own language, and
  // this context's answers to the actions after it, must stay English for the checks that read them.
  chooseLanguageAction: {
    page: '/sign-in',
    caller: 'anonymous',
    args: ['$K1'],
    fields: () => ({ language: 'en' }),
    baseline: { status: 200 },
    empty: { status: 200 },
    long: { status: 200 },
  },
  endOtherSessionsAction: refusedWithoutSessionProfile('/account', [{ status: 'idle', values: {} }, '$K1'], () => ({ confirm: 'on' })),
  checkAuditChainAction: refusedWithoutSessionProfile('/audit', [{ status: 'idle', values: {} }, '$K1'], () => ({ confirm: 'on' })),
  enrolTwoFactorAction: refusedWithoutSessionProfile('/account/two-factor', [{ status: 'idle', values: {} }, '$K1'], () => ({
    step: 'password',
    password: 'not-the-password-123',
    code: '',
    totpURI: '',
    proof: '',
  })),
  turnOffTwoFactorAction: refusedWithoutSessionProfile('/account/two-factor', [{ status: 'idle', values: {} }, '$K1'], () => ({
    password: 'not-the-password-123',
  })),
  // The code prompt is public (the password step's signed cookie is its credential): without
  // that cookie a well-formed code is told to start again; anything else, what a code looks like.
  verifySignInCodeAction: {
    page: '/sign-in/two-factor',
    caller: 'anonymous',
    args: [{ status: 'idle', values: { code: '' } }, '$K1'],
    fields: () => ({ code: '123456' }),
    baseline: { messages: ['Sign in again with your e-mail address and password.'] },
    empty: { messages: ['Enter the 6-digit code from your authenticator app.'] },
    long: { messages: ['Enter the 6-digit code from your authenticator app.'] },
  },
  verifySignInBackupCodeAction: {
    page: '/sign-in/two-factor',
    caller: 'anonymous',
    args: [{ status: 'idle', values: { code: '' } }, '$K1'],
    fields: () => ({ code: 'abcde-12345' }),
    baseline: { messages: ['Sign in again with your e-mail address and password.'] },
    empty: { messages: ['Enter one of your backup codes, like abcde-12345.'] },
    long: { messages: ['Enter one of your backup codes, like abcde-12345.'] },
  },
  // The person's page: the token from the link is the caller's only credential. Without a
  // (valid) token there is no page to go back to: 404, like the page itself.
  completeVerificationAction: {
    page: '/sandbox/verify/token',
    caller: 'anonymous',
    args: ['$K1'],
    fields: () => ({ token: tokens.complete, method: 'passport', identifiedName: `Identified ${MARKER}` }),
    keep: ['token'],
    baseline: { redirect: '' },
    empty: { status: 404 },
    blank: { redirect: '?error=method' },
    long: { redirect: '?error=method' },
  },
  failVerificationAction: {
    page: '/sandbox/verify/token',
    caller: 'anonymous',
    args: ['$K1'],
    fields: () => ({ token: tokens.fail, reason: 'document_expired' }),
    keep: ['token'],
    baseline: { redirect: '' },
    empty: { status: 404 },
    blank: { redirect: '?error=reason' },
    long: { redirect: '?error=reason' },
  },
  // Plain arguments, no form: fed in its own test below; listed here for the size checks.
  recordLinkCopiedAction: {
    page: '/',
    caller: 'admin',
    args: [],
    fields: () => ({}),
    baseline: { messages: ['{"ok":true}'] },
    empty: { messages: ['"ok":false'] },
    long: { messages: ['"ok":false'] },
  },
  // It takes no arguments: whatever is sent, it answers only whether the caller's session may
  // create (an admin may), and nothing else happens.
  checkCreateAccessAction: {
    page: '/verifications/new',
    caller: 'admin',
    args: [],
    fields: () => ({}),
    baseline: { messages: ['{"allowed":true}'] },
    empty: { messages: ['{"allowed":true}'] },
    long: { messages: ['{"allowed":true}'] },
  },
};

const asParts = (fields: Record<string, string>): FormPart[] => Object.entries(fields).map(([name, value]) => ({ name, value }));

function mangle(profile: Profile, value: (field: string) => string): Record<string, string> {
  const fields = profile.fields();
  return Object.fromEntries(
    Object.entries(fields).map(([name, original]) => [name, profile.keep?.includes(name) ? original : value(name)]),
  );
}

/** Fails on a 5xx, a stack frame or an internal path; returns the answer's text for more checks. */
async function expectSafe(response: APIResponse, label: string): Promise<string> {
  const text = await response.text();
  expect(response.status(), `${label}: ${text.slice(0, 300)}`).toBeLessThan(500);
  expect(text, label).not.toMatch(/\bat \S+ \(?\S+:\d+:\d+\)?/);
  for (const internal of ['/work/', 'node_modules', '.next/server', 'webpack-internal']) expect(text, label).not.toContain(internal);
  return text;
}

async function expectAnswer(response: APIResponse, expected: Expectation, label: string): Promise<void> {
  const text = await expectSafe(response, label);
  // Flight rows are JSON: quotes inside strings come escaped.
  const plain = text.replaceAll('\\"', '"');
  if ('messages' in expected) {
    expect(response.status(), label).toBe(200);
    for (const message of expected.messages) expect(plain, `${label}: ${plain.slice(0, 600)}`).toContain(message.replaceAll('\\"', '"'));
  } else if ('redirect' in expected) {
    const location = response.headers()['x-action-redirect'] ?? '';
    expect(location, `${label}: redirect`).toContain('/sandbox/verify/');
    if (expected.redirect) expect(location, label).toContain(expected.redirect);
  } else {
    expect(response.status(), `${label}: ${text.slice(0, 200)}`).toBe(expected.status);
    if (expected.text) expect(text, label).toContain(expected.text);
  }
}

test.describe('bad input to every server action', () => {
  test.describe.configure({ mode: 'serial' });
  let admin: APIRequestContext;
  let anonymous: APIRequestContext;
  let origin: string;
  const actions = listServerActions();
  const idOf = (name: string) => actions.find((action) => action.name === name)!.id;
  const send = (profile: Profile, call: CapturedAction, extraHeaders: Record<string, string> = {}) =>
    replayAction(
      profile.caller === 'admin' ? admin : anonymous,
      origin,
      { ...call, headers: { ...call.headers, ...extraHeaders } },
      { origin },
    );

  /** A created shareable-link request's person-page token, through the action itself. */
  async function createLinkToken(): Promise<string> {
    const profile = PROFILES.createVerificationAction!;
    const fields = { ...profile.fields(), shareableLink: 'on', email: '', emailNotification: '' };
    const response = await send(
      profile,
      multipartActionCall(idOf('createVerificationAction'), profile.page, profile.args, asParts(fields)),
    );
    const token = /\/sandbox\/verify\/([A-Za-z0-9_-]{43})/.exec(await response.text())?.[1];
    expect(token, 'a shareable link in the created answer').toBeTruthy();
    return token!;
  }

  test.beforeAll(async ({ playwright, baseURL }) => {
    origin = new URL(baseURL!).origin;
    admin = await playwright.request.newContext({ baseURL, storageState: storageStateOf('admin') });
    // Sign-in, setup and the person's page are public: their callers have no session. The shared
    // server trusts one proxy hop (playwright.config.ts), so these failed sign-ins count against
    // a network of their own, not the loopback address the browser tests sign in from.
    anonymous = await playwright.request.newContext({
      baseURL,
      storageState: SIGNED_OUT,
      extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.77' },
    });
    tokens.complete = await createLinkToken();
    tokens.fail = await createLinkToken();
  });

  test.afterAll(async () => {
    await admin?.dispose();
    await anonymous?.dispose();
  });

  test('every action of the build has a bad-input profile', () => {
    // A new action fails here until it is given a profile, so none goes untested.
    expect(actions.map((action) => action.name).sort()).toEqual(Object.keys(PROFILES).sort());
  });

  test('multipart (FormData) encoding: empty, 10 000 characters, files, repeated, Unicode, prototype and unknown fields', async () => {
    for (const [name, profile] of Object.entries(PROFILES)) {
      if (name === 'recordLinkCopiedAction') continue;
      const call = (fields: FormPart[], args = profile.args) => multipartActionCall(idOf(name), profile.page, args, fields);
      await test.step(name, async () => {
        await expectAnswer(await send(profile, call(asParts(profile.fields()))), profile.baseline, `${name} well-formed`);
        await expectAnswer(await send(profile, call([])), profile.empty, `${name} empty form`);
        const blank = mangle(profile, () => '');
        await expectAnswer(await send(profile, call(asParts(blank))), profile.blank ?? profile.empty, `${name} empty values`);
        await expectAnswer(await send(profile, call(asParts(mangle(profile, () => LONG)))), profile.long, `${name} 10 000 characters`);
        // A file where text is expected counts as not typed (never as the text "[object File]").
        const files = Object.entries(mangle(profile, () => 'file content')).map(([field, value]) =>
          profile.keep?.includes(field)
            ? { name: field, value }
            : { name: field, value: Buffer.from(`${field} as a file`), filename: `${field}.txt` },
        );
        await expectAnswer(await send(profile, call(files)), profile.blank ?? profile.empty, `${name} files`);
        // An array: every field twice, the first one empty (FormData.get takes the first).
        const twice = Object.entries(profile.fields()).flatMap(([field, value]) =>
          profile.keep?.includes(field)
            ? [{ name: field, value }]
            : [
                { name: field, value: '' },
                { name: field, value },
              ],
        );
        await expectAnswer(await send(profile, call(twice)), profile.blank ?? profile.empty, `${name} repeated fields`);
        await expectSafe(await send(profile, call(asParts(mangle(profile, () => UNICODE)))), `${name} Unicode`);
        await expectSafe(
          await send(profile, call(asParts(mangle(profile, () => '\u0000\u0007 \u001b[31m')))),
          `${name} control characters`,
        );
        // Prototype-named and unknown fields are ignored; prototype keys in the state argument
        // are plain data. Both leave the answer as for the well-formed form.
        const extra = [
          { name: '__proto__', value: JSON.stringify({ polluted: POLLUTION_MARK }) },
          { name: 'constructor', value: 'x' },
          { name: 'prototype', value: 'x' },
          { name: `unknown_${MARKER}`, value: 'x' },
          { name: 'isAdmin', value: 'true' },
        ];
        await expectAnswer(await send(profile, call([...asParts(profile.fields()), ...extra])), profile.baseline, `${name} extra fields`);
        const pollutingArgs = JSON.parse(
          JSON.stringify(profile.args).replace(
            /^\[\{/,
            `[{"__proto__":{"fieldErrors":{"name":["${POLLUTION_MARK}"]},"message":"${POLLUTION_MARK}"},"constructor":{"prototype":{"message":"${POLLUTION_MARK}"}},`,
          ),
        ) as unknown[];
        await expectAnswer(
          await send(profile, call(asParts(profile.fields()), pollutingArgs)),
          profile.baseline,
          `${name} polluting state`,
        );
      });
    }
  });

  test('JSON-argument encoding: objects, arrays, numbers, null, strings and nothing where the form belongs', async () => {
    for (const [name, profile] of Object.entries(PROFILES)) {
      if (name === 'recordLinkCopiedAction') continue;
      await test.step(name, async () => {
        const wrongForms: unknown[] = [
          { name: `Object ${MARKER}`, email: 'a@example.com' },
          ['a', 'b'],
          42,
          null,
          'text',
          true,
          { __proto__: null },
        ];
        for (const wrong of wrongForms) {
          const args = profile.args.map((arg) => (arg === '$K1' ? wrong : arg));
          await expectAnswer(
            await send(profile, plainActionCall(idOf(name), profile.page, args)),
            profile.empty,
            `${name} form = ${JSON.stringify(wrong)}`,
          );
        }
        // No arguments at all, and a state argument of the wrong type.
        await expectAnswer(await send(profile, plainActionCall(idOf(name), profile.page, [])), profile.empty, `${name} no arguments`);
        await expectAnswer(
          await send(profile, plainActionCall(idOf(name), profile.page, [null, null])),
          profile.empty,
          `${name} null state`,
        );
      });
    }

    const linkCopied = idOf('recordLinkCopiedAction');
    const copier = PROFILES.createStaffAction!; // any admin-called profile: an admin may copy links
    for (const wrong of [{ id: 'x' }, ['x'], 42, null, '', LONG, '\u0000', true]) {
      const text = await expectSafe(
        await send(copier, plainActionCall(linkCopied, '/', [wrong])),
        `recordLinkCopiedAction ${JSON.stringify(wrong).slice(0, 30)}`,
      );
      expect(text).toContain('"ok":false');
      expect(text).toContain('verificationId must be the text of a verification id');
    }
    // Well-formed ids the register does not hold: refused with a reason, nothing recorded (an
    // entry for a real link is e2e/access-control.spec.ts's and staff-and-sign-in.spec.ts's).
    for (const unknown of [randomUUID(), `${UNICODE}`.slice(0, 60), 'arbitrary-forged-id-<b>x</b>']) {
      const text = await (await send(copier, plainActionCall(linkCopied, '/', [unknown]))).text();
      expect(text, unknown).toContain('"ok":false');
      expect(text, unknown).toContain('no shareable link for that verification id');
    }
  });

  test('over the size limit or malformed: 413 or 400 with a plain message, for every action', async () => {
    for (const [name, profile] of Object.entries(PROFILES)) {
      await test.step(name, async () => {
        const id = idOf(name);
        const multipart = multipartActionCall(id, profile.page, profile.args, [{ name: 'name', value: TWO_MB }]);
        const json = plainActionCall(id, profile.page, [TWO_MB]);
        for (const [label, call] of [
          ['multipart', multipart],
          ['JSON', json],
        ] as const) {
          const response = await send(profile, call);
          await expectAnswer(response, { status: 413, text: TOO_LARGE }, `${name} 2 MB ${label}`);
          // Exactly text/plain: Next's client then shows the text as the error's message.
          expect(response.headers()['content-type']).toBe('text/plain');
        }
        for (const body of ['', 'not json{', '{"a":1}', '42']) {
          const call = { ...plainActionCall(id, profile.page, []), body: Buffer.from(body) };
          await expectAnswer(await send(profile, call), { status: 400, text: MALFORMED }, `${name} body ${JSON.stringify(body)}`);
        }
      });
    }
    // A no-JavaScript form post over the limit gets the same readable refusal, not an error page.
    const noJs = await admin.post('/verifications/new', {
      headers: { origin },
      multipart: { [`$ACTION_ID_${idOf('createVerificationAction')}`]: '', name: TWO_MB },
      maxRedirects: 0,
      failOnStatusCode: false,
    });
    expect(noJs.status()).toBe(413);
    expect(await noJs.text()).toContain(TOO_LARGE);
  });

  // Over HTTP: what is checked is what the server holds and renders, not how a browser shows it.
  test('nothing was half-written, nothing polluted, and the server still works normally', async () => {
    // The sign-in page is rendered only for a caller without a session.
    const html = async (path: string) => {
      const response = await (path === '/sign-in' ? anonymous : admin).get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(200);
      return response.text();
    };
    // Registered: only the well-formed creates (well-formed, extra fields, polluting state) and
    // the two shareable-link requests of beforeAll — none of the refused ones.
    expect(await registerRowsNamed(admin, `Bad Input ${MARKER}`)).toBe(5);
    expect(await html(`/?q=${MARKER}`)).not.toContain(LONG.slice(0, 300));
    // Staff: the three well-formed creates (one per encoding variant above), no other.
    const staff = await html('/staff');
    const accounts = new Set(staff.match(new RegExp(`staff\\.[0-9a-f]{8}\\.${MARKER}@example\\.com`, 'g')));
    expect(accounts.size).toBe(3);
    expect(staff).not.toContain('object File');

    // Prototype pollution would show: the staff form reads state.fieldErrors and message when
    // its state has none, so a polluted Object.prototype would print the mark on fresh pages.
    for (const path of ['/staff', '/verifications/new', '/', '/sign-in']) {
      expect(await html(path), path).not.toContain(POLLUTION_MARK);
    }

    // A normal create still works and gets no link it did not ask for.
    const profile = PROFILES.createVerificationAction!;
    const after = await send(
      profile,
      multipartActionCall(
        idOf('createVerificationAction'),
        profile.page,
        profile.args,
        asParts({ ...profile.fields(), name: `After ${MARKER}` }),
      ),
    );
    const answer = await after.text();
    expect(answer).toContain('Verification request created successfully.');
    expect(answer).not.toContain('/sandbox/verify/');
  });

  test('Unicode names are kept exactly as typed', async ({ browser }) => {
    const profile = PROFILES.createVerificationAction!;
    const created = await send(
      profile,
      multipartActionCall(idOf('createVerificationAction'), profile.page, profile.args, asParts({ ...profile.fields(), name: UNICODE })),
    );
    expect(await created.text()).toContain('Verification request created successfully.');
    const staff = PROFILES.createStaffAction!;
    const staffName = UNICODE.replace(MARKER, `S${MARKER}`);
    expect(
      await (
        await send(
          staff,
          multipartActionCall(idOf('createStaffAction'), staff.page, staff.args, asParts({ ...staff.fields(), name: staffName })),
        )
      ).text(),
    ).toContain('"status":"created"');
    const context = await browser.newContext({ storageState: storageStateOf('admin') });
    const page = await context.newPage();
    // Compared as raw text: accessible names and toHaveText would normalise what is tested here.
    const textOf = (locator: ReturnType<typeof page.locator>) => locator.evaluateAll((nodes) => nodes.map((node) => node.textContent));
    await page.goto(`/?q=${encodeURIComponent(MARKER)}`);
    const link = page.locator('a', { hasText: 'أحمد' });
    expect(await textOf(link)).toEqual([UNICODE]);
    await link.click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('👩🏽‍💻');
    expect(await textOf(page.getByRole('heading', { level: 1 }))).toEqual([UNICODE]);
    await page.goto('/staff');
    const [cell] = await textOf(
      page
        .locator('tbody tr', { hasText: `S${MARKER}` })
        .locator('td')
        .first(),
    );
    expect(cell).toContain(staffName);
    await context.close();
  });
});

// ───────────────────────────────────────────────────────────────────────────────────────────────

test.describe('the CSV exports over real HTTP', () => {
  test.use({ storageState: storageStateOf('admin') });

  test('odd query values: 400 naming the filter, never a 500, and nothing exported', async ({ request }) => {
    const cases: [string, RegExp][] = [
      ['/api/exports/register?status=%00', /The status is not one of/],
      [`/api/exports/register?q=${LONG}`, /The search is empty or too long/],
      [`/api/exports/register?createdBy=${encodeURIComponent(UNICODE)}`, /not a staff id/],
      ['/api/exports/register?from=2030-02-30&to=%F0%9F%91%A9', /The “From” date is not a date.*The “To” date is not a date/],
      ['/api/exports/register?view=__proto__&purpose=constructor', /The purpose is not one.*The view is not one/],
      ['/api/exports/audit?action=__proto__', /The action is not one the audit trail records/],
      [`/api/exports/audit?verification=${LONG}`, /The verification id is empty, too long/],
      ['/api/exports/audit?verification=a%00b', /The verification id is empty, too long/],
      [`/api/exports/audit?actor=${encodeURIComponent(UNICODE)}`, /The staff member is not a staff id/],
      ['/api/exports/audit?from=0000-01-01', /The “From” date is not a date/],
    ];
    for (const [path, message] of cases) {
      const response = await request.get(path, { failOnStatusCode: false });
      const text = await response.text();
      expect(response.status(), `${path.slice(0, 60)}: ${text.slice(0, 200)}`).toBe(400);
      expect(Object.keys(JSON.parse(text) as object)).toEqual(['error']);
      expect((JSON.parse(text) as { error: string }).error, path.slice(0, 60)).toMatch(message);
    }
  });
});

test.describe('the sandbox API over real HTTP', () => {
  // The other company's key (playwright.config.ts); its records are as good as any for this.
  const key = () => process.env.E2E_OTHER_COMPANY_KEY!;
  const headers = () => ({ Authorization: `Bearer ${key()}`, 'Content-Type': 'application/json' });
  const valid = { name: 'Api Person', chosenPurpose: 'legal_obligations', language: 'en', shareableLink: true };

  async function expectError(response: APIResponse, status: number, message: string | RegExp) {
    const text = await response.text();
    expect(response.status(), text).toBe(status);
    expect(Object.keys(JSON.parse(text) as object)).toEqual(['error']);
    expect((JSON.parse(text) as { error: string }).error).toMatch(message);
  }

  test('POST /v1/verifications/new: 2 MB → 413, huge, Unicode, wrong types, prototype keys, bad JSON and content type → 4xx naming the field', async ({
    request,
  }) => {
    // Bytes, not strings: Playwright would JSON-encode a string body once more.
    const post = (data: string | Buffer, extra: Record<string, string> = {}) =>
      request.post('/v1/verifications/new', {
        headers: { ...headers(), ...extra },
        data: typeof data === 'string' ? Buffer.from(data) : data,
        failOnStatusCode: false,
      });

    await expectError(await post(JSON.stringify({ ...valid, name: TWO_MB })), 413, /too large/);
    await expectError(await post(''), 400, 'Request body is not valid JSON');
    await expectError(await post('{"name":'), 400, 'Request body is not valid JSON');
    await expectError(await post('{}'), 400, /^email is required|^name is required/);
    await expectError(await post(JSON.stringify({ ...valid, name: LONG })), 400, 'name must be at most 200 characters');
    await expectError(await post(JSON.stringify({ ...valid, chosenPurpose: LONG })), 400, 'chosenPurpose must be at most 500 characters');
    await expectError(await post(JSON.stringify({ ...valid, email: `${LONG}@example.com` })), 400, /^email /);
    await expectError(await post(JSON.stringify({ ...valid, phonenumber: LONG, smsNotification: true })), 400, /^phonenumber /);
    for (const wrong of [['a'], { a: 1 }, 42, null]) {
      await expectError(await post(JSON.stringify({ ...valid, name: wrong })), 400, 'name must be a string');
      await expectError(await post(JSON.stringify({ ...valid, shareableLink: wrong })), 400, 'shareableLink must be a boolean');
    }
    for (const key of ['__proto__', 'constructor', 'prototype', `unknown_${MARKER}`]) {
      await expectError(await post(`{"${key}":{"polluted":true},${JSON.stringify(valid).slice(1)}`), 400, `Unknown field: ${key}`);
    }
    await expectError(await post(JSON.stringify(valid), { 'Content-Type': 'text/plain' }), 415, 'Content-Type must be application/json');
    await expectError(
      await post(JSON.stringify(valid), { 'Content-Type': 'application/x-www-form-urlencoded' }),
      415,
      'Content-Type must be application/json',
    );

    // Unicode is accepted and read back exactly.
    const created = await post(JSON.stringify({ ...valid, name: UNICODE, chosenPurpose: `‏${UNICODE}` }));
    expect(created.status()).toBe(200);
    const { verificationId } = (await created.json()) as { verificationId: string };
    const record = (await (await request.get(`/v1/verifications/${verificationId}`, { headers: headers() })).json()) as Record<
      string,
      unknown
    >;
    expect(record).toMatchObject({ inputted_name: UNICODE, purpose: `‏${UNICODE}` });
  });

  test('GET /v1/verifications/{id} with odd ids: 400 or 404, never 500', async ({ request }) => {
    const get = (path: string) => request.get(`/v1/verifications/${path}`, { headers: headers(), failOnStatusCode: false });
    for (const id of [
      '%ZZ', // malformed percent-encoding
      '%E0%A4%A', // truncated UTF-8
      '%00',
      '__proto__',
      'constructor',
      'prototype',
      encodeURIComponent('<script>alert(1)</script>'),
      encodeURIComponent(UNICODE),
      encodeURIComponent('👩🏽‍💻'),
      'x'.repeat(2_000),
      `${randomUUID()}%20`,
      `${randomUUID()}%2F..`,
      encodeURIComponent(`${randomUUID()}\u200B`),
    ]) {
      const response = await get(id);
      const text = await response.text();
      expect(response.status(), `${id.slice(0, 40)}: ${text}`).toBeGreaterThanOrEqual(400);
      expect(response.status(), `${id.slice(0, 40)}: ${text}`).toBeLessThan(500);
      if (response.headers()['content-type']?.includes('json')) expect(JSON.parse(text)).toEqual({ error: expect.any(String) });
      if (response.status() === 400)
        expect((JSON.parse(text) as { error: string }).error).toMatch(/^Verification id is invalid|^The request path is invalid/);
    }
    await expectError(await get(randomUUID()), 404, 'Verification not found');
    // The same malformed escape anywhere else: a 400, not Next's bare 500 (proxy.ts).
    for (const path of ['/api/verifications/%ZZ', '/sandbox/verify/%ZZ', '/verifications/%ZZ']) {
      expect((await request.get(path, { failOnStatusCode: false, maxRedirects: 0 })).status(), path).toBe(400);
    }
    // Huge (10 000 characters) is refused, by the id check or by the server's header limit.
    const huge = await get(LONG);
    expect([400, 414, 431]).toContain(huge.status());
  });
});
