// The sign-in actions' own landing: the role read from the account that just signed in.
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { staffUsers } from '@/lib/db/schema';
import { ADA, OTTO, setUpRegisterDatabase } from '@/test/support/register';
import { HOME_PATH } from './landing';
import { landingAfterSignIn } from './landing.server';

setUpRegisterDatabase();

describe('landingAfterSignIn', () => {
  it('sends an administrator and an operator to the queue and a viewer to the register, unless the sign-in was going elsewhere', async () => {
    await (await getDb()).insert(staffUsers).values({ id: 'staff-vera', name: 'Vera Viewer', email: 'vera@example.com', role: 'viewer' });
    expect(await landingAfterSignIn(ADA, HOME_PATH)).toBe('/queue');
    expect(await landingAfterSignIn(OTTO, HOME_PATH)).toBe('/queue');
    expect(await landingAfterSignIn('staff-vera', HOME_PATH)).toBe('/');
    expect(await landingAfterSignIn(OTTO, '/verifications/abc')).toBe('/verifications/abc');
    // An account gone in between: the start page decides (and sends to sign-in).
    expect(await landingAfterSignIn('staff-nobody', HOME_PATH)).toBe(HOME_PATH);
  });
});
