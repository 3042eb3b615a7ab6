// The verification id a form posts back (the review, notes and assignment forms carry it in a
// hidden field), checked the same way by each action. Client-safe.
import { z } from 'zod';

/**
 * A posted verification id: trimmed, 1 to 200 characters, no control character (ids are opaque,
 * but none contains one, and Postgres refuses NUL). `message` says what is wrong, in the reader's words.
 */
export function verificationIdField(message: string) {
  return z
    .string()
    .trim()
    .min(1, message)
    .max(200, message)
    .regex(/^[^\u0000-\u001f\u007f]*$/, message);
}
