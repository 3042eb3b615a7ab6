// The staff roles, as the staff table stores them. Client-safe (no imports): what each role may
// do, and its words, live with the guards in lib/auth/roles.ts, which builds on this list.

export const STAFF_ROLES = ['viewer', 'operator', 'admin'] as const;

export type StaffRole = (typeof STAFF_ROLES)[number];
