'use client';
// Messages for client components, without shipping an ICU runtime to the browser (next-intl's
// client part weighs ~13 KB gzip, more than the pages' first-load budget allows). The server
// resolves the namespaces a client component needs (components/i18n/client-messages-for.tsx) and
// hands them down; client messages hold only plain text and {name} placeholders, which
// lib/i18n/catalogs.test.ts checks. Plurals and other choices are made on the server.
import { createContext, type ReactNode, useContext, useMemo } from 'react';
import type { Messages } from '@/lib/i18n/catalogs';
import { DEFAULT_LANGUAGE, type Language } from '@/lib/i18n/languages';

type ClientCatalog = { language: Language; messages: Messages };

const CatalogContext = createContext<ClientCatalog>({ language: DEFAULT_LANGUAGE, messages: {} });

/** Adds `messages` (namespace → messages) to those of the providers above. */
export function ClientMessagesProvider({ language, messages, children }: { language?: Language; messages: Messages; children: ReactNode }) {
  const outer = useContext(CatalogContext);
  const value = useMemo(
    () => ({ language: language ?? outer.language, messages: merged(outer.messages, messages) }),
    [language, messages, outer],
  );
  return <CatalogContext.Provider value={value}>{children}</CatalogContext.Provider>;
}

/** The page's language, for formatting dates and numbers in client components. */
export function useClientLanguage(): Language {
  return useContext(CatalogContext).language;
}

export type ClientTranslate = (key: string, values?: Record<string, string | number>) => string;

/**
 * A translate function for one namespace the server handed down ('create.form'). An unknown key
 * shows as itself, as next-intl does on the server, so a gap is visible rather than blank.
 */
export function useClientTranslations(namespace: string): ClientTranslate {
  const { messages } = useContext(CatalogContext);
  return useMemo(() => {
    const scope = lookup(messages, namespace);
    return (key, values) => {
      const message = typeof scope === 'object' ? lookup(scope, key) : undefined;
      if (typeof message !== 'string') return `${namespace}.${key}`;
      return values ? message.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole)) : message;
    };
  }, [messages, namespace]);
}

/** `inner` over `outer`, namespace by namespace ('create.form' beside 'create.result'). */
function merged(outer: Messages, inner: Messages): Messages {
  const result: Messages = { ...outer };
  for (const [key, value] of Object.entries(inner)) {
    const existing = result[key];
    result[key] = typeof value === 'object' && typeof existing === 'object' ? merged(existing, value) : value;
  }
  return result;
}

function lookup(messages: Messages, path: string): Messages | string | undefined {
  let node: Messages | string | undefined = messages;
  for (const part of path.split('.')) {
    if (typeof node !== 'object') return undefined;
    node = node[part];
  }
  return node;
}
