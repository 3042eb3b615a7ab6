// A refused change to a staff account, in the reader's language. The account functions throw
// StaffError with an English sentence (the staff CLI prints it as is, for the operator's
// terminal); the dashboard's actions show the same refusal from the staff catalog instead. A
// sentence not listed here (the password rules', say) is shown as it came.
import 'server-only';
import { getTranslations } from 'next-intl/server';
import type { StaffError } from './staff-accounts';

const REFUSAL_CODES = {
  'That account does not exist.': 'unknownAccount',
  'This is the last active administrator; make someone else an administrator first.': 'lastAdmin',
  'You cannot disable your own account.': 'disableSelf',
  'An account with this e-mail address already exists.': 'accountExists',
  'You cannot reset your own second factor here: use your two-factor page.': 'resetSelf',
  'They have no second factor to reset.': 'noSecondFactor',
  'This colleague signs in with the company’s single sign-on, so no invitation is issued: a password would bypass the provider’s checks.':
    'singleSignOn',
  'This account is disabled; an invitation would not let them in.': 'inviteDisabled',
  'They have set a password already; they sign in with it.': 'hasPassword',
} as const;

type RefusalCode = (typeof REFUSAL_CODES)[keyof typeof REFUSAL_CODES];

function refusalCode(message: string): RefusalCode | undefined {
  return (REFUSAL_CODES as Record<string, RefusalCode>)[message];
}

/** The refusal's sentence in the reader's language. */
export async function staffRefusal(error: StaffError): Promise<string> {
  const code = refusalCode(error.message);
  if (!code) return error.message;
  const t = await getTranslations('staff.refusals');
  return t(`${code}`);
}
