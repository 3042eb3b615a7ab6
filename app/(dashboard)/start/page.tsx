// The start page: no content of its own, it sends a signed-in person to their role's first page
// (lib/auth/landing.ts). Signed out, requireStaff sends them to sign in and back here.
import { redirect } from 'next/navigation';
import { HOME_PATH, landingPathFor } from '@/lib/auth/landing';
import { requireStaff } from '@/lib/auth/session';

export default async function StartPage(): Promise<never> {
  const staff = await requireStaff('verification:read', HOME_PATH);
  redirect(landingPathFor(staff.role));
}
