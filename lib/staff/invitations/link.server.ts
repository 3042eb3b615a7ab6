// The address of an invitation's page, for the administrator to send on. The token goes in the
// path: the page's referrer policy sends the origin only, so the link never travels in a Referer.
import 'server-only';
import { getEnv } from '@/lib/env';

export function invitationLink(token: string): string {
  const env = getEnv();
  const base = (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  return `${base}/invitation/${token}`;
}
