// A real OpenID Connect provider on loopback for the single sign-on tests: oidc-provider with
// one confidential client (a secret), the authorization-code flow with PKCE required, and the
// package's development login and consent pages, where whatever "login" is typed becomes the
// account's id. The test users carry an e-mail address and whether the provider has verified it.
// Those pages are plain HTML forms: signInAtProviderOverHttp goes through them without a browser.
import type { Server } from 'node:http';
import type { APIRequestContext, APIResponse } from '@playwright/test';
import Provider from 'oidc-provider';

export type ProviderUser = { login: string; email: string; emailVerified: boolean; name: string };

export type OidcProvider = {
  /** http://127.0.0.1:<port>: OIDC_ISSUER. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  stop(): Promise<void>;
};

export async function startOidcProvider({
  port,
  redirectUris,
  users,
}: {
  port: number;
  /** Every address the provider may send the browser back to (`<APP_URL>/api/auth/callback/oidc`). */
  redirectUris: string[];
  users: ProviderUser[];
}): Promise<OidcProvider> {
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'verification-desk';
  const clientSecret = `test-client-secret-${port}-not-for-production`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: [`test-cookie-key-${port}-for-signing-interactions`] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: async (_context, id) => {
      const user = users.find((candidate) => candidate.login === id);
      if (!user) return undefined;
      return {
        accountId: user.login,
        claims: async () => ({ sub: user.login, email: user.email, email_verified: user.emailVerified, name: user.name }),
      };
    },
  });
  const server: Server = provider.listen(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  return {
    issuer,
    clientId,
    clientSecret,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The provider's login and consent pages, posted as a browser without JavaScript posts their
 * forms, over `api` (a request context: it keeps the provider's cookies and the dashboard's). From
 * the authorization URL a dashboard sent the browser to, to where the redirects end: for the
 * dashboard, the answer of the page its callback leads to.
 */
export async function signInAtProviderOverHttp(api: APIRequestContext, authorizationUrl: string, login: string): Promise<APIResponse> {
  const loginPage = await api.get(authorizationUrl);
  const consentPage = await api.post(await formTarget(loginPage), {
    form: { prompt: 'login', login, password: 'whatever the provider checks' },
  });
  return api.post(await formTarget(consentPage), { form: { prompt: 'consent' } });
}

/** The address the page's one form posts to. */
async function formTarget(page: APIResponse): Promise<string> {
  const html = await page.text();
  const action = /<form[^>]* action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`No form on ${page.url()} (${page.status()}): ${html.slice(0, 500)}`);
  return new URL(action.replaceAll('&amp;', '&'), page.url()).href;
}
