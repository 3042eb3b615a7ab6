// Whether the embedded sandbox serves in this process: the one answer the composition root,
// the sandbox's routes (404 when off) and the dashboard's sandbox pages (outbox, webhooks) share.
import { z } from 'zod';

const blankAsUnset = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

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
  const parsed = switchSchema.safeParse({ SANDBOX: env.SANDBOX, VERIFICATION_API_URL: env.VERIFICATION_API_URL });
  if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'SANDBOX must be "on" or "off"');
  const { SANDBOX, VERIFICATION_API_URL } = parsed.data;
  if (SANDBOX) return SANDBOX === 'on';
  return VERIFICATION_API_URL === undefined;
}
