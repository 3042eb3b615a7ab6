// Where a verification's evidence pack is downloaded: one address for every page that offers it
// (the detail page's evidence section, the notice before a purge). Client-safe: plain strings.

export const EVIDENCE_PACK_FORMATS = ['pdf', 'json'] as const;
export type EvidencePackFormat = (typeof EVIDENCE_PACK_FORMATS)[number];

/** The statuses a pack is made for: the request is over, whatever its outcome. */
export const EVIDENCE_PACK_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'expired']);

export function hasEvidencePack(status: string): boolean {
  return EVIDENCE_PACK_STATUSES.has(status);
}

/** The route that answers the pack as a download (a plain link: works without JavaScript). */
export function evidencePackHref(id: string, format: EvidencePackFormat): string {
  return `/api/verifications/${encodeURIComponent(id)}/evidence?format=${format}`;
}
