// Authenticates a webhook delivery from the verification service (Standard Webhooks): the
// HMAC-SHA256 signature over `id.timestamp.body`, with the body exactly as received, and a
// timestamp within five minutes of now (replays of old captures are refused). It reads the
// request and answers with a typed result; it changes nothing, so a refused delivery leaves no
// trace in the database.
import 'server-only';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { readBodyAtMost } from '@/lib/platform/bounded-body';
import { logger } from '@/lib/platform/log';

const log = logger.child({ area: 'webhooks' });

/** Events are a few hundred bytes; anything near this is not a delivery from the service. */
export const MAX_WEBHOOK_BODY_BYTES = 64 * 1024;
/** The Standard Webhooks tolerance (also the standardwebhooks package's built-in one). */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;
/** The id becomes a primary key; the service's ids are short (`msg_…`). */
export const MAX_WEBHOOK_ID_LENGTH = 256;
/** Room for a handful of `v1,<base64>` signatures during a secret rotation. */
const MAX_SIGNATURE_HEADER_LENGTH = 4096;

export type WebhookRejection =
  | 'not_configured'
  | 'missing_headers'
  | 'malformed_headers'
  | 'bad_timestamp'
  | 'stale_timestamp'
  | 'future_timestamp'
  | 'too_large'
  | 'not_utf8'
  | 'bad_signature';

export type VerifiedWebhook = {
  ok: true;
  webhookId: string;
  /** Unix seconds, from the signed `webhook-timestamp`. */
  timestamp: number;
  /** The body as received (decoded as UTF-8 without any change), for the caller to parse. */
  body: string;
};

export type RefusedWebhook = { ok: false; reason: WebhookRejection; status: 400 | 401 | 413 | 503 };

export type WebhookVerification = VerifiedWebhook | RefusedWebhook;

const STATUS_BY_REASON: Record<WebhookRejection, RefusedWebhook['status']> = {
  // Our configuration is missing, not the sender's fault: a 5xx makes it retry until it is fixed.
  not_configured: 503,
  missing_headers: 400,
  malformed_headers: 400,
  not_utf8: 400,
  bad_timestamp: 401,
  stale_timestamp: 401,
  future_timestamp: 401,
  bad_signature: 401,
  too_large: 413,
};

function refuse(reason: WebhookRejection): RefusedWebhook {
  return { ok: false, reason, status: STATUS_BY_REASON[reason] };
}

/**
 * Checks a delivery against every configured secret (during a rotation a delivery signed with
 * either the old or the new one is genuine). Reads the request body; call it once per request.
 */
export async function verifyWebhookRequest(request: Request, secrets: readonly string[]): Promise<WebhookVerification> {
  if (secrets.length === 0) return refuse('not_configured');

  const webhookId = request.headers.get('webhook-id');
  const timestampHeader = request.headers.get('webhook-timestamp');
  const signature = request.headers.get('webhook-signature');
  if (!webhookId || !timestampHeader || !signature) return refuse('missing_headers');
  // eslint-disable-next-line no-control-regex
  if (webhookId.length > MAX_WEBHOOK_ID_LENGTH || /[\u0000-\u0020\u007f]/.test(webhookId)) return refuse('malformed_headers');
  if (signature.length > MAX_SIGNATURE_HEADER_LENGTH) return refuse('malformed_headers');

  // The package reads the timestamp with parseInt, which would take "1700000000abc" or "17e8";
  // the header is defined as plain unix seconds, so anything else is refused here first.
  if (!/^\d{1,12}$/.test(timestampHeader)) return refuse('bad_timestamp');
  const timestamp = Number(timestampHeader);
  const now = Math.floor(Date.now() / 1000);
  if (now - timestamp > WEBHOOK_TOLERANCE_SECONDS) return refuse('stale_timestamp');
  if (timestamp - now > WEBHOOK_TOLERANCE_SECONDS) return refuse('future_timestamp');

  const bytes = await readCapped(request, MAX_WEBHOOK_BODY_BYTES);
  if (bytes === null) return refuse('too_large');
  let body: string;
  try {
    // fatal: invalid UTF-8 is refused rather than patched with U+FFFD (two different byte
    // strings must never become the same signed text); ignoreBOM: a leading BOM is part of the
    // signed bytes and stays. So `body` is exactly the bytes the sender signed.
    body = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return refuse('not_utf8');
  }

  const headers = { 'webhook-id': webhookId, 'webhook-timestamp': timestampHeader, 'webhook-signature': signature };
  for (const secret of secrets) {
    try {
      // jsonParse: false — a body that is signed but not JSON is the caller's 400, not a throw here.
      new Webhook(secret).verify(body, headers, { jsonParse: false });
      return { ok: true, webhookId, timestamp, body };
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) {
        // A secret the package cannot use; lib/env refuses those at start-up, so this is a bug.
        // The error's class only: the package's message might quote the key it was given.
        log.error({ type: error instanceof Error ? error.name : typeof error }, 'a configured secret could not be used');
      }
    }
  }
  return refuse('bad_signature');
}

/** The body's bytes, or null as soon as it is larger than `maxBytes` (declared or actual). */
async function readCapped(request: Request, maxBytes: number): Promise<Uint8Array | null> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    return null;
  }
  const bytes = await readBodyAtMost(request.body, maxBytes);
  return bytes === 'too large' ? null : bytes;
}
