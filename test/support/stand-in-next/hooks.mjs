// @ts-check
// Test support: a module-resolution hook that gives lib/cli/server.mjs the stand-in below in
// place of Next.js, so the real server can be started without a build. Registered with
// `node --import` (see test/support/start-server-with-stand-in.ts).

/**
 * @param {string} specifier
 * @param {unknown} context
 * @param {(specifier: string, context: unknown) => Promise<unknown>} nextResolve
 */
export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'next') return { url: new URL('./next.mjs', import.meta.url).href, shortCircuit: true };
  return nextResolve(specifier, context);
}
