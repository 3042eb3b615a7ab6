// A sign-in sent from a chosen loopback address (127.0.0.2, 127.0.0.3, …: on Linux the whole
// 127/8 is local), so one test can act as several clients on different networks against a real
// server, and can add whatever X-Forwarded-For a client or a proxy would send. It posts the
// sign-in action exactly as React does (e2e/support/server-actions.ts) over Node's http client,
// which, unlike a browser or Playwright's request context, can pick its source address.
import http from 'node:http';
import { actionId, formActionCall } from './server-actions';

export const WRONG_CREDENTIALS = 'Incorrect e-mail address or password.';
export const THROTTLED_PREFIX = 'Too many failed sign-ins';

export type SignInAnswer =
  | { outcome: 'signed-in' }
  | { outcome: 'wrong' }
  | { outcome: 'throttled'; message: string }
  | { outcome: 'other'; status: number; text: string };

let signInActionId: string | undefined;

/** Signs in on the server at `baseUrl` (http://localhost:<port>) from `localAddress`. */
export async function signInFrom(
  baseUrl: string,
  { localAddress, email, password, forwardedFor }: { localAddress: string; email: string; password: string; forwardedFor?: string },
): Promise<SignInAnswer> {
  signInActionId ??= actionId('signInAction');
  const call = formActionCall(signInActionId, '/sign-in', { status: 'idle', email: '' }, { email, password });
  const url = new URL(baseUrl);
  const { status, text, cookies } = await new Promise<{ status: number; text: string; cookies: string[] }>((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port: url.port,
        localAddress,
        method: 'POST',
        path: call.path,
        headers: {
          ...call.headers,
          // The server's own name, as a browser would send it (server actions check Origin against Host).
          host: url.host,
          origin: url.origin,
          'content-length': String(call.body.length),
          ...(forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
            cookies: response.headers['set-cookie'] ?? [],
          }),
        );
        response.on('error', reject);
      },
    );
    request.setTimeout(30_000, () => request.destroy(new Error('sign-in request timed out')));
    request.on('error', reject);
    request.end(call.body);
  });
  if (cookies.some((cookie) => /^(__Secure-)?vdesk\.session_token=[^;]+/.test(cookie))) return { outcome: 'signed-in' };
  if (text.includes(WRONG_CREDENTIALS)) return { outcome: 'wrong' };
  const throttled = new RegExp(`${THROTTLED_PREFIX}[^"]*`).exec(text);
  if (throttled) return { outcome: 'throttled', message: throttled[0] };
  return { outcome: 'other', status, text: text.slice(0, 500) };
}
