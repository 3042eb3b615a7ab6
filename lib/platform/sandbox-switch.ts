// Whether the embedded sandbox serves in this process: the one answer the composition root,
// the sandbox's routes (404 when off) and the dashboard's sandbox pages (outbox, webhooks) share.
import { z } from 'zod';
import { blankAsUnset } from '@/lib/platform/env-values';

const switchSchema = z.object({
  SANDBOX: z.preprocess(blankAsUnset, z.enum(['on', 'off'], { error: 'SANDBOX must be "on" or "off"' }).optional()),
  VERIFICATION_API_URL: z.preprocess(blankAsUnset, z.string().optional()),
});

/**
 * On when SANDBOX=on, off when SANDBOX=off, and otherwise on exactly when the dashboard is not
 * pointed at a real service. In zero-config mode the composition root sets SANDBOX=on before it
 * fills in VERIFICATION_API_URL with the sandbox's own address, so later answers stay "on".
 * Throws, naming the variable, when SANDBOX holds anything else (start-up refuses to run then).
 */
export function isSandboxEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  // Asked on every sandbox API call and dashboard render: parsed again only when the two values
  // change (once at start-up, or when a test sets them).
  const { SANDBOX, VERIFICATION_API_URL } = env;
  if (last && last.sandbox === SANDBOX && last.url === VERIFICATION_API_URL) return last.enabled;
  const parsed = switchSchema.safeParse({ SANDBOX, VERIFICATION_API_URL });
  if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'SANDBOX must be "on" or "off"');
  const enabled = parsed.data.SANDBOX ? parsed.data.SANDBOX === 'on' : parsed.data.VERIFICATION_API_URL === undefined;
  last = { sandbox: SANDBOX, url: VERIFICATION_API_URL, enabled };
  return enabled;
}

let last: { sandbox: string | undefined; url: string | undefined; enabled: boolean } | undefined;
