'use server';
// "Check the chain now" on the audit page (administrators): runs the server's whole check of the
// audit chain at once, rather than at the next hourly run, and shows its verdict on the page.
import { revalidatePath } from 'next/cache';
import { getTranslations } from 'next-intl/server';
import { z } from 'zod';
import { checkAuditChain } from '@/lib/audit/chain/chain-check.server';
import { formAction } from '@/lib/auth/form-action';
import type { FormState, NoValues } from '@/lib/forms/form-state';

export type CheckChainState = FormState<NoValues, { status: 'checked'; intact: boolean; message: string }>;

export async function checkAuditChainAction(previous: CheckChainState, formData: FormData) {
  const t = await getTranslations('audit.chain.check');
  return formAction({
    permission: 'audit:read',
    schema: z.object({}),
    read: () => ({}),
    values: (): NoValues => ({}),
    run: async (): Promise<CheckChainState> => {
      const verdict = await checkAuditChain();
      revalidatePath('/audit');
      return { status: 'checked', intact: verdict.intact, message: verdict.intact ? t('intact') : t('broken') };
    },
  })(previous, formData);
}
