// The server's logger: pino writing one JSON object per line to stdout, for whatever collects the
// process's output. No secret and no personal data may reach a log (docs/quality.md), and the code that
// logs cannot be trusted to remember that at every call, so it is enforced here, in layers:
//   1. fields with a sensitive name (authorization, cookie, key, secret, token, password, e-mail,
//      phone, …) are censored wherever they sit, by pino's `redact` and again by a deep walk that
//      also reaches depths no redact path lists;
//   2. every string — the message, field values, error messages and stacks — is scrubbed of e-mail
//      addresses, phone numbers, API keys, webhook secrets and Bearer/Basic credentials;
//   3. errors keep only name, message, code/kind/status, stack frames and cause — never an upstream
//      body, and never a failed query's parameters (drizzle puts names and e-mails there).
// Ids (UUIDs and the service's opaque ids) pass untouched: they are what an operator searches for.
//
// No transport: pino's transports run in worker threads, which Next's server bundle cannot load
// (Next keeps pino external by default for that reason). A synchronous destination also keeps
// lines in order with the start-up banner and loses none when the process exits.
import 'server-only';
import pino, { type Bindings, type ChildLoggerOptions, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { z } from 'zod';

export type { Logger } from 'pino';

/** How much the server logs; `silent` turns logging off. Part of lib/env's schema as LOG_LEVEL. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const logLevelSchema = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() !== '' ? value.trim().toLowerCase() : undefined),
  z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
);

const CENSORED = '[redacted]';

// --- free text ---------------------------------------------------------------------------------

// The local part may hold any of RFC 5322's atext characters; the domain needs a dot and a TLD.
const EMAIL = /[\w.!#$%&'*+/=?^`{|}~-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}/g;
// The same in a query string or a form body, where `@` is `%40`.
const EMAIL_ENCODED = /[\w.!$&'*+=^`{|}~%-]+%40[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}/gi;
// Any length: a truncated key is still part of one.
const API_KEY = /vd_sk_[A-Za-z0-9_-]*/g;
const WEBHOOK_SECRET = /whsec_[A-Za-z0-9+/=]*/g;
const CREDENTIALS = /\b(Bearer|Basic)(\s+|%20)[^\s"',;]+/gi;
// A phone number candidate: digits with the separators people write them with, not glued to a
// word or an id (`-` on either side would be the middle of a UUID). Whether it is one is decided
// in looksLikePhone, because dates and addresses have the same shape.
const PHONE_CANDIDATE = /(?<![\w+-])(?:\+|%2B)?\(?\d[\d ()./-]{5,}\d(?![\w-])/gi;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}/;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

function looksLikePhone(candidate: string): boolean {
  const digits = candidate.replace(/\D/g, '').length;
  if (digits < 7 || digits > 15) return false;
  if (ISO_DATE.test(candidate) || IPV4.test(candidate)) return false;
  // International (E.164) or national (trunk prefix 0, area code in parentheses) form, or digits
  // in groups; a bare run of digits without any of that is a count, a time or a port, not a number to call.
  return /^(?:\+|%2B|\(|0)/i.test(candidate) || /[ ()./-]/.test(candidate);
}

/** Removes secrets and personal data from free text; everything else stays as it was. */
export function scrubText(text: string): string {
  return text
    .replace(API_KEY, `vd_sk_${CENSORED}`)
    .replace(WEBHOOK_SECRET, `whsec_${CENSORED}`)
    .replace(CREDENTIALS, (_match, scheme: string) => `${scheme} ${CENSORED}`)
    .replace(EMAIL_ENCODED, '[email]')
    .replace(EMAIL, '[email]')
    .replace(PHONE_CANDIDATE, (candidate) => (looksLikePhone(candidate) ? '[phone]' : candidate));
}

// --- fields ------------------------------------------------------------------------------------

// Compared without case and punctuation, so `Set-Cookie`, `api_key` and `apiKey` are one name.
// Suffixes catch `webhookSecret`, `accessToken`, `personEmail`; `tokenExpiresAt` or `emailCount`
// stay readable.
const SENSITIVE_NAME =
  /^(?:authorization|proxyauthorization|cookie|setcookie|key|xapikey)$|(?:apikey|secret|secrets|password|passwd|token|tokens|cookie|cookies|email|emails|phone|phonenumber)$/;

export function isSensitiveField(name: string): boolean {
  return SENSITIVE_NAME.test(name.toLowerCase().replace(/[^a-z0-9]/g, ''));
}

// pino's own redaction, the first layer: the usual places of credentials and contact details,
// at the top level and two levels down (e.g. `req.headers.authorization`, `person.email`).
const REDACTED_KEYS = [
  'authorization',
  'cookie',
  'apiKey',
  'api_key',
  'key',
  'secret',
  'webhookSecret',
  'password',
  'token',
  'accessToken',
  'email',
  'phone',
];
const REDACT_PATHS = [
  ...REDACTED_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]),
  '["set-cookie"]',
  '*["set-cookie"]',
  '*.*["set-cookie"]',
];

const MAX_DEPTH = 8;

/** A copy of a logged value with sensitive fields censored, strings scrubbed and errors made safe. */
export function sanitize(value: unknown, depth = 0, seen: WeakSet<object> = new WeakSet()): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return serializeError(value, depth, seen);
  if (value instanceof Date) return value;
  if (value instanceof URL) return scrubText(value.href);
  if (seen.has(value)) return '[circular]';
  if (depth >= MAX_DEPTH) return '[nested too deep]';
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => sanitize(item, depth + 1, seen));
    if (value instanceof Headers) return sanitize(Object.fromEntries(value), depth, seen);
    if (value instanceof Map) return sanitize(Object.fromEntries(value), depth, seen);
    if (Buffer.isBuffer(value) || ArrayBuffer.isView(value)) return `[${value.byteLength} bytes]`;
    const withJson = value as { toJSON?: () => unknown };
    if (typeof withJson.toJSON === 'function') return sanitize(withJson.toJSON(), depth + 1, seen);
    const copy: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      copy[key] = isSensitiveField(key) && field !== undefined && field !== null ? CENSORED : sanitize(field, depth + 1, seen);
    }
    return copy;
  } finally {
    seen.delete(value);
  }
}

// --- errors ------------------------------------------------------------------------------------

export type SerializedError = {
  type: string;
  message: string;
  stack?: string;
  code?: string | number;
  kind?: string;
  status?: number;
  cause?: unknown;
};

/**
 * An error as a log field: only what helps find the fault. Properties an error class may carry
 * (a response body, a request, a query's parameters) are left out by construction.
 */
export function serializeError(error: unknown, depth = 0, seen: WeakSet<object> = new WeakSet()): unknown {
  if (!(error instanceof Error)) return error; // already made safe by sanitize, or not an error
  const fields = error as Error & { code?: unknown; kind?: unknown; status?: unknown };
  // drizzle's "Failed query: <sql>\nparams: <values>" carries the people's data; the driver's
  // own message (the cause) says what went wrong.
  const fromQuery = error.message.startsWith('Failed query:');
  const message = fromQuery ? 'Failed query (parameters withheld)' : scrubText(error.message);
  // The stack's first lines repeat the message, so only the frames are kept.
  const frames = (error.stack ?? '').split('\n').filter((line) => line.trimStart().startsWith('at '));
  const serialized: SerializedError = { type: error.name, message };
  if (frames.length > 0) serialized.stack = scrubText(frames.join('\n'));
  if (typeof fields.code === 'string' || typeof fields.code === 'number')
    serialized.code = typeof fields.code === 'string' ? scrubText(fields.code) : fields.code;
  if (typeof fields.kind === 'string') serialized.kind = scrubText(fields.kind);
  if (typeof fields.status === 'number') serialized.status = fields.status;
  if (error.cause !== undefined && depth < MAX_DEPTH && !seen.has(error)) {
    seen.add(error);
    serialized.cause = error.cause instanceof Error ? serializeError(error.cause, depth + 1, seen) : sanitize(error.cause, depth + 1, seen);
    seen.delete(error);
  }
  return serialized;
}

// --- the logger --------------------------------------------------------------------------------

export type CreateLoggerOptions = {
  level?: LogLevel;
  /** Where lines go; stdout unless a test captures them. */
  destination?: DestinationStream;
};

/** LOG_LEVEL read on its own: a bad value must not stop an import (`next build` imports this). */
function levelFromEnvironment(): LogLevel {
  const parsed = logLevelSchema.safeParse(process.env.LOG_LEVEL);
  // A bad value is reported, naming the variable, when the server validates its configuration.
  return parsed.success ? parsed.data : 'info';
}

// The server's lines go through this indirection: stdout (opened on the first line, not at import),
// or a test's capture (test/support/logs.ts), since modules keep the child loggers they made at import.
let redirectedTo: DestinationStream | undefined;
let stdout: DestinationStream | undefined;
const serverDestination: DestinationStream = {
  write(line: string) {
    if (redirectedTo) return redirectedTo.write(line);
    stdout ??= pino.destination({ dest: 1, sync: true });
    return stdout.write(line);
  },
};

/** Sends the server logger's lines somewhere else (a test's capture); `undefined` restores stdout. */
export function redirectServerLogs(destination: DestinationStream | undefined): void {
  redirectedTo = destination;
}

export function createLogger({ level = levelFromEnvironment(), destination }: CreateLoggerOptions = {}): Logger {
  const options: LoggerOptions = {
    level,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACT_PATHS, censor: CENSORED },
    serializers: { err: (error: unknown) => serializeError(error) },
    formatters: {
      // The level's name reads better than its number in a terminal and in most collectors.
      level: (label) => ({ level: label }),
      log: (object) => sanitize(object) as Record<string, unknown>,
    },
    hooks: {
      // The message and its interpolation values never pass formatters.log, so they are scrubbed
      // here; an error logged on its own would otherwise lend its raw message to `msg`.
      logMethod(args, method) {
        const [first, ...rest] = args as unknown[];
        if (first instanceof Error) {
          const message = typeof rest[0] === 'string' ? (rest.shift() as string) : (serializeError(first) as SerializedError).message;
          return method.apply(this, [{ err: first }, scrubText(message), ...rest.map(scrubArgument)] as Parameters<typeof method>);
        }
        if (first !== null && typeof first === 'object' && rest.length === 0 && (first as { err?: unknown }).err instanceof Error) {
          const err = (first as { err: Error }).err;
          return method.apply(this, [first, (serializeError(err) as SerializedError).message] as Parameters<typeof method>);
        }
        // The first object goes through formatters.log; what follows a message is interpolated.
        const firstIsFields = first !== null && typeof first === 'object';
        return method.apply(
          this,
          (args as unknown[]).map((argument, index) => (index === 0 && firstIsFields ? argument : scrubArgument(argument))) as Parameters<
            typeof method
          >,
        );
      },
    },
  };
  const root = pino(options, destination ?? serverDestination);
  // pino serializes a child's bindings once, without formatters.log (and it resets
  // formatters.bindings for children), so they are made safe on the way in. Children are created
  // with Object.create(parent), so grandchildren inherit this wrapper too.
  type ChildFn = (this: Logger, bindings: Bindings, options?: ChildLoggerOptions) => Logger;
  const pinoChild = root.child as unknown as ChildFn;
  const safeChild: ChildFn = function child(bindings, childOptions) {
    return pinoChild.call(this, sanitize(bindings) as Bindings, childOptions);
  };
  root.child = safeChild as unknown as Logger['child'];
  return root;
}

function scrubArgument(argument: unknown): unknown {
  return sanitize(argument);
}

/** The server's logger. Give each area its own child: `logger.child({ area: 'webhooks' })`. */
export const logger: Logger = createLogger();
