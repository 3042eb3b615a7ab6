// Hands client components below it the namespaces they use, resolved on the server in this
// request's language: they receive only those, never the whole catalog.
import { getLocale, getMessages } from 'next-intl/server';
import type { ReactNode } from 'react';
import type { Messages } from '@/lib/i18n/catalogs';
import { isLanguage } from '@/lib/i18n/languages';
import { ClientMessagesProvider } from './client-messages';

export async function ClientMessagesFor({ namespaces, children }: { namespaces: string[]; children: ReactNode }) {
  const [all, locale] = await Promise.all([getMessages(), getLocale()]);
  const picked: Messages = {};
  for (const namespace of namespaces) {
    let node: unknown = all;
    for (const part of namespace.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
    if (node === undefined) throw new Error(`No messages under ${namespace}`);
    setPath(picked, namespace, node as Messages);
  }
  return (
    <ClientMessagesProvider language={isLanguage(locale) ? locale : undefined} messages={picked}>
      {children}
    </ClientMessagesProvider>
  );
}

function setPath(target: Messages, path: string, value: Messages) {
  const parts = path.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (typeof next === 'object') node = next;
    else {
      const created: Messages = {};
      node[part] = created;
      node = created;
    }
  }
  node[parts[parts.length - 1] as string] = value;
}
