// The staff accounts every browser test run starts with, one per role.
import path from 'node:path';

export const STAFF = {
  admin: { email: 'ada.admin@example.com', name: 'Ada Admin', password: 'admin-password-123' },
  operator: { email: 'otto.operator@example.com', name: 'Otto Operator', password: 'operator-password-123' },
  viewer: { email: 'vera.viewer@example.com', name: 'Vera Viewer', password: 'viewer-password-123' },
} as const;

export type Role = keyof typeof STAFF;

/**
 * Where the signed-in browser state of each role is kept between the setup and the tests; one
 * folder per port, so runs on different ports do not overwrite each other's sessions.
 */
export const storageStateOf = (role: Role) => path.resolve('e2e/.auth', process.env.E2E_PORT ?? '3100', `${role}.json`);
