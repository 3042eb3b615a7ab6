// The audited actions and their labels. Client-safe (the audit page's filters use it).
// The audit trail stores the codes; readers get the words of messages/<language>/audit.json
// (`actions.<code>`), through auditActionLabel. The English map below stays for the screens that
// have not moved to the catalogs yet.
// i18n: tAudit = audit
import type { Translate } from '@/lib/i18n/translate';

export const AUDIT_ACTIONS = {
  'sign_in.succeeded': 'Signed in',
  'sign_in.failed': 'Sign-in failed',
  'sign_in.throttled': 'Sign-in throttled',
  sign_out: 'Signed out',
  'setup.completed': 'First administrator created',
  'verification.created': 'Verification created',
  'verification.viewed': 'Verification viewed',
  'link.copied': 'Link copied',
  // CSV exports for auditors: the filters and how many rows went out are the details.
  'register.exported': 'Register exported',
  'audit.exported': 'Audit trail exported',
  // The whole chain as JSON Lines for the offline verifier; details: how many entries went out.
  'audit.chain_exported': 'Audit trail chain exported (JSON Lines)',
  'overview.exported': 'Overview figures exported',
  // A verification's evidence pack downloaded (details: the format, pdf or json).
  'evidence.downloaded': 'Evidence pack downloaded',
  // Details: the decision (and the one it replaced), never the note: it may name people.
  'verification.reviewed': 'Name review recorded',
  // Who works on a request. Details: the assignee and the one before, as staff ids; a request
  // handed back because its assignee's account was disabled says so (reason: staff_disabled).
  'verification.assigned': 'Assigned',
  'verification.unassigned': 'Unassigned',
  // Written by the webhook receiver and the register's retention purge (actor: none, the service).
  'verification.status_changed': 'Status changed',
  'verification.removed': 'Removed from register',
  // Details: the note's id (and the one it corrects), never its text: it may name people.
  'verification.note_added': 'Internal note added',
  'staff.created': 'Staff account created',
  'staff.role_changed': 'Role changed',
  'staff.disabled': 'Staff account disabled',
  'staff.enabled': 'Staff account re-enabled',
  // Staff sign-in (single sign-on, two-factor, invitations, self-service, break-glass links).
  'sso.signed_in': 'Signed in with single sign-on',
  'sso.refused': 'Single sign-on refused',
  'two_factor.enrolled': 'Two-factor enrolled',
  'two_factor.reset': 'Two-factor reset',
  'two_factor.disabled': 'Two-factor turned off',
  'two_factor.backup_code_used': 'Backup code used',
  // A wrong code at sign-in (details: the method, and the run of wrong codes in a row), and the
  // lock the run ends in; the actor is the account whose pending sign-in it was.
  'two_factor.failed': 'Wrong two-factor code',
  'two_factor.locked': 'Two-factor locked',
  'invitation.issued': 'Invitation issued',
  'invitation.used': 'Invitation used',
  // Details: reason (single_sign_on) and, for a refusal, the step (issue or accept).
  'invitation.voided': 'Invitation voided',
  'invitation.refused': 'Invitation refused',
  'password.changed': 'Password changed',
  'sessions.others_ended': 'Other sessions ended',
  // A new sign-in took the person past their bound of live sessions (lib/auth/session-bound.ts).
  'sessions.oldest_ended': 'Oldest sessions ended',
  'sign_in_link.issued': 'Break-glass sign-in link issued',
  'sign_in_link.used': 'Break-glass sign-in link used',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

export function isAuditAction(value: unknown): value is AuditAction {
  return typeof value === 'string' && Object.hasOwn(AUDIT_ACTIONS, value);
}

/**
 * An action in the reader's language: `tAudit` is a translator for the `audit` catalog (the
 * audit page's, or the CSV export's in the exporter's language). An unknown code shows as stored.
 */
export function auditActionLabel(action: string, tAudit: Translate): string {
  return isAuditAction(action) ? tAudit(`actions.${action}`) : action;
}

/** Every action with its label in the reader's language, in the order of AUDIT_ACTIONS (the filter's options). */
export function auditActionOptions(tAudit: Translate): { value: AuditAction; label: string }[] {
  return (Object.keys(AUDIT_ACTIONS) as AuditAction[]).map((value) => ({ value, label: auditActionLabel(value, tAudit) }));
}
