// The sandbox's API endpoints (contract §4), kept here so the files under app/v1 only say which
// handler answers which path.
import 'server-only';
import { jsonError, jsonResponse } from '@/lib/platform/json-response';
import { getPublicBaseUrl } from '@/lib/sandbox/config';
import { deliverEmails, isSmtpConfigured } from '@/lib/sandbox/records/notifications';
import { listCompanyOutbox } from '@/lib/sandbox/records/outbox';
import { CREATED_MESSAGE, createVerification, getVerificationForCompany } from '@/lib/sandbox/records/verifications';
import { parseCreateVerificationInput } from './create-verification-input';
import { type ApiCaller, readJsonBody, sandboxApiRoute } from './http';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const NOT_FOUND_MESSAGE = 'Verification not found';

/** POST /v1/verifications/new */
export const createVerificationRoute = sandboxApiRoute<unknown>(async (request, { db, companyId }) => {
  const read = await readJsonBody(request);
  if (!read.ok) return read.response;
  const parsed = parseCreateVerificationInput(read.body);
  if (!parsed.ok) return jsonError(400, parsed.error);

  const input = parsed.value;
  const created = await createVerification(db, {
    companyId,
    input,
    baseUrl: getPublicBaseUrl(request),
    emailBySmtp: isSmtpConfigured(),
  });
  // After the commit, and never failing the call: an unsent e-mail falls back to the outbox.
  await deliverEmails(db, created.emails);
  return jsonResponse({
    message: CREATED_MESSAGE,
    verificationId: created.verificationId,
    // Contract §2.2: the link is returned only when the caller asked to share it itself.
    ...(input.shareableLink ? { link: created.link } : {}),
  });
});

/** GET /v1/verifications/{id} */
export const getVerificationRoute = sandboxApiRoute<{ params: Promise<{ id: string }> }>(async (_request, caller, { params }) =>
  readVerification(caller, (await params).id),
);

/** GET /v1/verifications and /v1/verifications/: the id is missing (contract §4.2 rule 3). */
export const missingVerificationIdRoute = sandboxApiRoute<unknown>(async () =>
  jsonError(400, 'Verification id is missing: use GET /v1/verifications/{id}'),
);

/**
 * GET /v1/verifications/new: the static `new` segment shadows `[id]`, but to a caller this is
 * a read of the id "new", which is not a valid id.
 */
export const getNewAsIdRoute = sandboxApiRoute<unknown>(async (_request, caller) => readVerification(caller, 'new'));

async function readVerification({ db, companyId }: ApiCaller, id: string): Promise<Response> {
  if (!UUID_PATTERN.test(id)) return jsonError(400, 'Verification id is invalid: expected a UUID');
  const lookup = await getVerificationForCompany(db, { companyId, id: id.toLowerCase() });
  switch (lookup.kind) {
    case 'not_found':
      return jsonError(404, NOT_FOUND_MESSAGE);
    case 'forbidden':
      // Nothing of the record, not even its status, goes to another company.
      return jsonError(403, 'This verification belongs to another company');
    case 'found':
      return jsonResponse(lookup.record);
  }
}

/**
 * GET /v1/sandbox/outbox — not part of the service contract: the e-mails and SMS the sandbox
 * would have sent for the caller's company, so the dashboard can show them to its staff.
 */
export const companyOutboxRoute = sandboxApiRoute<unknown>(async (_request, { db, companyId }) =>
  jsonResponse({ messages: await listCompanyOutbox(db, companyId, 100) }),
);
