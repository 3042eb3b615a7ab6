// The detail page's segment: hands the error boundary (error.tsx, a client component that Next
// renders in the page's place) its words, resolved on the server in the reader's language.
import type { ReactNode } from 'react';
import { ClientMessagesFor } from '@/components/i18n/client-messages-for';

export default function VerificationLayout({ children }: { children: ReactNode }) {
  return <ClientMessagesFor namespaces={['detail.error']}>{children}</ClientMessagesFor>;
}
