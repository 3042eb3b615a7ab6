// A password in its labelled field: the password type, the autocomplete that tells password
// managers whether to fill the saved one or suggest a new one, and the hint and the error wired
// to the input for screen readers. It has no default value: a password never comes back in a
// form's answer.
import { Field, fieldDescribedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';

export function PasswordField({
  id,
  name = id,
  label,
  hint,
  error,
  autoComplete,
  required,
}: {
  id: string;
  /** The posted name, when the page has two password forms and the ids must differ. */
  name?: string;
  label: string;
  hint?: string;
  error?: string;
  autoComplete: 'current-password' | 'new-password';
  required?: boolean;
}) {
  return (
    <Field id={id} label={label} hint={hint} error={error}>
      <Input
        id={id}
        name={name}
        type="password"
        autoComplete={autoComplete}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={fieldDescribedBy(id, { hint: !!hint, error: !!error })}
      />
    </Field>
  );
}
