'use server';
// An administrator's reset of a colleague's second factor (lib/auth/two-factor/reset.ts).
import { resetTwoFactor } from '@/lib/auth/two-factor/reset';
import { accountChangeAction } from './account-change-action';

export const resetTwoFactorAction = accountChangeAction(
  resetTwoFactor,
  'Second factor reset; their sessions have ended. They sign in with their password alone now.',
);
