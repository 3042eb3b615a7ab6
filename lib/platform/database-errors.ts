// Tells "the database cannot be reached" apart from every other failure, so that pages, server
// actions and the readiness probe can say so plainly (and a retry makes sense) instead of
// showing a generic error. Covers both what the driver raises when it cannot connect and what
// the server answers while it shuts down or starts; drizzle wraps the driver's error (`cause`),
// so the chain is followed a few levels.

/** Operating-system codes of a connection that could not be made or was cut. */
const SYSTEM_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/**
 * SQLSTATEs of a server going away or not there yet: admin_shutdown, crash_shutdown,
 * cannot_connect_now (starting up), too_many_connections; and class 08, connection exceptions.
 */
const SERVER_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** node-postgres's own words for a connection it lost or could not get in time. */
const DRIVER_MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error/i,
];

/** Raised by a probe that gave the database a deadline and did not get an answer in time. */
export class DatabaseDeadlineError extends Error {
  constructor(ms: number) {
    super(`the database did not answer within ${ms} ms`);
    this.name = 'DatabaseDeadlineError';
  }
}

export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth += 1) {
    if (current instanceof DatabaseDeadlineError) return true;
    const { code, message, errors } = current as { code?: unknown; message?: unknown; errors?: unknown };
    if (typeof code === 'string' && (SYSTEM_CODES.has(code) || SERVER_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    if (typeof message === 'string' && DRIVER_MESSAGES.some((pattern) => pattern.test(message))) return true;
    // Connecting to a name with several addresses fails with one error per address.
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** `work`, or a DatabaseDeadlineError once `ms` have passed without an answer. */
export async function withinDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DatabaseDeadlineError(ms)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
    // A late failure of `work` must not surface as an unhandled rejection.
    work.catch(() => undefined);
  }
}
