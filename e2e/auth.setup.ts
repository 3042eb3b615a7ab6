// Signs each role in once over HTTP, posting the sign-in form's own server action, and keeps the
// cookies for the tests. Signing in through the page is the subject of e2e/staff-and-sign-in.spec.ts;
// here it would only cost a browser page per role before any test can start.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { devices, test as setup } from '@playwright/test';
import { sessionOverHttp } from './support/over-http';
import { type Role, STAFF, storageStateOf } from './support/staff';

for (const role of Object.keys(STAFF) as Role[]) {
  setup(`sign in as ${role}`, async ({ baseURL }) => {
    // The user agent of the browser that will use the session, as if it had signed in itself.
    const state = await sessionOverHttp(baseURL!, { ...STAFF[role], userAgent: devices['Desktop Chrome'].userAgent });
    mkdirSync(path.dirname(storageStateOf(role)), { recursive: true, mode: 0o700 });
    writeFileSync(storageStateOf(role), JSON.stringify(state), { mode: 0o600 });
  });
}
