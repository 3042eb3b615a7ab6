// Look a verification up by its id, or by the address of its page: the form (lookup-form-fields.tsx,
// a client component) with its words, resolved on the server in the reader's language, so that
// any page can render it as it is.
import type { ComponentProps } from 'react';
import { ClientMessagesFor } from '@/components/i18n/client-messages-for';
import { LookupFormFields } from './lookup-form-fields';

export function LookupForm(props: ComponentProps<typeof LookupFormFields>) {
  return (
    <ClientMessagesFor namespaces={['detail.lookup']}>
      <LookupFormFields {...props} />
    </ClientMessagesFor>
  );
}
