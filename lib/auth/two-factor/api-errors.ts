// better-auth answers a refused second-factor step with an APIError carrying a code; this reads
// that code so callers can say in words what went wrong, and rethrows anything else.
import 'server-only';
import { APIError } from 'better-auth/api';

export function apiErrorCode(error: unknown): string | undefined {
  if (!(error instanceof APIError)) return undefined;
  const code = (error.body as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}
