// better-auth's own log lines, through the server's logger (lib/platform/log.ts) instead of the
// console: better-auth prints its arguments as they are, and some carry secrets (a failed OAuth
// callback's error holds the `state` value in its details). Here a line keeps better-auth's
// message (scrubbed like every message) and an error as the logger serializes errors (name,
// message, stack, code, cause: never their other properties). Other arguments are left out,
// since nothing says what they hold; their count is kept.
import 'server-only';
import type { BetterAuthOptions } from 'better-auth';
import { logger } from '@/lib/platform/log';

const log = logger.child({ area: 'better-auth' });

type Level = 'debug' | 'info' | 'warn' | 'error';

/** better-auth's `logger` option: LOG_LEVEL decides, as for every other line. */
export const betterAuthLogger = {
  level: 'debug',
  log(level: Level, message: string, ...args: unknown[]) {
    const err = args.find((argument) => argument instanceof Error);
    const withheld = args.length - (err === undefined ? 0 : 1);
    log[level]({ ...(err === undefined ? {} : { err }), ...(withheld > 0 ? { argumentsWithheld: withheld } : {}) }, message);
  },
} satisfies NonNullable<BetterAuthOptions['logger']>;
