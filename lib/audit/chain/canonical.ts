// The one byte-exact JSON encoding that every hash and signature of the audit chain is made over
// (docs/audit-chain.md, "Encoding"): objects with their keys in code-point order, no whitespace,
// strings escaped as JSON.stringify escapes them, integers only. It is RFC 8785 (JCS) for the
// values the chain holds; refusing fractions and unsafe integers keeps it so, since those are
// where JCS, PostgreSQL and JavaScript print numbers differently.
import { createHash } from 'node:crypto';

export type CanonicalValue = string | number | boolean | null | readonly CanonicalValue[] | { readonly [key: string]: CanonicalValue };

export class NotCanonicalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotCanonicalError';
  }
}

/** The canonical encoding of `value`; throws NotCanonicalError for what it cannot encode exactly. */
export function canonicalJson(value: CanonicalValue | undefined): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isSafeInteger(value)) throw new NotCanonicalError(`${value} is not a whole number within ±(2^53−1)`);
      return String(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
      const record = value as { readonly [key: string]: CanonicalValue };
      const keys = Object.keys(record)
        .filter((key) => record[key] !== undefined)
        .sort(byCodePoint);
      return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
    }
    default:
      throw new NotCanonicalError(`a ${typeof value} has no canonical encoding`);
  }
}

/** Code-point order, which for the ASCII keys the chain uses is also UTF-8 byte order (PostgreSQL's COLLATE "C"). */
function byCodePoint(a: string, b: string): number {
  const left = Array.from(a);
  const right = Array.from(b);
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const difference = left[i]!.codePointAt(0)! - right[i]!.codePointAt(0)!;
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

/** SHA-256 of the text's UTF-8 bytes, in lowercase hex. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * A moment as the chain writes it: UTC, microseconds, e.g. 2026-11-29T13:41:08.552000Z
 * (PostgreSQL keeps microseconds; a JavaScript Date has milliseconds, so its last three are 0).
 */
export function canonicalTime(moment: Date): string {
  return moment.toISOString().replace(/Z$/, '000Z');
}
