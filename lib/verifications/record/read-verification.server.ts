// One read of a verification from the service, the use case every reader goes through: the
// detail page, the browser's read route, a follow-up's check, a create's first refresh and the
// webhook receiver. It reads the record (the service is the source of truth), brings the
// register's copy up to date, and describes a failure once, in the words and the HTTP status
// every caller shows. A failure is a value: the read never rejects for the service's sake.
import 'server-only';
import { afterResponse } from '@/lib/platform/after-response';
import { logger } from '@/lib/platform/log';
import { getVerification } from '@/lib/verification-service';
import { httpStatusFor, isTransient, VerificationServiceError, type VerificationServiceErrorKind } from '@/lib/verification-service/errors';
import { describeReadError } from '@/lib/verification-service/messages';
import type { VerificationRecord } from '@/lib/verification-service/types';
import { applyServiceRecord, type RegisterTx, refreshRegisterEntry } from '@/lib/verifications/register/writes.server';

const log = logger.child({ area: 'verifications' });

/** Why a read failed, described once for every caller. */
export type ReadFailure = {
  error: unknown;
  /** The service client's kind; 'unknown' for a failure of our own (a bug). */
  kind: VerificationServiceErrorKind | 'unknown';
  title: string;
  message: string;
  /** What a route answers with: the kind's status, 500 for a failure of our own. */
  httpStatus: number;
  /** Worth another try: the service's failure may pass, and one of our own may not happen again. */
  transient: boolean;
};

/**
 * When the register learns from the record:
 * - 'after-response' (the default): once the answer has gone out, so nobody waits for it;
 * - 'now': before the read returns, which then says the status the register holds;
 * - 'by-caller': when the caller calls `refreshRegister`, alone or inside its own transaction.
 */
export type RegisterRefresh = 'after-response' | 'now' | 'by-caller';

export type VerificationRead =
  | {
      ok: true;
      record: VerificationRecord;
      /** With 'now': the status the register holds afterwards (null when the request is not in it). */
      registered?: string | null;
      /**
       * Brings the register's copy up to date with `record` and returns the status it holds. Inside
       * `tx`, the change commits with the caller's other writes, and the caller forgets cached rows
       * (forgetRegisterEntries) once `tx` has committed.
       */
      refreshRegister(tx?: RegisterTx): Promise<string | null>;
    }
  | { ok: false; failure: ReadFailure };

export async function readVerification(id: string, options: { refresh?: RegisterRefresh } = {}): Promise<VerificationRead> {
  const refresh = options.refresh ?? 'after-response';
  let record: VerificationRecord;
  try {
    record = await getVerification(id);
  } catch (error) {
    return { ok: false, failure: await describeReadFailure(id, error) };
  }
  const refreshRegister = (tx?: RegisterTx) => (tx ? applyServiceRecord(tx, id, record) : refreshRegisterEntry(id, record));
  if (refresh === 'now') return { ok: true, record, registered: await refreshRegister(), refreshRegister };
  // The register learns from the answer after it has gone out: the reader never waits for it.
  if (refresh === 'after-response') afterResponse(() => refreshRegister());
  return { ok: true, record, refreshRegister };
}

async function describeReadFailure(id: string, error: unknown): Promise<ReadFailure> {
  const { kind, title, message } = await describeReadError(error);
  if (!(error instanceof VerificationServiceError)) {
    log.error({ err: error, verificationId: id }, 'reading a verification failed unexpectedly');
    return { error, kind, title, message, httpStatus: 500, transient: true };
  }
  return { error, kind, title, message, httpStatus: httpStatusFor(error.kind), transient: isTransient(error.kind) };
}
