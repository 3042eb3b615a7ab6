// The role table is what both the UI and the server consult, so the whole matrix is spelled out
// here by hand: a permission granted to the wrong role by an edit to PERMISSIONS fails below.
import { describe, expect, it } from 'vitest';
import { can, isStaffRole, PERMISSIONS, type Permission, STAFF_ROLES, type StaffRole } from './roles';

const EXPECTED: Record<StaffRole, Record<Permission, boolean>> = {
  viewer: {
    'verification:read': true,
    'verification:create': false,
    'verification:review': false,
    'verification:assign': false,
    'verification:note': false,
    'link:copy': false,
    'staff:manage': false,
    'audit:read': false,
    'account:own': true,
    'two-factor:own': true,
  },
  operator: {
    'verification:read': true,
    'verification:create': true,
    'verification:review': true,
    'verification:assign': true,
    'verification:note': true,
    'link:copy': true,
    'staff:manage': false,
    'audit:read': false,
    'account:own': true,
    'two-factor:own': true,
  },
  admin: {
    'verification:read': true,
    'verification:create': true,
    'verification:review': true,
    'verification:assign': true,
    'verification:note': true,
    'link:copy': true,
    'staff:manage': true,
    'audit:read': true,
    'account:own': true,
    'two-factor:own': true,
  },
};

const ALL_PERMISSIONS = Object.keys(EXPECTED.admin) as Permission[];

describe('can', () => {
  it('knows exactly the three roles and the permissions this matrix covers', () => {
    // A new role or permission must get a row here, not slip in unchecked.
    expect([...STAFF_ROLES].sort()).toEqual(Object.keys(EXPECTED).sort());
    expect(Object.keys(PERMISSIONS).sort()).toEqual([...ALL_PERMISSIONS].sort());
  });

  const cases = STAFF_ROLES.flatMap((role) => ALL_PERMISSIONS.map((permission) => [role, permission, EXPECTED[role][permission]] as const));

  it.each(cases)('%s × %s → %s', (role, permission, allowed) => {
    expect(can(role, permission)).toBe(allowed);
  });

  it('grants nothing without a role, or to a role it does not know', () => {
    for (const permission of ALL_PERMISSIONS) {
      expect(can(null, permission)).toBe(false);
      expect(can(undefined, permission)).toBe(false);
      // A role string from a tampered or stale row must not be taken at its word.
      expect(can('superuser' as StaffRole, permission)).toBe(false);
      expect(can('Admin' as StaffRole, permission)).toBe(false);
      expect(can('' as StaffRole, permission)).toBe(false);
    }
  });
});

describe('isStaffRole', () => {
  it.each(['viewer', 'operator', 'admin'])('accepts %s', (value) => {
    expect(isStaffRole(value)).toBe(true);
  });

  it.each([['Admin'], [' admin'], ['admin '], [''], ['superuser'], ['toString'], [null], [undefined], [1], [{}], [['admin']], [true]])(
    'refuses %j',
    (value) => {
      expect(isStaffRole(value)).toBe(false);
    },
  );
});
