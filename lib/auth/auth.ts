// Staff authentication with better-auth: e-mail and password, sessions in the dashboard's
// database. Built lazily (the database opens on first use, never at import time) and once
// per process. There is no public sign-up and no HTTP auth endpoint: sign-in, sign-out and
// account management go through the dashboard's own server actions and CLI, which call
// better-auth's server API, so throttling and the audit trail cannot be bypassed. The one
// exception is the single sign-on provider's callback (app/api/auth/callback/[providerId]),
// which only the provider's redirect can complete.
import 'server-only';
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { nextCookies } from 'better-auth/next-js';
import { eq } from 'drizzle-orm';
import { recordAudit } from '@/lib/audit/audit';
import { type Db, getDb } from '@/lib/db';
import { authVerifications, staffAccounts, staffSessions, staffTwoFactors, staffUsers } from '@/lib/db/schema';
import { getEnv, InvalidEnvironmentError, isPasswordSignInEnabled } from '@/lib/env';
import { once } from '@/lib/platform/database';
import { isInMemory } from '@/lib/platform/embedded-database';
import { betterAuthLogger } from './auth-logger';
import { boundSessionsAfterCreate } from './session-bound';
import { forgetValidatedSessions } from './session-cache';
import { signInLinkPlugin } from './sign-in-link-plugin';
import { isSingleSignOnCallback, singleSignOnGate, singleSignOnPlugins } from './single-sign-on';
import { singleSignOnAccountHooks } from './single-sign-on-account';
import { twoFactorPlugin } from './two-factor/plugin';

export const SESSION_COOKIE_PREFIX = 'vdesk';
export const PASSWORD_MIN_LENGTH = 12;

function createAuth(db: Db, secret: string, options: { withNextCookies: boolean }) {
  const env = getEnv();
  const baseURL = env.APP_URL ?? `http://localhost:${env.PORT}`;
  return betterAuth({
    appName: 'Verification Desk',
    logger: betterAuthLogger, // through the scrubbing server logger, never the console (auth-logger.ts)
    baseURL,
    secret,
    trustedOrigins: [baseURL, `http://localhost:${env.PORT}`, `http://127.0.0.1:${env.PORT}`],
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: {
        user: staffUsers,
        session: staffSessions,
        account: staffAccounts,
        verification: authVerifications,
        twoFactor: staffTwoFactors,
      },
    }),
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: 256,
    },
    user: {
      additionalFields: {
        role: { type: 'string', required: false, defaultValue: 'viewer', input: false },
        disabled: { type: 'boolean', required: false, defaultValue: false, input: false },
        // Chosen on any page's language switcher (lib/account/language.ts); null until then.
        language: { type: 'string', required: false, input: false },
      },
      // Single sign-on reaches only enabled staff (single-sign-on.ts).
      validateUserInfo: singleSignOnGate(db),
    },
    session: {
      // An idle session ends after this; every use within it moves the end forward.
      expiresIn: env.SESSION_IDLE_HOURS * 60 * 60,
      updateAge: 15 * 60,
      // No cookie cache: disabling an account or signing out must end sessions at once.
      cookieCache: { enabled: false },
    },
    // Whatever better-auth itself changes about sessions or accounts reaches the caches of
    // validated sessions of every instance at once (session-cache.ts); the dashboard's own
    // changes call it too.
    databaseHooks: {
      // One provider identity per account, and no invitation left beside it (single-sign-on-account.ts).
      account: singleSignOnAccountHooks(db),
      user: {
        update: { after: async () => forgetValidatedSessions(db) },
        delete: { after: async () => forgetValidatedSessions(db) },
      },
      session: {
        delete: { after: async () => forgetValidatedSessions(db) },
        create: {
          // A disabled account gets no new session, whatever the password.
          before: async (session) => {
            const [user] = await db.select({ disabled: staffUsers.disabled }).from(staffUsers).where(eq(staffUsers.id, session.userId));
            return user && !user.disabled ? { data: session } : false;
          },
          after: async (session, context) => {
            // At most SESSIONS_PER_STAFF_MEMBER live sessions a person: the oldest end (session-bound.ts).
            await boundSessionsAfterCreate(db, session, context);
            if (isSingleSignOnCallback(context)) await recordAudit({ actorId: session.userId, action: 'sso.signed_in' });
          },
        },
      },
    },
    hooks: {
      // PASSWORD_SIGN_IN=off holds whoever asks for a password session (the sign-in form, an
      // invitation, code yet to be written): the dashboard's own callers refuse earlier, in words.
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path === '/sign-in/email' && !isPasswordSignInEnabled()) {
          throw new APIError('FORBIDDEN', { message: 'Password sign-in is turned off' });
        }
      }),
    },
    advanced: {
      cookiePrefix: SESSION_COOKIE_PREFIX,
      useSecureCookies: baseURL.startsWith('https://'),
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
    },
    rateLimit: { enabled: false }, // sign-in throttling is the dashboard's own (lib/auth/throttle.ts)
    telemetry: { enabled: false },
    // nextCookies last: it copies the cookies every plugin before it has set into the response.
    plugins: [...singleSignOnPlugins(), signInLinkPlugin(db), twoFactorPlugin(), ...(options.withNextCookies ? [nextCookies()] : [])],
  });
}

export type Auth = ReturnType<typeof createAuth>;

/**
 * The secret that signs session cookies: BETTER_AUTH_SECRET, or, on the embedded store only,
 * one generated on first start and kept in the data directory (readable by the server's user
 * only). With DATABASE_URL the environment must supply it (lib/env.ts refuses to start
 * without): instances that each generated their own would not accept each other's sessions.
 */
export function getAuthSecret(): Promise<string> {
  return once('auth-secret', loadSecret);
}

async function loadSecret(): Promise<string> {
  const env = getEnv();
  if (env.BETTER_AUTH_SECRET) return env.BETTER_AUTH_SECRET;
  // parseEnv already refuses this; kept so no later change can quietly write a per-instance secret.
  if (env.DATABASE_URL) throw new InvalidEnvironmentError(['BETTER_AUTH_SECRET is required with DATABASE_URL']);
  if (isInMemory(env.DATA_DIR)) return randomBytes(32).toString('base64url');
  const file = path.resolve(env.DATA_DIR, 'auth-secret');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    const secret = randomBytes(32).toString('base64url');
    await writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' }).catch(async () => undefined);
    return (await readFile(file, 'utf8')).trim();
  }
}

/** The auth instance for the Next.js server (sets cookies from server actions). */
export function getAuth(): Promise<Auth> {
  return once('auth', async () => createAuth(await getDb(), await getAuthSecret(), { withNextCookies: true }));
}

/** The auth instance for command-line tools, outside any request. */
export function getCliAuth(): Promise<Auth> {
  return once('auth-cli', async () => createAuth(await getDb(), await getAuthSecret(), { withNextCookies: false }));
}
