// POST /sign-out: ends the session on the server, clears the cookie and what the browser
// kept of the session, and goes to the sign-in page. A plain form POST, so it works without
// JavaScript; refused from other origins.
import { headers } from 'next/headers';
import { getTranslations } from 'next-intl/server';
import { recordAudit } from '@/lib/audit/audit';
import { getAuth, SESSION_COOKIE_PREFIX } from '@/lib/auth/auth';
import { staffFromHeaders } from '@/lib/auth/session';
import { forgetValidatedSessions } from '@/lib/auth/session-cache';
import { getDb } from '@/lib/db';

export const dynamic = 'force-dynamic';

/** The host of an Origin header; null for "null" (opaque origins) or anything malformed. */
function originHost(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

function cookieNames(header: string | null): string[] {
  return (header ?? '')
    .split(';')
    .map((part) => part.split('=')[0]?.trim() ?? '')
    .filter(Boolean);
}

export async function POST(request: Request) {
  const requestHeaders = await headers();
  const origin = requestHeaders.get('origin');
  const host = requestHeaders.get('host');
  if (origin && host && originHost(origin) !== host) {
    const t = await getTranslations('auth.signOut');
    return Response.json({ error: t('crossOrigin') }, { status: 403 });
  }

  const staff = await staffFromHeaders(requestHeaders);
  const response = new Response(null, {
    status: 303,
    headers: {
      Location: '/sign-in?signedOut=1',
      'Cache-Control': 'no-store',
      // Drop anything the browser kept from the session (cached pages, storage).
      'Clear-Site-Data': '"cache", "storage"',
    },
  });
  if (staff) {
    const auth = await getAuth();
    const signedOut = await auth.api.signOut({ headers: requestHeaders, asResponse: true });
    // Not after a cache TTL: this session stops working with this answer, on every instance.
    await forgetValidatedSessions(await getDb());
    for (const cookie of signedOut.headers.getSetCookie()) response.headers.append('Set-Cookie', cookie);
    await recordAudit({ actorId: staff.id, action: 'sign_out' });
  }
  // Delete every auth cookie outright (better-auth only empties them).
  const secure = new URL(request.url).protocol === 'https:' ? '; Secure' : '';
  for (const name of cookieNames(requestHeaders.get('cookie'))) {
    if (name.startsWith(`${SESSION_COOKIE_PREFIX}.`) || name.startsWith(`__Secure-${SESSION_COOKIE_PREFIX}.`)) {
      response.headers.append('Set-Cookie', `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure}`);
    }
  }
  return response;
}
