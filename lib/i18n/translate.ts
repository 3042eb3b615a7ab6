// The shape of a translate function, for code that takes one as a parameter: a zod schema shared
// by the browser and the server gets next-intl's translator on the server and the client
// catalog's (components/i18n/client-messages.tsx) in the browser. Such a file names the
// parameter's namespace in an `// i18n: <name> = <namespace>` comment, for the catalog test.
export type Translate = (key: string, values?: Record<string, string | number>) => string;
