// What a usable WEBHOOK_SECRET setting is, as a zod rule for the configuration (lib/env.ts): a
// pure format check on the values, below the configuration that reads them.
import { Webhook } from 'standardwebhooks';
import { z } from 'zod';

/**
 * WEBHOOK_SECRET: one or more Standard Webhooks secrets (`whsec_` + base64), separated by spaces
 * or commas. During a rotation both the old and the new secret are configured and a delivery
 * signed with either is accepted. Each key must decode to 24–64 bytes: a shorter one can be
 * guessed (`whsec_AA==` is one byte), and the standard's own senders make 24 to 64. The message
 * never echoes a value: these are secrets.
 */
const WEBHOOK_KEY_BYTES = { min: 24, max: 64 } as const;

export const webhookSecretsSchema = z
  .string()
  .transform((value) => value.split(/[\s,]+/).filter((part) => part !== ''))
  .superRefine((secrets, ctx) => {
    // Positions, not values: the message must not leak a secret into logs.
    const which = (positions: number[]) =>
      `${positions.length === 1 ? 'secret' : 'secrets'} ${positions.join(', ')} of ${secrets.length} ${positions.length === 1 ? 'is' : 'are'} not`;
    const malformed = secrets.flatMap((secret, index) => (isUsableWebhookSecret(secret) ? [] : [index + 1]));
    if (malformed.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `must be one or more secrets of the form whsec_<base64>, separated by spaces or commas (${which(malformed)})`,
      });
      return;
    }
    const { min, max } = WEBHOOK_KEY_BYTES;
    const wrongSize = secrets.flatMap((secret, index) => {
      const bytes = Buffer.from(secret.slice('whsec_'.length), 'base64').length;
      return bytes < min || bytes > max ? [index + 1] : [];
    });
    if (wrongSize.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `keys must decode to ${min} to ${max} bytes, e.g. whsec_ followed by \`openssl rand -base64 32\` (${which(wrongSize)})`,
      });
    }
  })
  .optional();

function isUsableWebhookSecret(secret: string): boolean {
  if (!/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret)) return false;
  try {
    // The library decides what it can use as a key (e.g. base64 of the right length); asking it
    // here makes a bad secret fail at start-up rather than on the first delivery.
    new Webhook(secret);
    return true;
  } catch {
    return false;
  }
}
