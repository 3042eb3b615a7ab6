'use client';
// Creates a staff account without a password, and shows its one-time invitation link once: the
// new colleague sets their own password there, so nobody else ever knows it.
import { useActionState } from 'react';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { InvitationLinkPanel } from '@/components/staff/invitation-link-panel';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field, fieldDescribedBy } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import { STAFF_ROLES } from '@/lib/auth/roles';
import { type FieldErrors, refusalOf } from '@/lib/forms/form-state';
import { type CreateStaffState, createStaffAction } from '@/lib/staff/accounts/actions';

export function CreateStaffForm() {
  const t = useClientTranslations('staff.create');
  // The page hands down common.roles and common.roleDescriptions only.
  const tCommon = useClientTranslations('common');
  const [state, formAction, isPending] = useActionState<CreateStaffState, FormData>(createStaffAction, {
    status: 'idle',
    values: { name: '', email: '', role: 'viewer' },
  });
  const refused = refusalOf(state);
  const fieldErrors: FieldErrors = refused?.fieldErrors ?? {};
  const error = (field: string) => fieldErrors[field]?.[0];
  const created = state.status === 'created' ? state.created : undefined;
  return (
    <div className="space-y-4">
      {created?.link && created.expiresAt ? (
        <Alert tone="success" title={t('createdInvite')} role="status">
          <InvitationLinkPanel id="new-staff-invitation" link={created.link} email={created.email} expiresAt={created.expiresAt} />
        </Alert>
      ) : created ? (
        <Alert tone="success" title={t('created')} role="status">
          <p>{t('singleSignOn', { name: created.name, email: created.email })}</p>
        </Alert>
      ) : null}
      {refused?.message ? (
        <Alert tone="error" title={t('notCreated')} role="alert">
          <p>{refused.message}</p>
        </Alert>
      ) : null}
      {/* The key resets the inputs after a successful create, and keeps them after an error. */}
      <form
        key={created ? `${created.email} ${created.link ?? ''}` : 'form'}
        action={formAction}
        className="grid gap-4 sm:grid-cols-[1fr_1fr_12rem_auto] sm:items-start"
        noValidate
      >
        <Field id="staff-name" label={t('name')} error={error('name')}>
          <Input
            id="staff-name"
            name="name"
            defaultValue={state.values.name}
            aria-invalid={error('name') ? true : undefined}
            aria-describedby={fieldDescribedBy('staff-name', { error: !!error('name') })}
          />
        </Field>
        <Field id="staff-email" label={t('email')} error={error('email')}>
          <Input
            id="staff-email"
            name="email"
            type="email"
            defaultValue={state.values.email}
            aria-invalid={error('email') ? true : undefined}
            aria-describedby={fieldDescribedBy('staff-email', { error: !!error('email') })}
          />
        </Field>
        <Field id="staff-role" label={t('role')} error={error('role')}>
          <Select id="staff-role" name="role" defaultValue={state.values.role || 'viewer'}>
            {STAFF_ROLES.map((role) => (
              <option key={role} value={role}>
                {tCommon(`roles.${role}`)}
              </option>
            ))}
          </Select>
        </Field>
        <Button type="submit" className="sm:mt-7" disabled={isPending}>
          {t('submit')}
        </Button>
      </form>
      <ul className="grid gap-1 text-sm text-slate-600 sm:grid-cols-3">
        {STAFF_ROLES.map((role) => (
          <li key={role}>
            <strong className="font-medium text-slate-800">{t('roleTerm', { role: tCommon(`roles.${role}`) })}</strong>{' '}
            {tCommon(`roleDescriptions.${role}`)}
          </li>
        ))}
      </ul>
    </div>
  );
}
