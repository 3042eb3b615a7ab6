export type EvidencePackFormat = 'pdf' | 'json';
export function evidencePackHref(id: string, format: EvidencePackFormat): string {
  return `/api/verifications/${encodeURIComponent(id)}/evidence?format=${format}`;
}
