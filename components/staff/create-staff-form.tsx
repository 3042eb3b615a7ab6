'use client';
// Creates a staff account. The password is generated on the server and shown once, for the
// administrator to hand over; it is not stored anywhere readable.
import { useActionState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field, fieldDescribedBy } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import { ROLE_DESCRIPTIONS, ROLE_LABELS, STAFF_ROLES } from '@/lib/auth/roles';
import { type FieldErrors, refusalOf } from '@/lib/forms/form-state';
import { type CreateStaffState, createStaffAction } from '@/lib/staff/staff-actions';

export function CreateStaffForm() {
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
      {created ? (
        <Alert tone="success" title="Account created" role="status">
          <p>
            Give <strong>{created.email}</strong> this password through a safe channel. It is shown only now:
          </p>
          <p>
            <code className="rounded bg-white px-2 py-1 font-mono text-sm select-all" data-testid="generated-password">
              {created.password}
            </code>
          </p>
        </Alert>
      ) : null}
      {refused?.message ? (
        <Alert tone="error" title="The account was not created" role="alert">
          <p>{refused.message}</p>
        </Alert>
      ) : null}
      {/* The key resets the inputs after a successful create, and keeps them after an error. */}
      <form
        key={created?.email ?? 'form'}
        action={formAction}
        className="grid gap-4 sm:grid-cols-[1fr_1fr_12rem_auto] sm:items-start"
        noValidate
      >
        <Field id="staff-name" label="Name" error={error('name')}>
          <Input
            id="staff-name"
            name="name"
            defaultValue={state.values.name}
            aria-invalid={error('name') ? true : undefined}
            aria-describedby={fieldDescribedBy('staff-name', { error: !!error('name') })}
          />
        </Field>
        <Field id="staff-email" label="E-mail address" error={error('email')}>
          <Input
            id="staff-email"
            name="email"
            type="email"
            defaultValue={state.values.email}
            aria-invalid={error('email') ? true : undefined}
            aria-describedby={fieldDescribedBy('staff-email', { error: !!error('email') })}
          />
        </Field>
        <Field id="staff-role" label="Role" error={error('role')}>
          <Select id="staff-role" name="role" defaultValue={state.values.role || 'viewer'}>
            {STAFF_ROLES.map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </Select>
        </Field>
        <Button type="submit" className="sm:mt-7" disabled={isPending}>
          Create account
        </Button>
      </form>
      <ul className="grid gap-1 text-sm text-slate-600 sm:grid-cols-3">
        {STAFF_ROLES.map((role) => (
          <li key={role}>
            <strong className="font-medium text-slate-800">{ROLE_LABELS[role]}:</strong> {ROLE_DESCRIPTIONS[role]}
          </li>
        ))}
      </ul>
    </div>
  );
}
