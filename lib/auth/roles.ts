// Staff roles and what each may do. Pure data, safe to import anywhere (the UI hides what a
// role cannot do; the server enforces it with the same table). The list itself is the staff
// table's (lib/db/staff-roles.ts).
import { STAFF_ROLES, type StaffRole } from '@/lib/db/staff-roles';

export { STAFF_ROLES, type StaffRole };

export const PERMISSIONS = {
  /** Look verifications up and read them, see the register. */
  'verification:read': ['viewer', 'operator', 'admin'],
  /** Create verification requests. */
  'verification:create': ['operator', 'admin'],
  /** Record whether a completed request's differing names belong to the same person. */
  'verification:review': ['operator', 'admin'],
  /** Take a request for oneself, give it to a colleague, hand it back (lib/verifications/assignment). */
  'verification:assign': ['operator', 'admin'],
  /** Add internal notes to a request in the register (everyone who reads it reads its notes). */
  'verification:note': ['operator', 'admin'],
  /** See and copy shareable links. */
  'link:copy': ['operator', 'admin'],
  /** One's own account: change one's password, see and end one's sessions. */
  'account:own': ['viewer', 'operator', 'admin'],
  /** Create staff accounts, change roles, disable and re-enable accounts. */
  'staff:manage': ['admin'],
  /** Read the audit trail. */
  'audit:read': ['admin'],
  /**
   * Set up or turn off one's own second factor. The only permission usable while REQUIRE_2FA
   * still asks the account to enrol (lib/auth/two-factor/requirement.ts).
   */
  'two-factor:own': ['viewer', 'operator', 'admin'],
} as const satisfies Record<string, readonly StaffRole[]>;

export type Permission = keyof typeof PERMISSIONS;

export function can(role: StaffRole | undefined | null, permission: Permission): boolean {
  return !!role && (PERMISSIONS[permission] as readonly StaffRole[]).includes(role);
}

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === 'string' && (STAFF_ROLES as readonly string[]).includes(value);
}

export const ROLE_LABELS: Record<StaffRole, string> = {
  viewer: 'Viewer',
  operator: 'Operator',
  admin: 'Administrator',
};

export const ROLE_DESCRIPTIONS: Record<StaffRole, string> = {
  viewer: 'Looks verifications up and reads them.',
  operator: 'Also creates requests and copies their links.',
  admin: 'Also manages staff and reads the audit trail.',
};
