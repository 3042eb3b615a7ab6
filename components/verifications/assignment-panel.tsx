'use client';
// Who is on a request, on its detail page: the assignee and since when, and for operators and
// administrators the buttons to take it, take it over, hand it back or give it to a colleague.
// Each button is a form posting to one server action, so it works without JavaScript; every form
// carries the assignee the page showed, and the server changes nothing if that is no longer so
// (the refusal says who has it now). A change made elsewhere shows here without a reload: the
// live stream announces it and the page's server part is rendered again.
import { useActionState } from 'react';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { FieldError } from '@/components/ui/field';
import { Select } from '@/components/ui/input';
import { LocalTime } from '@/components/ui/local-time';
import { refusalOf } from '@/lib/forms/form-state';
import { type AssignmentFormState, changeAssignmentAction } from '@/lib/verifications/assignment/actions';

export type AssignmentView = {
  assignee: { id: string; name: string; since: string } | null;
  /** Colleagues the request can be given to; empty for someone who may not assign. */
  colleagues: { id: string; name: string }[];
  canAssign: boolean;
  /** The staff member reading the page. */
  me: string;
};

export function AssignmentPanel({ verificationId, view }: { verificationId: string; view: AssignmentView }) {
  const t = useClientTranslations('detail.assignment');
  const expected = view.assignee?.id ?? '';
  const [state, action, isPending] = useActionState<AssignmentFormState, FormData>(changeAssignmentAction, {
    status: 'idle',
    values: { verificationId, intent: '', to: '', expected },
  });
  const refused = refusalOf(state);
  const toError = refused?.fieldErrors?.to?.[0];
  const mine = view.assignee?.id === view.me;
  const others = view.colleagues.filter((colleague) => colleague.id !== view.assignee?.id);

  /** One button, one form: the fields the action needs, and the assignee this page showed. */
  const intentForm = (intent: 'take' | 'give' | 'release', label: string, extra?: { to: string }, variant?: 'primary' | 'secondary') => (
    <form action={action}>
      <input type="hidden" name="verificationId" value={verificationId} />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="expected" value={expected} />
      <input type="hidden" name="to" value={extra?.to ?? ''} />
      <Button type="submit" variant={variant ?? 'secondary'} size="sm" disabled={isPending}>
        {label}
      </Button>
    </form>
  );

  return (
    <Card aria-labelledby="assignment-heading" data-testid="assignment">
      <CardHeader>
        <h2 id="assignment-heading" className="text-base font-semibold text-slate-900">
          {t('heading')}
        </h2>
      </CardHeader>
      <CardBody className="space-y-3">
        {view.assignee ? (
          <p className="text-sm text-slate-700" data-testid="assignee">
            {t('assignedTo')}{' '}
            <strong className="font-semibold text-slate-900" translate="no">
              {view.assignee.name}
            </strong>{' '}
            {t('since')} <LocalTime iso={view.assignee.since} />
          </p>
        ) : (
          <p className="text-sm text-slate-700" data-testid="assignee">
            {t('unassigned')}
          </p>
        )}
        {state.status === 'changed' ? <Alert tone="success" title={state.message} role="status" /> : null}
        {refused?.message ? (
          <Alert tone="error" title={t('notChanged')} role="alert">
            <p>{refused.message}</p>
          </Alert>
        ) : null}
        {/* The controls are for the screen: a printed page keeps who has the request. */}
        {view.canAssign ? (
          <div className="flex flex-wrap items-end gap-3 print:hidden">
            {view.assignee === null ? intentForm('take', t('take'), undefined, 'primary') : null}
            {view.assignee !== null && !mine ? intentForm('give', t('takeOver'), { to: view.me }) : null}
            {view.assignee !== null ? intentForm('release', t('release')) : null}
            {others.length > 0 ? (
              <form action={action} className="flex flex-wrap items-end gap-2">
                <input type="hidden" name="verificationId" value={verificationId} />
                <input type="hidden" name="intent" value="give" />
                <input type="hidden" name="expected" value={expected} />
                <div className="space-y-1">
                  <label htmlFor="assignment-to" className="block text-sm font-medium text-slate-900">
                    {t('giveLabel')}
                  </label>
                  <Select
                    id="assignment-to"
                    name="to"
                    sizing="h-8 w-56 max-w-full py-1"
                    defaultValue=""
                    aria-invalid={toError ? true : undefined}
                    aria-describedby={toError ? 'assignment-to-error' : undefined}
                  >
                    <option value="" disabled>
                      {t('choose')}
                    </option>
                    {others.map((colleague) => (
                      <option key={colleague.id} value={colleague.id} translate="no">
                        {colleague.name}
                      </option>
                    ))}
                  </Select>
                </div>
                <Button type="submit" variant="secondary" size="sm" disabled={isPending}>
                  {t('give')}
                </Button>
                <FieldError id="assignment-to-error" message={toError} />
              </form>
            ) : null}
          </div>
        ) : (
          <p className="text-sm text-slate-600 print:hidden">{t('whoAssigns')}</p>
        )}
      </CardBody>
    </Card>
  );
}
