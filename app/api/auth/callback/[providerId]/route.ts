// The single sign-on provider's redirect back to the dashboard: the only better-auth endpoint
// reachable over HTTP (see lib/auth/auth.ts). Any other provider id is not ours: 404.

import { SSO_PROVIDER_ID } from '@/lib/auth/single-sign-on';
import { handleSingleSignOnCallback } from '@/lib/auth/single-sign-on-callback';
import { getSingleSignOnConfig } from '@/lib/env';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ providerId: string }> };

async function callback(request: Request, { params }: Context): Promise<Response> {
  const { providerId } = await params;
  if (providerId !== SSO_PROVIDER_ID || !getSingleSignOnConfig()) {
    return Response.json({ error: 'Not found' }, { status: 404, headers: { 'Cache-Control': 'no-store' } });
  }
  return handleSingleSignOnCallback(request);
}

export const GET = callback;
