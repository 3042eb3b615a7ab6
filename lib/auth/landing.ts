// Where a signed-in person starts. Sign-in, invitations and the second-factor steps send people to
// HOME_PATH when they were not on their way somewhere else; that page decides by role, once the
// session exists, so every way in (password, single sign-on, sign-in link, invitation) lands alike.
import { can, type StaffRole } from './roles';

/** The start page every sign-in falls back to; it only redirects (app/(dashboard)/start). */
export const HOME_PATH = '/start';

/**
 * Those who work cases start on what needs a person now (the queue); those who only read start on
 * the register, the page that answers "where is this request?".
 */
export function landingPathFor(role: StaffRole): string {
  return can(role, 'verification:assign') ? '/queue' : '/';
}
