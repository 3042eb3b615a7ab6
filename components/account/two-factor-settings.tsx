'use client';
// One's own two-factor authentication: set it up (current password → QR code and manual key →
// first code → backup codes once), or see that it is on and, where allowed, turn it off. One
// component for every state, so the backup codes stay on screen when the page re-renders with
// the second factor on. Every step posts with or without JavaScript.
import { QRCodeSVG } from 'qrcode.react';
import { useActionState } from 'react';
import { PasswordField } from '@/components/forms/password-field';
import { PendingSubmitButton } from '@/components/forms/pending-submit-button';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { Alert } from '@/components/ui/alert';
import { ButtonLink } from '@/components/ui/button';
import { Field, fieldDescribedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { type EnrolmentState, enrolTwoFactorAction, type TurnOffState, turnOffTwoFactorAction } from '@/lib/auth/two-factor/actions';
import type { EnrolmentSecret } from '@/lib/auth/two-factor/enrolment';
import { refusalOf } from '@/lib/forms/form-state';
import { BackupCodes } from './backup-codes';
import { CopyTextButton } from './copy-text-button';

const idleEnrolment: EnrolmentState = { status: 'idle', values: {} };
const idleTurnOff: TurnOffState = { status: 'idle', values: {} };

export function TwoFactorSettings({
  email,
  enabled,
  mayTurnOff,
  next,
}: {
  /** The account's address, for password managers that fill the password by it. */
  email: string;
  enabled: boolean;
  mayTurnOff: boolean;
  next: string;
}) {
  const t = useClientTranslations('account.twoFactor');
  const [enrolment, enrol, enrolling] = useActionState<EnrolmentState, FormData>(enrolTwoFactorAction, idleEnrolment);
  const [turnOff, turnOffAction, turningOff] = useActionState<TurnOffState, FormData>(turnOffTwoFactorAction, idleTurnOff);

  if (enrolment.status === 'enrolled') {
    return (
      <div className="space-y-6">
        <Alert tone="success" title={t('enrolledTitle')} role="status">
          <p>{t('enrolledText')}</p>
        </Alert>
        <BackupCodes codes={enrolment.backupCodes} />
        <ButtonLink href={next}>{t('continue')}</ButtonLink>
      </div>
    );
  }

  if (enabled) {
    const refused = refusalOf(turnOff);
    const passwordError = refused?.fieldErrors.password?.[0];
    return (
      <div className="space-y-6">
        <Alert tone="success" title={t('enrolledTitle')}>
          <p>{t('onText')}</p>
        </Alert>
        {mayTurnOff ? (
          <form action={turnOffAction} className="max-w-sm space-y-4" noValidate>
            <h2 className="text-base font-semibold text-slate-900">{t('turnOffTitle')}</h2>
            <AccountName email={email} />
            {refused?.message ? (
              <Alert tone="error" title={t('stillOn')} role="alert">
                <p>{refused.message}</p>
              </Alert>
            ) : null}
            <PasswordField
              id="off-password"
              name="password"
              label={t('currentPassword')}
              autoComplete="current-password"
              required
              error={passwordError}
            />
            <PendingSubmitButton pending={turningOff} variant="danger">
              {t('turnOff')}
            </PendingSubmitButton>
          </form>
        ) : (
          <p className="text-sm text-slate-600">{t('required')}</p>
        )}
      </div>
    );
  }

  const turnedOff = turnOff.status === 'off';
  return (
    <div className="space-y-6">
      {turnedOff ? (
        <Alert tone="info" title={t('offTitle')} role="status">
          <p>{t('offText')}</p>
        </Alert>
      ) : null}
      {enrolment.status === 'scan' ? (
        <ScanStep secret={enrolment.secret} codeError={enrolment.codeError} action={enrol} pending={enrolling} />
      ) : (
        <PasswordStep email={email} state={enrolment} action={enrol} pending={enrolling} />
      )}
    </div>
  );
}

/** Whose password is asked: hidden, for password managers (a password form without it cannot be filled reliably). */
function AccountName({ email }: { email: string }) {
  return <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />;
}

function PasswordStep({
  email,
  state,
  action,
  pending,
}: {
  email: string;
  state: EnrolmentState;
  action: (form: FormData) => void;
  pending: boolean;
}) {
  const t = useClientTranslations('account.twoFactor');
  const refused = refusalOf(state);
  const passwordError = refused?.fieldErrors.password?.[0];
  return (
    <form action={action} className="max-w-sm space-y-4" noValidate>
      <input type="hidden" name="step" value="password" />
      <AccountName email={email} />
      <h2 className="text-base font-semibold text-slate-900">{t('step1')}</h2>
      {state.status === 'already-on' ? (
        <Alert tone="info" title={t('alreadyOnTitle')} role="status">
          <p>{t('alreadyOnText')}</p>
        </Alert>
      ) : null}
      {refused?.message ? (
        <Alert tone="error" title={t('notSetUp')} role="alert">
          <p>{refused.message}</p>
        </Alert>
      ) : null}
      <PasswordField id="password" label={t('currentPassword')} autoComplete="current-password" required error={passwordError} />
      <PendingSubmitButton pending={pending}>{t('next')}</PendingSubmitButton>
    </form>
  );
}

function ScanStep({
  secret,
  codeError,
  action,
  pending,
}: {
  secret: EnrolmentSecret;
  codeError?: string;
  action: (form: FormData) => void;
  pending: boolean;
}) {
  const t = useClientTranslations('account.twoFactor');
  return (
    <div className="space-y-6">
      <section aria-labelledby="scan-heading" className="space-y-4">
        <h2 id="scan-heading" className="text-base font-semibold text-slate-900">
          {t('step2')}
        </h2>
        <p className="text-sm text-slate-600">{t('scan')}</p>
        <div className="flex flex-col gap-6 sm:flex-row sm:items-start">
          <div className="w-fit rounded-md bg-white p-2 ring-1 ring-slate-200">
            <QRCodeSVG value={secret.totpURI} size={176} marginSize={1} role="img" aria-label={t('qrLabel')} />
          </div>
          <div className="space-y-2">
            <p className="text-sm text-slate-700">{t('manual')}</p>
            <p>
              <code className="rounded bg-slate-100 px-2 py-1 font-mono text-base tracking-wide text-slate-900" data-testid="manual-key">
                {secret.manualKey}
              </code>
            </p>
            <CopyTextButton text={secret.manualKey.replaceAll(' ', '')} label={t('copyKey')} copiedMessage={t('keyCopied')} />
          </div>
        </div>
      </section>
      <form action={action} className="max-w-sm space-y-4" noValidate>
        <h2 className="text-base font-semibold text-slate-900">{t('step3')}</h2>
        <input type="hidden" name="step" value="code" />
        <input type="hidden" name="totpURI" value={secret.totpURI} />
        <input type="hidden" name="proof" value={secret.proof} />
        <Field id="code" label={t('code')} hint={t('codeHint')} error={codeError}>
          <Input
            id="code"
            name="code"
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9 ]*"
            maxLength={7}
            required
            className="font-mono tracking-widest"
            aria-invalid={codeError ? true : undefined}
            aria-describedby={fieldDescribedBy('code', { hint: true, error: !!codeError })}
          />
        </Field>
        <PendingSubmitButton pending={pending}>{t('turnOn')}</PendingSubmitButton>
      </form>
    </div>
  );
}
