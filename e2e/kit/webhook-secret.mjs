// @ts-check
// Webhook secrets for servers the harness configures itself (the bench and the load test sign
// deliveries as the service would, so they must know the secret).
import { randomBytes } from 'node:crypto';

/** A Standard Webhooks secret: `whsec_` + base64 of 32 random bytes, the size the standard recommends. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
