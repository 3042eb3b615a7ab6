'use client';
import { useActionState } from 'react';
import { PendingSubmitButton } from '@/components/forms/pending-submit-button';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { Alert } from '@/components/ui/alert';
import { Field, fieldDescribedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
// The second step of a sign-in: the 6-digit code from the authenticator app, or one of the
// backup codes. Posts with or without JavaScript; a refused code keeps what was typed and says
// why, and a sign-in that ran out offers the way back to the password.
import { Link } from '@/components/ui/link';
import { HOME_PATH } from '@/lib/auth/landing';
import { type SignInCodeState, verifySignInBackupCodeAction, verifySignInCodeAction } from '@/lib/auth/two-factor/actions';
import { refusalOf } from '@/lib/forms/form-state';

export type PromptMethod = 'totp' | 'backup';

const idle: SignInCodeState = { status: 'idle', values: { code: '' } };

export function TwoFactorPromptForm({ method, next }: { method: PromptMethod; next: string }) {
  const [state, formAction, isPending] = useActionState<SignInCodeState, FormData>(
    method === 'totp' ? verifySignInCodeAction : verifySignInBackupCodeAction,
    idle,
  );
  const t = useClientTranslations('auth.twoFactorForm');
  const refused = refusalOf(state);
  const codeError = refused?.fieldErrors.code?.[0];
  const signInHref = next === HOME_PATH ? '/sign-in' : `/sign-in?next=${encodeURIComponent(next)}`;
  const otherHref = `/sign-in/two-factor?${new URLSearchParams({ ...(method === 'totp' ? { method: 'backup' } : {}), ...(next === HOME_PATH ? {} : { next }) })}`;
  return (
    <form action={formAction} className="space-y-5" noValidate>
      <input type="hidden" name="next" value={next} />
      {refused?.message ? (
        <Alert tone="error" title={refused.title ?? t('notSignedIn')} role="alert">
          <p>{refused.message}</p>
          {state.restart ? (
            <p>
              <Link href={signInHref} className="font-medium underline underline-offset-2 hover:no-underline">
                {t('signInAgain')}
              </Link>
            </p>
          ) : null}
        </Alert>
      ) : null}
      {method === 'totp' ? (
        <Field id="code" label={t('totpLabel')} hint={t('totpHint')} error={codeError}>
          <Input
            id="code"
            name="code"
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9 ]*"
            maxLength={7}
            required
            autoFocus
            defaultValue={state.values.code}
            className="font-mono tracking-widest"
            aria-invalid={codeError ? true : undefined}
            aria-describedby={fieldDescribedBy('code', { hint: true, error: !!codeError })}
          />
        </Field>
      ) : (
        <Field id="code" label={t('backupLabel')} hint={t('backupHint')} error={codeError}>
          <Input
            id="code"
            name="code"
            type="text"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            maxLength={40}
            required
            autoFocus
            defaultValue={state.values.code}
            className="font-mono"
            aria-invalid={codeError ? true : undefined}
            aria-describedby={fieldDescribedBy('code', { hint: true, error: !!codeError })}
          />
        </Field>
      )}
      <PendingSubmitButton pending={isPending} pendingLabel={t('pending')} className="w-full">
        {t('submit')}
      </PendingSubmitButton>
      <p className="text-center text-sm">
        <Link href={otherHref} className="font-medium text-indigo-700 underline-offset-2 hover:underline">
          {method === 'totp' ? t('useBackup') : t('useApp')}
        </Link>
      </p>
    </form>
  );
}
