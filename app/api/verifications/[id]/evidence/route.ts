// A verification's evidence pack as a download (docs/evidence-pack.md): `?format=pdf` for a
// reader, `?format=json` for the signed file an auditor checks offline. Whoever may read the
// record may download its pack; each download is audited (the format only) before it goes out.
import { getLocale, getTranslations } from 'next-intl/server';
import { recordAudit } from '@/lib/audit/audit';
import { authorizedRoute } from '@/lib/auth/guards';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '@/lib/i18n/languages';
import { jsonError } from '@/lib/platform/json-response';
import { displayTimeZoneOf } from '@/lib/time/display-zone';
import { canonicalVerificationId } from '@/lib/verification-service/contract/verification-id';
import { verificationStatuses } from '@/lib/verification-service/contract/verification-status';
import { EVIDENCE_PACK_FORMATS, type EvidencePackFormat } from '@/lib/verifications/evidence/links';
import { buildEvidencePack, evidencePackJson } from '@/lib/verifications/evidence/pack.server';
import { renderEvidencePdf } from '@/lib/verifications/evidence/pdf.server';

export const dynamic = 'force-dynamic';

const CONTENT_TYPES: Record<EvidencePackFormat, string> = { pdf: 'application/pdf', json: 'application/json; charset=utf-8' };

function isFormat(value: string): value is EvidencePackFormat {
  return (EVIDENCE_PACK_FORMATS as readonly string[]).includes(value);
}

/** The file's name: the id, with anything a file name should not hold replaced. */
function fileName(id: string, format: EvidencePackFormat): string {
  return `evidence-pack-${id.replace(/[^A-Za-z0-9._-]/g, '_')}.${format}`;
}

export const GET = authorizedRoute<{ id: string }>('verification:read', async (request, staff, { params }) => {
  const id = canonicalVerificationId((await params).id);
  const locale = await getLocale();
  const language: Language = isLanguage(locale) ? locale : DEFAULT_LANGUAGE;
  const t = await getTranslations({ locale: language, namespace: 'evidence.refusals' });
  const format = new URL(request.url).searchParams.get('format') ?? 'pdf';
  if (!isFormat(format)) return jsonError(400, t('format', { format }));

  const result = await buildEvidencePack(id, staff, { language, timeZone: displayTimeZoneOf(request) });
  if (!result.ok) {
    if (result.reason === 'not_in_register') return jsonError(404, t('notInRegister', { id }));
    const tCommon = await getTranslations({ locale: language, namespace: 'common' });
    const status = (verificationStatuses as readonly string[]).includes(result.status) ? tCommon(`status.${result.status}`) : result.status;
    return jsonError(409, t('notFinished', { id, status }));
  }
  const body =
    format === 'pdf' ? new Uint8Array(await renderEvidencePdf(result.pack)) : new TextEncoder().encode(evidencePackJson(result.pack));
  // Before the file goes out: a download the audit trail cannot record does not happen.
  await recordAudit({ actorId: staff.id, action: 'evidence.downloaded', target: { type: 'verification', id }, details: { format } });
  return new Response(body, {
    status: 200,
    headers: {
      'Content-Type': CONTENT_TYPES[format],
      'Content-Length': String(body.byteLength),
      'Content-Disposition': `attachment; filename="${fileName(id, format)}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
});
