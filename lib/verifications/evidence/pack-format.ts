// The evidence pack's JSON: one verification as the Desk holds it, with the audit entries behind
// its history and the checkpoint that signs them, the whole signed with the audit key. The field
// names are a format (docs/evidence-pack.md): an auditor's own verifier reads them, so they only
// ever grow under a new `format` version. Client-safe types and codes.
import type { PackAuditEntry, PackCheckpoint } from '@/lib/audit/chain/verify-pack';

export { EVIDENCE_PACK_FORMAT } from '@/lib/audit/chain/verify-pack';

/** What the Desk never keeps about the person, as codes (the PDF says them in words). */
export const DOES_NOT_KEEP = ['email_address', 'phone_number', 'document_images'] as const;
export type NotKept = (typeof DOES_NOT_KEEP)[number];

/** A staff member by id and by the name their account has now (null once the account is gone). */
export type PackStaff = { id: string; name: string | null };

/**
 * Where the record came from when the pack was made: the service answered and the register was
 * brought up to date ("read"), the service no longer has it ("purged"), or it could not be asked
 * ("unavailable"); in the last two cases the register's last copy is what the pack holds.
 */
export type ServiceRecordState = 'read' | 'purged' | 'unavailable';

export type PackVerification = {
  id: string;
  requestedName: string;
  /** A predefined purpose's code, or the purpose staff wrote. */
  purpose: string;
  /** The person's language on the service's page (en, fr, nl). */
  personLanguage: string;
  channels: { shareableLink: boolean; email: boolean; sms: boolean };
  createdAt: string;
  createdBy: PackStaff | null;
  status: string;
  identifiedName: string | null;
  identifiedAt: string | null;
  method: string | null;
  failureReason: string | null;
  keptUntil: string | null;
  /** The latest name-review decision and who made it (never its note, which may name people). */
  nameReview: { decision: string; decidedAt: string; decidedBy: PackStaff | null } | null;
  serviceRecord: ServiceRecordState;
};

/** A reference from a history line to the audit entry it was read from. */
export type PackAuditReference = { id: string; seq: number; hash: string };

/** The values a history line states; codes and ids, with staff as PackStaff. */
export type PackHistoryFact = string | number | boolean | null | PackStaff;

export type PackHistoryItem = {
  at: string;
  /** The last instant of a folded line (several views, several notices); null for one event. */
  until: string | null;
  /** What happened, a code: created, status_changed, viewed, reviewed, assigned... */
  event: string;
  /** Who did it: null for the service, or when nobody is recorded. */
  by: PackStaff | null;
  facts: Record<string, PackHistoryFact>;
  /** The audit entries this line was read from (empty: it comes from the register alone). */
  audit: PackAuditReference[];
};

export type EvidencePack = {
  format: string;
  generatedAt: string;
  generatedBy: PackStaff;
  /** The language and zone the PDF beside it was written in (the JSON keeps codes and UTC times). */
  language: string;
  timeZone: string;
  verification: PackVerification;
  history: PackHistoryItem[];
  /** True when older history was left out (the audit trail has it). */
  historyTruncated: boolean;
  auditEntries: PackAuditEntry[];
  checkpoint: PackCheckpoint;
  publicKey: { fingerprint: string; pem: string };
  doesNotKeep: NotKept[];
  /** SHA-256 of each part's canonical JSON, by path: says which part changed (docs/evidence-pack.md). */
  digests: Record<string, string>;
  signature: { keyFingerprint: string; value: string };
};
