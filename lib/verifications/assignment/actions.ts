'use server';
// The assignment buttons' server action (the detail page's panel and the queue's rows): take a
// request, give it to a colleague, or hand it back, for operators and administrators
// (assignment.server.ts makes the change, atomically, and audits it). Its words are in the language
// of the staff member who sends it; a refusal says who holds the request now.
import { revalidatePath } from 'next/cache';
import { getTranslations } from 'next-intl/server';
import { formAction } from '@/lib/auth/form-action';
import { textField } from '@/lib/forms/action-input';
import type { FormState } from '@/lib/forms/form-state';
import { AssignmentRefused, assignRequest, takeRequest } from './assignment.server';
import { type AssignmentValues, assignmentSchema } from './schema';

export type AssignmentFormState = FormState<AssignmentValues, { status: 'changed'; values: AssignmentValues; message: string }>;

export async function changeAssignmentAction(previous: AssignmentFormState, formData: FormData) {
  const t = await getTranslations('detail.assignment');
  const action = formAction({
    permission: 'verification:assign',
    schema: assignmentSchema(t),
    read: (form): AssignmentValues => ({
      verificationId: textField(form, 'verificationId'),
      intent: textField(form, 'intent'),
      to: textField(form, 'to'),
      expected: textField(form, 'expected'),
    }),
    values: (typed) => ({
      verificationId: typed.verificationId.slice(0, 200),
      intent: typed.intent.slice(0, 20),
      to: typed.to.slice(0, 200),
      expected: typed.expected.slice(0, 200),
    }),
    invalid: { status: 'invalid', message: t('invalid') },
    run: async ({ data, staff, refuse }): Promise<AssignmentFormState> => {
      try {
        if (data.intent === 'take') await takeRequest(staff.id, data.verificationId);
        else await assignRequest(staff.id, data.verificationId, data.intent === 'give' ? data.to : null, data.expected || null);
      } catch (error) {
        if (!(error instanceof AssignmentRefused)) throw error;
        switch (error.reason) {
          case 'not_in_register':
            return refuse({ message: t('refused.notInRegister') });
          case 'not_a_colleague':
            return refuse({ fieldErrors: { to: [t('refused.notAColleague')] } });
          case 'taken':
            return refuse({
              message:
                error.holder === null
                  ? t('refused.changedToNobody')
                  : error.holder.id === staff.id
                    ? t('refused.yoursAlready')
                    : t('refused.taken', { name: error.holder.name }),
            });
        }
      }
      revalidatePath(`/verifications/${encodeURIComponent(data.verificationId)}`);
      revalidatePath('/queue');
      return {
        status: 'changed',
        values: { verificationId: data.verificationId, intent: data.intent, to: data.to, expected: data.expected },
        message: data.intent === 'take' ? t('changed.taken') : data.intent === 'give' ? t('changed.given') : t('changed.released'),
      };
    },
  });
  return action(previous, formData);
}
